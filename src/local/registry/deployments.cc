// apps/v1 Deployment (../shared/spec/deployment-replicaset.md §5).
#include "local/registry/apps_defaults.h"
#include "local/registry/apps_status.h"
#include "local/registry/apps_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class DeploymentStrategy final : public Strategy {
 public:
  explicit DeploymentStrategy(ApiFeatures features) : features_(features) {}

  void apply_defaults(json::object& obj) const override { apply_deployment_defaults(obj); }

  void prepare_for_create(json::object& obj) const override {
    obj["status"] = json::object();  // an empty DeploymentStatus
    set_generation(obj, 1);
  }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "status");
    // Spec or annotation changes are a new generation (annotations carry the
    // deprecated rollback request).
    const json::object* meta = api::find_object(obj, "metadata");
    const json::object* old_meta = api::find_object(old, "metadata");
    const bool annotations_changed =
        meta && old_meta ? !member_equal(*meta, *old_meta, "annotations") : meta != old_meta;
    if (!member_equal(obj, old, "spec") || annotations_changed) {
      set_generation(obj, generation(old) + 1);
    }
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
    const json::object* old_meta = api::find_object(old, "metadata");
    json::object& meta = api::ensure_object(obj, "metadata");
    if (old_meta != nullptr) copy_member(meta, *old_meta, "labels");
    drop_disabled_status_fields(obj, old, features_);
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return validate_deployment(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_deployment_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& old) const override {
    return validate_deployment_status_update(obj, old);
  }

 private:
  const ApiFeatures features_;
};

}  // namespace

std::shared_ptr<const Strategy> deployment_strategy(const ApiFeatures& features) {
  return std::make_shared<DeploymentStrategy>(features);
}

}  // namespace kcm::local::registry
