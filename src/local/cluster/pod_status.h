// The pod status a kubelet reports, built from the simulated state of a pod's
// containers: phase, the kubelet-owned conditions (PodReadyToStartContainers,
// Initialized, Ready, ContainersReady, PodScheduled) with lastTransitionTime
// kept while unchanged, container statuses with ids, states and restarts,
// host and pod IPs, start time and QoS class.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "api/json.h"

namespace kcm::local::cluster {

namespace json = boost::json;
using TimePoint = std::chrono::system_clock::time_point;

struct TerminatedState {
  int exit_code = 0;
  std::string reason;  // "Completed", "Error"
  TimePoint started_at;
  TimePoint finished_at;
  std::string container_id;
};

struct ContainerRuntime {
  enum class State { kWaiting, kRunning, kTerminated };

  std::string name;
  std::string image;     // as in the spec
  bool sidecar = false;  // an init container with restartPolicy Always
  State state = State::kWaiting;
  std::string container_id;  // "containerd://<64 hex>" of the current (or last) run
  TimePoint started_at;      // of the current run
  std::string waiting_reason = "ContainerCreating";
  std::string waiting_message;
  std::optional<TerminatedState> terminated;       // the current state when kTerminated
  std::optional<TerminatedState> last_terminated;  // lastState
  int restart_count = 0;
  bool ready = false;
};

struct PodRuntime {
  std::string phase = "Pending";  // Pending | Running | Succeeded | Failed
  std::string host_ip;
  std::string pod_ip;
  TimePoint start_time;
  bool sandbox_ready = true;
  std::vector<ContainerRuntime> init_containers;  // in spec order
  std::vector<ContainerRuntime> containers;       // in spec order
};

// The status to write for `runtime`. `old_status` provides lastTransitionTimes,
// conditions kubelet does not own (kept, ahead of kubelet's) and the qosClass.
json::object build_pod_status(const PodRuntime& runtime, const json::object& pod_spec,
                              const json::object* old_status, TimePoint now);

// containerd's view of an image reference: "nginx" -> "docker.io/library/nginx:latest".
std::string normalize_image(std::string_view image);
// A digest reference for the image as the runtime reports imageID
// ("docker.io/library/nginx@sha256:..."); made up, but stable per image.
std::string image_id(std::string_view image);

// "[a b]": Go's %v of a string slice, as kubelet's condition messages print names.
std::string go_string_list(const std::vector<std::string>& items);

}  // namespace kcm::local::cluster
