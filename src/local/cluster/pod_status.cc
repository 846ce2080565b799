#include "local/cluster/pod_status.h"

#include <algorithm>

#include "local/cluster/fake_ids.h"
#include "local/cluster/node_objects.h"
#include "local/registry/pod_qos.h"

namespace kcm::local::cluster {
namespace {

// Conditions the kubelet owns (kubetypes.PodConditionsByKubelet and PodReadyToStartContainers).
bool kubelet_owned(std::string_view type) {
  return type == "PodScheduled" || type == "Ready" || type == "Initialized" ||
         type == "ContainersReady" || type == "PodReadyToStartContainers";
}

const json::object* find_condition(const json::object* status, std::string_view type) {
  if (status == nullptr) return nullptr;
  const json::array* conditions = api::find_array(*status, "conditions");
  if (conditions == nullptr) return nullptr;
  for (const auto& c : *conditions) {
    if (c.is_object() && api::find_string(c.get_object(), "type") == type) return &c.get_object();
  }
  return nullptr;
}

json::object condition(const json::object* old_status, std::string_view type, bool status,
                       std::string_view reason, std::string_view message, const std::string& now) {
  const char* value = status ? "True" : "False";
  std::string transition = now;
  if (const json::object* old = find_condition(old_status, type)) {
    if (api::find_string(*old, "status") == value) {
      transition = std::string(api::find_string(*old, "lastTransitionTime").value_or(now));
    }
  }
  json::object c{{"type", type},
                 {"status", value},
                 {"lastProbeTime", nullptr},
                 {"lastTransitionTime", transition}};
  if (!reason.empty()) c["reason"] = reason;
  if (!message.empty()) c["message"] = message;
  return c;
}

json::object terminated_json(const TerminatedState& t) {
  json::object o{{"exitCode", t.exit_code},
                 {"reason", t.reason},
                 {"startedAt", format_time(t.started_at)},
                 {"finishedAt", format_time(t.finished_at)}};
  if (!t.container_id.empty()) o["containerID"] = t.container_id;
  return o;
}

json::object container_status(const ContainerRuntime& c) {
  json::object state;
  switch (c.state) {
    case ContainerRuntime::State::kRunning:
      state["running"] = json::object{{"startedAt", format_time(c.started_at)}};
      break;
    case ContainerRuntime::State::kWaiting: {
      json::object waiting{{"reason", c.waiting_reason}};
      if (!c.waiting_message.empty()) waiting["message"] = c.waiting_message;
      state["waiting"] = std::move(waiting);
      break;
    }
    case ContainerRuntime::State::kTerminated:
      if (c.terminated) state["terminated"] = terminated_json(*c.terminated);
      break;
  }
  json::object last;
  if (c.last_terminated) last["terminated"] = terminated_json(*c.last_terminated);
  json::object out{{"name", c.name},
                   {"image", normalize_image(c.image)},
                   {"imageID", c.container_id.empty() ? "" : image_id(c.image)},
                   {"ready", c.ready},
                   {"restartCount", c.restart_count},
                   {"started", c.state == ContainerRuntime::State::kRunning},
                   {"state", std::move(state)},
                   {"lastState", std::move(last)}};
  if (!c.container_id.empty()) out["containerID"] = c.container_id;
  return out;
}

bool init_done(const ContainerRuntime& c) {
  if (c.sidecar) return c.state == ContainerRuntime::State::kRunning;
  return c.state == ContainerRuntime::State::kTerminated && c.terminated &&
         c.terminated->exit_code == 0;
}

}  // namespace

std::string go_string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += " ";
    out += items[i];
  }
  return out + "]";
}

std::string normalize_image(std::string_view image) {
  std::string ref(image);
  std::string digest;
  if (const auto at = ref.find('@'); at != std::string::npos) {
    digest = ref.substr(at);
    ref.resize(at);
  }
  // A first component with a dot or a port, or "localhost", names a registry.
  const auto slash = ref.find('/');
  const std::string first = slash == std::string::npos ? "" : ref.substr(0, slash);
  const bool has_domain =
      !first.empty() && (first.find_first_of(".:") != std::string::npos || first == "localhost");
  if (!has_domain) ref = (slash == std::string::npos ? "docker.io/library/" : "docker.io/") + ref;
  const auto last_slash = ref.rfind('/');
  const bool has_tag =
      ref.find(':', last_slash == std::string::npos ? 0 : last_slash) != std::string::npos;
  if (!has_tag && digest.empty()) ref += ":latest";
  return ref + digest;
}

