// What the simulated cluster inside kcm-local looks like: how many nodes, and
// how fast the simulated kubelets move pods through their lifecycle.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::local::cluster {

struct ClusterOptions {
  int nodes = 3;  // kcm-local-node-1 .. kcm-local-node-N; 0: no nodes
  // From binding until a container without a readiness probe reports ready.
  std::chrono::nanoseconds pod_ready_delay = std::chrono::seconds(1);
  // Upper bound on how long a deleted pod takes to stop (its grace period also bounds it).
  std::chrono::nanoseconds pod_terminate_delay = std::chrono::seconds(1);
  std::string kubelet_version = "v1.32.4";  // nodeInfo.kubeletVersion
  // kubelet's NodeLease renewal period and lease duration.
  std::chrono::nanoseconds lease_renew_interval = std::chrono::seconds(10);
  int lease_duration_seconds = 40;
  // How often node status is re-posted when nothing changed (nodeStatusReportFrequency).
  std::chrono::nanoseconds node_status_report_interval = std::chrono::minutes(5);
};

inline constexpr int kMaxNodes = 200;

// --nodes: a whole number in [0, kMaxNodes].
Result<int> parse_node_count(std::string_view text);

// A delay flag in Go duration syntax ("500ms", "2s", "0"); negative refused.
// Messages name the flag: `--pod-ready-delay: time: invalid duration "x"`.
Result<std::chrono::nanoseconds> parse_delay(std::string_view flag, std::string_view text);

}  // namespace kcm::local::cluster
