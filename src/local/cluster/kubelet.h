// The simulated kubelets of kcm-local's nodes, one object for all of them:
// registers the Nodes (kept when they exist), renews their Leases, and runs
// the pods bound to them through a kubelet's status life cycle:
//
// - a bound pod starts at once (init containers complete, containers run,
//   a pod IP from the node's 10.244.N.0/24) and turns Ready after the ready
//   delay: --pod-ready-delay, or the annotation local.kcm.dev/ready-after,
//   at least a readiness probe's initialDelaySeconds;
//   local.kcm.dev/never-ready: "true" keeps it Running but never Ready;
// - local.kcm.dev/crash: "true" makes its containers exit with code 1 after
//   running for a moment and restart with kubelet's back-off (10s doubling to
//   5m; local.kcm.dev/crash-backoff sets the first step, for tests), showing
//   CrashLoopBackOff; with restartPolicy Never the pod fails instead;
// - a deleted pod's containers stop, and after the smaller of its grace
//   period and --pod-terminate-delay the kubelet deletes it (grace 0, UID
//   precondition).
//
// Every status goes through the pods/status subresource. Loop thread only.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/json.h"
#include "local/cluster/api_access.h"
#include "local/cluster/events.h"
#include "local/cluster/loop.h"
#include "local/cluster/node_objects.h"
#include "local/cluster/options.h"
#include "local/cluster/pod_status.h"

namespace kcm::local::cluster {

inline constexpr std::string_view kReadyAfterAnnotation = "local.kcm.dev/ready-after";
inline constexpr std::string_view kNeverReadyAnnotation = "local.kcm.dev/never-ready";
inline constexpr std::string_view kCrashAnnotation = "local.kcm.dev/crash";
inline constexpr std::string_view kCrashBackoffAnnotation = "local.kcm.dev/crash-backoff";

// kubelet's container restart back-off: 10s doubling up to 5m.
inline constexpr std::chrono::seconds kDefaultCrashBackoff{10};
inline constexpr std::chrono::seconds kMaxCrashBackoff{300};

// The back-off before the restart that follows crash number `crashes` (from
// 1): the first restart is immediate, then `initial` doubling up to the cap.
std::chrono::nanoseconds crash_backoff(std::chrono::nanoseconds initial, int crashes);

class Kubelet {
 public:
  Kubelet(Loop& loop, ApiAccess& api, EventRecorder& events, const ClusterOptions& options);

  // Creates missing Nodes, posts status for existing ones, creates or renews
  // their Leases; `done` gets the first error, if any, once all are through.
  void register_nodes(std::function<void(Result<void>)> done);
  // Lease renewals and periodic node status.
  void start_heartbeats();

  void on_pod(ApiAccess::EventType type, json::object pod);

 private:
  struct NodeState {
    SimulatedNode node;
    std::string uid;
    std::set<int> used_ips;  // last octets taken in the pod CIDR
    int last_ip_octet = 0;   // the last one handed out (0: none yet)
    Loop::Timer lease_timer;
    Loop::Timer status_timer;
  };
  struct PodState {
    std::string key;
    std::string uid;
    std::string node;
    json::object pod;  // as last seen
    PodRuntime runtime;
    int ip_octet = 0;
    int crashes = 0;
    bool terminating = false;
    Loop::Timer ready_timer;
    Loop::Timer crash_timer;
    Loop::Timer stop_timer;  // the end of the containers' preStop hooks
    Loop::Timer delete_timer;
    // The newest runtime to report. A pod has at most one status write in
    // flight: writes racing each other (Running, then Ready at once with a
    // zero ready delay) made the API server's retries run out on conflicts
    // and left pods unready. A write asked for meanwhile is sent when the
    // one in flight completes, with the newest runtime.
    struct LatestStatus {
      std::mutex mu;  // runtime and now: the mutation runs on the store's threads
      PodRuntime runtime;
      std::chrono::system_clock::time_point now;
      bool in_flight = false;  // loop thread only
      bool pending = false;    // loop thread only
    };
    std::shared_ptr<LatestStatus> latest = std::make_shared<LatestStatus>();
  };

  void register_node(NodeState& n, std::function<void(Result<void>)> done);
  void renew_lease(NodeState& n);
  void post_node_status(NodeState& n);

  void start_pod(PodState& s);
  void adopt_pod(PodState& s);
  // How long until the pod's containers turn ready (zero: now), or nullopt
  // when they never will or already are.
  std::optional<std::chrono::nanoseconds> readiness_wait(const PodState& s) const;
  static bool mark_running_containers_ready(PodRuntime& rt);  // whether any changed
  void schedule_ready(PodState& s);
  void become_ready(PodState& s);
  void crash(PodState& s);
  void restart(PodState& s);
  // A deleted pod: "Killing" events, the preStop sleep hooks, then
  // stop_containers and schedule_removal.
  void terminate(PodState& s);
  // The containers end; the pod reports a terminal phase.
  void stop_containers(PodState& s);
  // Deletes the pod object after --pod-terminate-delay, within what is left
  // of its grace period.
  void schedule_removal(PodState& s, std::chrono::seconds grace_left);
  void write_status(PodState& s);
  void send_status(const std::string& key, const std::string& uid,
                   std::shared_ptr<PodState::LatestStatus> latest);
  void release(PodState& s);
  void container_started_events(PodState& s, const ContainerRuntime& c, bool init);

  NodeState* node_state(std::string_view name);
  int allocate_ip(NodeState& n);

  Loop& loop_;
  ApiAccess& api_;
  EventRecorder& events_;
  ClusterOptions options_;
  NodeInfoOptions info_;
  std::vector<NodeState> nodes_;
  std::map<std::string, PodState> pods_;  // by namespace/name
};

}  // namespace kcm::local::cluster
