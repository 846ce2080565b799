#include "ecsbind/reconciler.h"

#include <algorithm>
#include <utility>

#include "controller/owner_references.h"

namespace kcm::ecsbind {
namespace {

// The Node's addresses with exactly one InternalIP, `ip`, first; the other
// address types (a Hostname someone added) are kept in their order.
std::vector<api::core_v1::NodeAddress> with_internal_ip(
    const std::vector<api::core_v1::NodeAddress>& addresses, const std::string& ip) {
  std::vector<api::core_v1::NodeAddress> out;
  out.push_back({.type = std::string(api::core_v1::node_address_type::kInternalIP),
                 .address = ip,
                 .extra = {}});
  for (const auto& a : addresses) {
    if (a.type != api::core_v1::node_address_type::kInternalIP) out.push_back(a);
  }
  return out;
}

// Compared as the API would see them (NodeAddress's == ignores layout only).
bool same_addresses(const std::vector<api::core_v1::NodeAddress>& a,
                    const std::vector<api::core_v1::NodeAddress>& b) {
  return a == b;
}

}  // namespace

std::string desired_node_name(const EcsBind& bind) {
  if (bind.spec.node_name && !bind.spec.node_name->empty()) return *bind.spec.node_name;
  return std::string(kNodeNamePrefix) + bind.spec.instance_id;
}

Node desired_node(const EcsBind& bind) {
  Node node;
  node.metadata.name = desired_node_name(bind);
  node.metadata.labels[std::string(kInstanceIdLabel)] = bind.spec.instance_id;
  node.metadata.owner_references.push_back(
      controller::controller_reference_to({.api_version = EcsBind::kind_info.api_version(),
                                           .kind = std::string(EcsBind::kind_info.kind),
                                           .name = bind.metadata.name,
                                           .uid = bind.metadata.uid,
                                           .namespace_ = ""}));
  node.status.addresses = with_internal_ip({}, bind.spec.private_ip);
  return node;
}

bool controlled_by(const Node& node, const EcsBind& bind) {
  for (const api::OwnerReference& ref : node.metadata.owner_references) {
    // Only the first controller reference counts (GetControllerOf).
    if (ref.controller.value_or(false)) return ref.uid == bind.metadata.uid;
  }
  return false;
}

NodePlan plan_node(const EcsBind& bind, const std::optional<Node>& existing) {
  NodePlan plan;
  if (!existing) {
    plan.action = NodeAction::kCreate;
    plan.node = desired_node(bind);
    return plan;
  }
  if (!controlled_by(*existing, bind)) {
    plan.action = NodeAction::kTaken;
    return plan;
  }
  plan.node = *existing;
  auto& labels = plan.node.metadata.labels;
  const std::string label(kInstanceIdLabel);
  if (auto it = labels.find(label); it == labels.end() || it->second != bind.spec.instance_id) {
    labels[label] = bind.spec.instance_id;
    plan.metadata_changed = true;
  }
  auto addresses = with_internal_ip(existing->status.addresses, bind.spec.private_ip);
  if (!same_addresses(addresses, existing->status.addresses)) {
    plan.node.status.addresses = std::move(addresses);
    plan.addresses_changed = true;
  }
  plan.action =
      plan.metadata_changed || plan.addresses_changed ? NodeAction::kRepair : NodeAction::kInSync;
  return plan;
}

std::vector<std::string> stale_node_names(const EcsBind& bind, const std::vector<Node>& nodes) {
  const std::string wanted = desired_node_name(bind);
  std::vector<std::string> out;
  for (const Node& node : nodes) {
    if (node.metadata.name != wanted && controlled_by(node, bind))
      out.push_back(node.metadata.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Outcome pending_outcome(const EcsBind& bind) {
  return {.phase = phase::kPending,
          .reason = "Binding",
          .message = "Waiting for node \"" + desired_node_name(bind) + "\"",
          .node_name = ""};
}

Outcome bound_outcome(const EcsBind& bind) {
  const std::string name = desired_node_name(bind);
  return {.phase = phase::kBound,
          .reason = "NodeBound",
          .message = "Instance " + bind.spec.instance_id + " is node \"" + name +
                     "\" with InternalIP " + bind.spec.private_ip,
          .node_name = name};
}

Outcome taken_outcome(const EcsBind& bind) {
  return {.phase = phase::kFailed,
          .reason = "NodeNameTaken",
          .message = "Node \"" + desired_node_name(bind) +
                     "\" already exists and is not controlled by this EcsBind",
          .node_name = ""};
}

std::optional<EcsBindStatus> status_update(const EcsBind& bind, const Outcome& outcome,
                                           api::Time now) {
  const EcsBindStatus& old = bind.status;
  EcsBindStatus next = old;
  next.phase = std::string(outcome.phase);
  next.reason = outcome.reason;
  next.message = outcome.message;
  next.node_name = outcome.node_name;
  next.observed_generation = bind.metadata.generation;

  std::string_view ready = api::condition_status::kUnknown;
  if (outcome.phase == phase::kBound) ready = api::condition_status::kTrue;
  if (outcome.phase == phase::kFailed) ready = api::condition_status::kFalse;
  const bool condition_changed =
      api::set_condition(next.conditions,
                         {.type = std::string(kReadyCondition),
                          .status = std::string(ready),
                          .observed_generation = bind.metadata.generation,
                          .last_transition_time = {},
                          .reason = outcome.reason,
                          .message = outcome.message,
                          .extra = {}},
                         now);
  const bool changed = condition_changed || next.phase != old.phase || next.reason != old.reason ||
                       next.message != old.message || next.node_name != old.node_name ||
                       next.observed_generation != old.observed_generation;
  if (!changed) return std::nullopt;
  return next;
}

}  // namespace kcm::ecsbind
