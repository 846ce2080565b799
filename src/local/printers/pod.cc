// Pods: NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES,
// with upstream printPod's STATUS derivation from phase, reason, init and app
// container states and the deletion timestamp.
#include <fmt/format.h>

#include <iterator>
#include <map>
#include <string>

#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kPodColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic.", 0},
    {"Status", "string", "", "The aggregate status of the containers in this pod.", 0},
    {"Restarts", "string", "",
     "The number of times the containers in this pod have been restarted and when the last "
     "container in this pod has restarted.",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
    {"IP", "string", "",
     "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet "
     "allocated.",
     1},
    {"Node", "string", "",
     "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate "
     "for scheduling by the scheduler defined in schedulerName. Once this field is set, the "
     "kubelet for this node becomes responsible for the lifecycle of this pod. This field should "
     "not be used to express a desire for the pod to be scheduled on a specific node. "
     "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
     1},
    {"Nominated Node", "string", "",
     "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot "
     "be scheduled right away as preemption victims receive their graceful termination periods. "
     "This field does not guarantee that the pod will be scheduled on this node. Scheduler may "
     "decide to place the pod elsewhere if other nodes become available sooner. Scheduler may "
     "also decide to give the resources on this node to a higher priority pod that is created "
     "after preemption. As a result, this field may be different than PodSpec.nodeName when the "
     "pod is scheduled.",
     1},
    {"Readiness Gates", "string", "",
     "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when "
     "all its containers are ready AND all conditions specified in the readiness gates have "
     "status equal to \"True\" More info: "
     "https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
     1},
};

// node.NodeUnreachablePodReason: set by the node lifecycle controller.
constexpr std::string_view kNodeLostReason = "NodeLost";

json::object completed_condition(std::string_view reason, std::string_view message) {
  json::object c;
  c["type"] = "Completed";
  c["status"] = "True";
  c["reason"] = reason;
  c["message"] = message;
  return c;
}

// podutil.IsRestartableInitContainer: a sidecar (restartPolicy Always).
bool is_restartable(const json::object* init_container) {
  return string_at(init_container, "restartPolicy") == "Always";
}

// isPodInitializedConditionTrue: the first Initialized condition decides.
bool initialized_condition_true(const json::array* conditions) {
  if (conditions == nullptr) return false;
  for (const json::value& v : *conditions) {
    const json::object* c = v.if_object();
    if (string_at(c, "type") != "Initialized") continue;
    return string_at(c, "status") == "True";
  }
  return false;
}

bool has_ready_condition(const json::array* conditions) {
  if (conditions == nullptr) return false;
  for (const json::value& v : *conditions) {
    const json::object* c = v.if_object();
    if (string_at(c, "type") == "Ready" && string_at(c, "status") == "True") return true;
  }
  return false;
}

// lastState.terminated.finishedAt, the zero time when the container never
// terminated before.
api::Time last_termination(const json::object* container_status) {
  const json::object* terminated =
      object_at(object_at(container_status, "lastState"), "terminated");
  if (terminated == nullptr) return {};
  return time_at(terminated, "finishedAt");
}

std::string readiness_gates_cell(const json::object* spec, const json::array* conditions) {
  const json::array* gates = array_at(spec, "readinessGates");
  if (gates == nullptr || gates->empty()) return "<none>";
  std::size_t true_conditions = 0;
  for (const json::value& g : *gates) {
    const std::string_view type = string_at(g.if_object(), "conditionType");
    if (conditions == nullptr) continue;
    for (const json::value& v : *conditions) {
      const json::object* c = v.if_object();
      if (string_at(c, "type") != type) continue;
      if (string_at(c, "status") == "True") ++true_conditions;
      break;
    }
  }
  return fmt::format("{}/{}", true_conditions, gates->size());
}

std::string or_none(std::string_view s) {
  return s.empty() ? std::string("<none>") : std::string(s);
}

