// core/v1 Namespace: the `kubernetes` finalizer, phase Active, and the
// kubernetes.io/metadata.name label upstream sets on every namespace.
#include "local/registry/field_access.h"
#include "local/registry/namespace_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class NamespaceStrategy final : public Strategy {
 public:
  void apply_defaults(json::object& obj) const override {
    json::object& meta = api::ensure_object(obj, "metadata");
    // Copy the name first: adding "labels" may move meta's members.
    const std::string name(api::find_string(meta, "name").value_or(""));
    if (!name.empty()) api::ensure_object(meta, "labels")["kubernetes.io/metadata.name"] = name;
    json::object& status = api::ensure_object(obj, "status");
    if (!status.contains("phase")) status["phase"] = "Active";
  }

  void prepare_for_create(json::object& obj) const override {
    obj["status"] = json::object{{"phase", "Active"}};
    // The kubernetes finalizer is required on create (the user's stay).
    json::object& spec = api::ensure_object(obj, "spec");
    json::value& finalizers = spec["finalizers"];
    if (!finalizers.is_array()) finalizers = json::array();
    for (const auto& f : finalizers.get_array()) {
      if (f.is_string() && f.get_string() == "kubernetes") return;
    }
    finalizers.get_array().emplace_back("kubernetes");
  }

  void prepare_for_update(json::object& obj, const json::object& old) const override {
    // Finalizers change only through the finalize subresource.
    json::object& spec = api::ensure_object(obj, "spec");
    if (const json::object* old_spec = api::find_object(old, "spec")) {
      copy_member(spec, *old_spec, "finalizers");
    } else {
      spec.erase("finalizers");
    }
    copy_member(obj, old, "status");
  }

  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return validate_namespace(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_namespace_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& old) const override {
    return validate_namespace_status_update(obj, old);
  }

  bool blocks_deletion(const json::object& obj) const override {
    const json::object* spec = api::find_object(obj, "spec");
    const json::array* finalizers = spec ? api::find_array(*spec, "finalizers") : nullptr;
    return finalizers != nullptr && !finalizers->empty();
  }

  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    out.push_back(field_string(obj, "status.phase"));
  }
};

}  // namespace

std::shared_ptr<const Strategy> namespace_strategy() {
  return std::make_shared<NamespaceStrategy>();
}

}  // namespace kcm::local::registry