std::string image_id(std::string_view image) {
  std::string ref = normalize_image(image);
  if (const auto at = ref.find('@'); at != std::string::npos) return ref;
  const auto last_slash = ref.rfind('/');
  if (const auto colon = ref.find(':', last_slash); colon != std::string::npos) ref.resize(colon);
  return ref + "@sha256:" + hex_from(normalize_image(image), 64);
}

json::object build_pod_status(const PodRuntime& runtime, const json::object& pod_spec,
                              const json::object* old_status, TimePoint now) {
  const std::string now_text = format_time(now);
  const bool terminal = runtime.phase == "Succeeded" || runtime.phase == "Failed";

  std::vector<std::string> incomplete_init;
  for (const auto& c : runtime.init_containers) {
    if (!init_done(c)) incomplete_init.push_back(c.name);
  }
  // Sidecars count for readiness beside the regular containers.
  std::vector<std::string> unready;
  for (const auto& c : runtime.init_containers) {
    if (c.sidecar && !c.ready) unready.push_back(c.name);
  }
  for (const auto& c : runtime.containers) {
    if (!c.ready) unready.push_back(c.name);
  }

  json::array conditions;
  if (old_status != nullptr) {
    if (const json::array* old = api::find_array(*old_status, "conditions")) {
      for (const auto& c : *old) {
        if (c.is_object() &&
            !kubelet_owned(api::find_string(c.get_object(), "type").value_or(""))) {
          conditions.push_back(c);
        }
      }
    }
  }
  conditions.push_back(condition(old_status, "PodReadyToStartContainers",
                                 runtime.sandbox_ready && !terminal, "", "", now_text));
  if (incomplete_init.empty() || terminal) {
    conditions.push_back(condition(old_status, "Initialized", true, "", "", now_text));
  } else {
    conditions.push_back(condition(
        old_status, "Initialized", false, "ContainersNotInitialized",
        "containers with incomplete status: " + go_string_list(incomplete_init), now_text));
  }
  for (const char* type : {"Ready", "ContainersReady"}) {
    if (terminal) {
      conditions.push_back(condition(old_status, type, false, "PodCompleted", "", now_text));
    } else if (!unready.empty()) {
      conditions.push_back(condition(old_status, type, false, "ContainersNotReady",
                                     "containers with unready status: " + go_string_list(unready),
                                     now_text));
    } else {
      conditions.push_back(condition(old_status, type, true, "", "", now_text));
    }
  }
  conditions.push_back(condition(old_status, "PodScheduled", true, "", "", now_text));

  json::object status{{"phase", runtime.phase}, {"conditions", std::move(conditions)}};
  if (!runtime.host_ip.empty()) {
    status["hostIP"] = runtime.host_ip;
    status["hostIPs"] = json::array{json::object{{"ip", runtime.host_ip}}};
  }
  if (!runtime.pod_ip.empty()) {
    status["podIP"] = runtime.pod_ip;
    status["podIPs"] = json::array{json::object{{"ip", runtime.pod_ip}}};
  }
  status["startTime"] = format_time(runtime.start_time);
  if (!runtime.init_containers.empty()) {
    json::array init;
    for (const auto& c : runtime.init_containers)
      init.push_back(container_status(c));
    status["initContainerStatuses"] = std::move(init);
  }
  // kubelet reports regular containers sorted by name.
  std::vector<const ContainerRuntime*> sorted;
  for (const auto& c : runtime.containers)
    sorted.push_back(&c);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->name < b->name; });
  json::array containers;
  for (const auto* c : sorted)
    containers.push_back(container_status(*c));
  status["containerStatuses"] = std::move(containers);

  std::string qos;
  if (old_status != nullptr)
    qos = std::string(api::find_string(*old_status, "qosClass").value_or(""));
  if (qos.empty()) qos = registry::compute_pod_qos(pod_spec);
  status["qosClass"] = qos;
  return status;
}

}  // namespace kcm::local::cluster
