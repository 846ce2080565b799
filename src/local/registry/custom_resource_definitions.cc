// apiextensions.k8s.io/v1 CustomResourceDefinition: the API rules live in
// local/crd (validation, defaults, status); this is their Strategy, plus the
// cleanup finalizer upstream's REST Delete adds on the first DELETE.
#include "api/time.h"
#include "local/crd/crd_defaults.h"
#include "local/crd/crd_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

constexpr std::string_view kCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

class CustomResourceDefinitionStrategy final : public Strategy {
 public:
  void apply_defaults(json::object& obj) const override { crd::crd_defaults(obj); }

  void prepare_for_create(json::object& obj) const override { crd::crd_prepare_for_create(obj); }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    crd::crd_prepare_for_update(obj, old);
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return crd::validate_crd(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return crd::validate_crd_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& /*old*/) const override {
    return crd::validate_crd_status_update(obj);
  }

  // upstream customresourcedefinition.REST.Delete: the finalizer that makes
  // the CRD wait for its objects' deletion, and the Terminating condition.
  void prepare_for_delete(json::object& obj) const override {
    json::object& meta = api::ensure_object(obj, "metadata");
    json::value& finalizers = meta["finalizers"];
    if (!finalizers.is_array()) finalizers = json::array();
    bool present = false;
    for (const auto& f : finalizers.get_array()) {
      if (api::as_string_view(&f) == kCleanupFinalizer) present = true;
    }
    if (!present) finalizers.get_array().emplace_back(kCleanupFinalizer);
    set_crd_condition(obj, "Terminating", "True", "InstanceDeletionPending",
                      "CustomResourceDefinition marked for deletion; CustomResource deletion will "
                      "begin soon");
  }
};

}  // namespace

void set_crd_condition(json::object& crd, std::string_view type, std::string_view status,
                       std::string_view reason, std::string_view message) {
  json::object& st = api::ensure_object(crd, "status");
  json::value& conditions = st["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  json::object next{{"type", type},
                    {"status", status},
                    {"lastTransitionTime", api::Time::now().to_string()},
                    {"reason", reason},
                    {"message", message}};
  for (auto& c : conditions.get_array()) {
    json::object* existing = c.if_object();
    if (existing == nullptr || api::find_string(*existing, "type") != type) continue;
    // The transition time moves only when the status does (upstream SetCRDCondition).
    if (api::find_string(*existing, "status") == status) {
      if (const json::value* t = existing->if_contains("lastTransitionTime")) {
        next["lastTransitionTime"] = *t;
      }
    }
    *existing = std::move(next);
    return;
  }
  conditions.get_array().emplace_back(std::move(next));
}

std::shared_ptr<const Strategy> custom_resource_definition_strategy() {
  return std::make_shared<CustomResourceDefinitionStrategy>();
}

}  // namespace kcm::local::registry
