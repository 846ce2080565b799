// apps/v1 ReplicaSet (../shared/spec/deployment-replicaset.md §5).
#include "local/registry/apps_defaults.h"
#include "local/registry/apps_status.h"
#include "local/registry/apps_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class ReplicaSetStrategy final : public Strategy {
 public:
  explicit ReplicaSetStrategy(ApiFeatures features) : features_(features) {}

  void apply_defaults(json::object& obj) const override { apply_replica_set_defaults(obj); }

  void prepare_for_create(json::object& obj) const override {
    obj["status"] = json::object{{"replicas", 0}};  // an empty ReplicaSetStatus
    set_generation(obj, 1);
  }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "status");
    if (!member_equal(obj, old, "spec")) set_generation(obj, generation(old) + 1);
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
    drop_disabled_status_fields(obj, old, features_);
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return validate_replica_set(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_replica_set_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& old) const override {
    return validate_replica_set_status_update(obj, old);
  }

  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    const std::string replicas = field_string(obj, "status.replicas");
    out.push_back(replicas.empty() ? "0" : replicas);
  }

 private:
  const ApiFeatures features_;
};

}  // namespace

std::shared_ptr<const Strategy> replica_set_strategy(const ApiFeatures& features) {
  return std::make_shared<ReplicaSetStrategy>(features);
}

}  // namespace kcm::local::registry
