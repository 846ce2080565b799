// core/v1 Node: status is written by the (simulated) kubelet, spec by users.
#include "local/registry/field_access.h"
#include "local/registry/node_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/resource_list_defaults.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class NodeStrategy final : public Strategy {
 public:
  // SetDefaults_NodeStatus: allocatable defaults to capacity; both lists are
  // canonical quantities.
  void apply_defaults(json::object& obj) const override {
    json::object* status = mutable_object_member(obj, "status");
    if (status == nullptr) return;
    if (!has(*status, "allocatable")) {
      if (const json::object* capacity = object_member(*status, "capacity")) {
        const json::object copy = *capacity;
        (*status)["allocatable"] = copy;
      }
    }
    canonicalize_resource_list_member(*status, "capacity");
    canonicalize_resource_list_member(*status, "allocatable");
  }

  void prepare_for_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "status");
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
  }

  api::FieldErrors validate(const json::object& obj) const override { return validate_node(obj); }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_node_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& old) const override {
    return validate_node_update(obj, old);
  }

  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    const std::string unschedulable = field_string(obj, "spec.unschedulable");
    out.push_back(unschedulable.empty() ? "false" : unschedulable);
  }
};

}  // namespace

std::shared_ptr<const Strategy> node_strategy() {
  return std::make_shared<NodeStrategy>();
}

}  // namespace kcm::local::registry