Row print_pod(const json::object& pod, const PrintContext& context) {
  const json::object* metadata = api::find_object(pod, "metadata");
  const json::object* spec = api::find_object(pod, "spec");
  const json::object* status = api::find_object(pod, "status");
  const json::array* conditions = array_at(status, "conditions");
  const json::array* containers = array_at(spec, "containers");
  const json::array* init_containers = array_at(spec, "initContainers");

  std::int64_t restarts = 0;
  std::int64_t restartable_init_restarts = 0;
  std::int64_t total_containers = containers == nullptr ? 0 : std::ssize(*containers);
  std::int64_t ready_containers = 0;
  api::Time last_restart;
  api::Time last_restartable_init_restart;

  const std::string_view phase = string_at(status, "phase");
  std::string reason(phase);
  if (!string_at(status, "reason").empty()) reason = string_at(status, "reason");

  if (conditions != nullptr) {
    for (const json::value& v : *conditions) {
      const json::object* c = v.if_object();
      if (string_at(c, "type") == "PodScheduled" && string_at(c, "reason") == "SchedulingGated") {
        reason = "SchedulingGated";
      }
    }
  }

  Row row;
  if (phase == "Succeeded") {
    row.conditions.push_back(
        completed_condition("Succeeded", "The pod has completed successfully."));
  } else if (phase == "Failed") {
    row.conditions.push_back(completed_condition("Failed", "The pod failed."));
  }

  // Init containers by name; restartable ones (sidecars) count as containers.
  std::map<std::string_view, bool, std::less<>> restartable_init;
  if (init_containers != nullptr) {
    for (const json::value& v : *init_containers) {
      const json::object* c = v.if_object();
      const bool restartable = is_restartable(c);
      restartable_init[string_at(c, "name")] = restartable;
      if (restartable) ++total_containers;
    }
  }
  const auto is_restartable_init = [&](std::string_view name) {
    const auto it = restartable_init.find(name);
    return it != restartable_init.end() && it->second;
  };

  bool initializing = false;
  if (const json::array* statuses = array_at(status, "initContainerStatuses")) {
    const std::size_t init_count = init_containers == nullptr ? 0 : init_containers->size();
    for (std::size_t i = 0; i < statuses->size(); ++i) {
      const json::object* container = (*statuses)[i].if_object();
      const std::string_view name = string_at(container, "name");
      const std::int64_t restart_count = int_at(container, "restartCount");
      restarts += restart_count;
      const bool had_termination = object_at(object_at(container, "lastState"), "terminated");
      const api::Time terminated_at = last_termination(container);
      if (had_termination && last_restart < terminated_at) last_restart = terminated_at;
      const bool restartable = is_restartable_init(name);
      if (restartable) {
        restartable_init_restarts += restart_count;
        if (had_termination && last_restartable_init_restart < terminated_at) {
          last_restartable_init_restart = terminated_at;
        }
      }
      const json::object* state = object_at(container, "state");
      const json::object* terminated = object_at(state, "terminated");
      const json::object* waiting = object_at(state, "waiting");
      if (terminated != nullptr && int_at(terminated, "exitCode") == 0) continue;
      if (restartable && bool_at(container, "started")) {
        if (bool_at(container, "ready")) ++ready_containers;
        continue;
      }
      if (terminated != nullptr) {
        // Initialization failed.
        const std::string_view terminated_reason = string_at(terminated, "reason");
        if (terminated_reason.empty()) {
          const std::int64_t signal = int_at(terminated, "signal");
          reason = signal != 0 ? fmt::format("Init:Signal:{}", signal)
                               : fmt::format("Init:ExitCode:{}", int_at(terminated, "exitCode"));
        } else {
          reason = fmt::format("Init:{}", terminated_reason);
        }
      } else if (waiting != nullptr && !string_at(waiting, "reason").empty() &&
                 string_at(waiting, "reason") != "PodInitializing") {
        reason = fmt::format("Init:{}", string_at(waiting, "reason"));
      } else {
        reason = fmt::format("Init:{}/{}", i, init_count);
      }
      initializing = true;
      break;
    }
  }

  if (!initializing || initialized_condition_true(conditions)) {
    restarts = restartable_init_restarts;
    last_restart = last_restartable_init_restart;
    bool has_running = false;
    if (const json::array* statuses = array_at(status, "containerStatuses")) {
      // Backwards, so that the first container's state has the last word.
      for (std::size_t i = statuses->size(); i-- > 0;) {
        const json::object* container = (*statuses)[i].if_object();
        restarts += int_at(container, "restartCount");
        if (object_at(object_at(container, "lastState"), "terminated") != nullptr) {
          const api::Time terminated_at = last_termination(container);
          if (last_restart < terminated_at) last_restart = terminated_at;
        }
        const json::object* state = object_at(container, "state");
        const json::object* waiting = object_at(state, "waiting");
        const json::object* terminated = object_at(state, "terminated");
        if (waiting != nullptr && !string_at(waiting, "reason").empty()) {
          reason = string_at(waiting, "reason");
        } else if (terminated != nullptr && !string_at(terminated, "reason").empty()) {
          reason = string_at(terminated, "reason");
        } else if (terminated != nullptr) {
          const std::int64_t signal = int_at(terminated, "signal");
          reason = signal != 0 ? fmt::format("Signal:{}", signal)
                               : fmt::format("ExitCode:{}", int_at(terminated, "exitCode"));
        } else if (bool_at(container, "ready") && object_at(state, "running") != nullptr) {
          has_running = true;
          ++ready_containers;
        }
      }
    }
    // A pod whose containers report Completed but one still runs is Running
    // (or NotReady without the Ready condition).
    if (reason == "Completed" && has_running) {
      reason = has_ready_condition(conditions) ? "Running" : "NotReady";
    }
  }

  const bool deleting = present(metadata, "deletionTimestamp");
  if (deleting && string_at(status, "reason") == kNodeLostReason) {
    reason = "Unknown";
  } else if (deleting && phase != "Succeeded" && phase != "Failed") {
    reason = "Terminating";
  }

  std::string restarts_cell = std::to_string(restarts);
  if (restarts != 0 && !last_restart.is_zero()) {
    restarts_cell = fmt::format("{} ({} ago)", restarts, age(last_restart, context.now));
  }

  row.cells.emplace_back(object_name(pod));
  row.cells.emplace_back(fmt::format("{}/{}", ready_containers, total_containers));
  row.cells.emplace_back(reason);
  row.cells.emplace_back(restarts_cell);
  row.cells.emplace_back(creation_age(pod, context.now));
  if (context.wide) {
    std::string_view pod_ip;
    if (const json::array* ips = array_at(status, "podIPs"); ips != nullptr && !ips->empty()) {
      pod_ip = string_at((*ips)[0].if_object(), "ip");
    }
    row.cells.emplace_back(or_none(pod_ip));
    row.cells.emplace_back(or_none(string_at(spec, "nodeName")));
    row.cells.emplace_back(or_none(string_at(status, "nominatedNodeName")));
    row.cells.emplace_back(readiness_gates_cell(spec, conditions));
  }
  return row;
}

}  // namespace

const TablePrinter& pod_printer() {
  static constexpr TablePrinter kPrinter{kPodColumns, &print_pod};
  return kPrinter;
}

}  // namespace kcm::local::printers
