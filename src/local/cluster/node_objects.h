// The Node and Lease objects a kubelet registers and keeps fresh, shaped as
// upstream's kubelet writes them (conditions with kubelet's reasons and
// messages, capacity, nodeInfo, addresses, daemonEndpoints, the node lease).
#pragma once

#include <chrono>
#include <string>

#include "api/json.h"

namespace kcm::local::cluster {

namespace json = boost::json;

// One simulated node: kcm-local-node-<index>, index from 1.
struct SimulatedNode {
  int index = 1;
  std::string name;
  bool control_plane = false;  // the first node
  std::string internal_ip;     // 172.18.0.<index+1>
  std::string pod_cidr;        // 10.244.<index-1>.0/24

  static SimulatedNode make(int index);
};

inline constexpr std::string_view kNodeNamePrefix = "kcm-local-node-";
inline constexpr std::string_view kNodeLeaseNamespace = "kube-node-lease";

struct NodeInfoOptions {
  std::string kubelet_version = "v1.32.4";
  std::string boot_id;  // changes per kcm-local run, as per machine boot
};

// A new Node object (metadata, spec and status) as kubelet registers it.
json::object build_node(const SimulatedNode& node, const NodeInfoOptions& info,
                        std::chrono::system_clock::time_point now);

// The status kubelet posts: heartbeats are `now`; a condition keeps its
// lastTransitionTime from `old_status` while its status is unchanged.
json::object build_node_status(const SimulatedNode& node, const NodeInfoOptions& info,
                               const json::object* old_status,
                               std::chrono::system_clock::time_point now);

// The node's heartbeat Lease in kube-node-lease, owned by the Node.
json::object build_node_lease(std::string_view node_name, std::string_view node_uid,
                              int lease_duration_seconds,
                              std::chrono::system_clock::time_point now);

// RFC 3339 with seconds (metav1.Time) and with microseconds (metav1.MicroTime).
std::string format_time(std::chrono::system_clock::time_point t);
std::string format_micro_time(std::chrono::system_clock::time_point t);

}  // namespace kcm::local::cluster
