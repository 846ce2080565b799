// core/v1 Node, declared with the same templates as custom kinds (see
// api/kind_info.h and api/described_json.h). Modelled: what controllers that
// register or watch nodes read and write (providerID, unschedulable, taints,
// status.addresses and status.conditions); everything else (capacity,
// nodeInfo, images, podCIDRs, ...) passes through the UnknownFields members
// unchanged.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/described_json.h"
#include "api/kind_info.h"
#include "api/object_meta.h"
#include "api/time.h"

namespace kcm::api::core_v1 {

namespace node_address_type {
inline constexpr std::string_view kHostname = "Hostname";
inline constexpr std::string_view kInternalIP = "InternalIP";
inline constexpr std::string_view kExternalIP = "ExternalIP";
inline constexpr std::string_view kInternalDNS = "InternalDNS";
inline constexpr std::string_view kExternalDNS = "ExternalDNS";
}  // namespace node_address_type

namespace node_condition_type {
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kMemoryPressure = "MemoryPressure";
inline constexpr std::string_view kDiskPressure = "DiskPressure";
inline constexpr std::string_view kPIDPressure = "PIDPressure";
inline constexpr std::string_view kNetworkUnavailable = "NetworkUnavailable";
}  // namespace node_condition_type

namespace taint_effect {
inline constexpr std::string_view kNoSchedule = "NoSchedule";
inline constexpr std::string_view kPreferNoSchedule = "PreferNoSchedule";
inline constexpr std::string_view kNoExecute = "NoExecute";
}  // namespace taint_effect

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
  std::optional<Time> time_added;
  UnknownFields extra;

  static constexpr JsonMember json_members[] = {
      {.member = "key", .keep_empty = true},
      {.member = "effect", .keep_empty = true},
  };
  friend bool operator==(const Taint&, const Taint&) = default;
};
BOOST_DESCRIBE_STRUCT(Taint, (), (key, value, effect, time_added, extra))

struct NodeSpec {
  std::string provider_id;
  bool unschedulable = false;
  std::vector<Taint> taints;
  UnknownFields extra;  // podCIDR(s), configSource, externalID

  static constexpr JsonMember json_members[] = {
      {.member = "provider_id", .json = "providerID"},
  };
};
BOOST_DESCRIBE_STRUCT(NodeSpec, (), (provider_id, unschedulable, taints, extra))

struct NodeAddress {
  std::string type;  // node_address_type
  std::string address;
  UnknownFields extra;

  static constexpr JsonMember json_members[] = {
      {.member = "type", .keep_empty = true},
      {.member = "address", .keep_empty = true},
  };
  friend bool operator==(const NodeAddress&, const NodeAddress&) = default;
};
BOOST_DESCRIBE_STRUCT(NodeAddress, (), (type, address, extra))

// Not metav1.Condition: nodes have a heartbeat and optional reason/message.
struct NodeCondition {
  std::string type;    // node_condition_type
  std::string status;  // "True", "False", "Unknown"
  Time last_heartbeat_time;
  Time last_transition_time;
  std::string reason;
  std::string message;
  UnknownFields extra;

  static constexpr JsonMember json_members[] = {
      {.member = "type", .keep_empty = true},
      {.member = "status", .keep_empty = true},
  };
  friend bool operator==(const NodeCondition&, const NodeCondition&) = default;
};
BOOST_DESCRIBE_STRUCT(NodeCondition, (),
                      (type, status, last_heartbeat_time, last_transition_time, reason, message,
                       extra))

struct NodeStatus {
  std::vector<NodeCondition> conditions;
  std::vector<NodeAddress> addresses;
  UnknownFields extra;  // capacity, allocatable, nodeInfo, images, ...
};
BOOST_DESCRIBE_STRUCT(NodeStatus, (), (conditions, addresses, extra))

struct Node {
  static constexpr KindInfo kind_info{
      .group = "", .version = "v1", .kind = "Node", .plural = "nodes", .scope = Scope::kCluster};
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;
  UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(Node, (), (metadata, spec, status, extra))

// The condition of `type` in status.conditions, or nullptr.
inline const NodeCondition* find_node_condition(const Node& node, std::string_view type) {
  for (const NodeCondition& c : node.status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

}  // namespace kcm::api::core_v1
