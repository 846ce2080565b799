#include "local/registry/pod_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "local/registry/field_access.h"

namespace kcm::local::registry {
namespace {

std::vector<std::string> names_of(const json::object& spec, std::string_view list) {
  std::vector<std::string> names;
  if (const json::array* cs = array_member(spec, list)) {
    for (const auto& c : *cs) {
      if (c.is_object()) names.emplace_back(string_member(c.get_object(), "name"));
    }
  }
  return names;
}

// Go's %v of a []string: [a b c].
std::string go_list(const std::vector<std::string>& names) {
  return fmt::format("[{}]", fmt::join(names, " "));
}

// The container's entry in one of the status lists, or null.
const json::object* container_status(const json::object& status, std::string_view container) {
  for (const std::string_view list :
       {"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"}) {
    if (const json::array* statuses = array_member(status, list)) {
      for (const auto& s : *statuses) {
        if (s.is_object() && string_member(s.get_object(), "name") == container) {
          return &s.get_object();
        }
      }
    }
  }
  return nullptr;
}

}  // namespace

Result<PodLogTarget, api::Status> pod_log_target(const json::object& pod,
                                                 std::string_view container, bool previous) {
  const std::string pod_name(string_member(member_or_empty(pod, "metadata"), "name"));
  const json::object& spec = member_or_empty(pod, "spec");
  const auto containers = names_of(spec, "containers");
  const auto init = names_of(spec, "initContainers");
  PodLogTarget target;
  // The API server's part (pod.LogLocation): the container, then the node.
  if (container.empty()) {
    if (containers.size() == 1) {
      target.container = containers.front();
    } else if (containers.empty()) {
      return fail(
          api::bad_request(fmt::format("a container name must be specified for pod {}", pod_name)));
    } else {
      std::string message =
          fmt::format("a container name must be specified for pod {}, choose one of: {}", pod_name,
                      go_list(containers));
      if (!init.empty()) message += " or one of the init containers: " + go_list(init);
      return fail(api::bad_request(std::move(message)));
    }
  } else {
    const auto ephemeral = names_of(spec, "ephemeralContainers");
    const auto known = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), container) != names.end();
    };
    if (!known(containers) && !known(init) && !known(ephemeral)) {
      return fail(api::bad_request(
          fmt::format("container {} is not valid for pod {}", container, pod_name)));
    }
    target.container = std::string(container);
  }
  // Not scheduled: no kubelet to ask, and upstream answers an empty log.
  if (string_member(spec, "nodeName").empty()) return target;

  // The kubelet's part (validateContainerLogStatus), in its order.
  const std::string quoted_container = api::go_quote(target.container);
  const std::string quoted_pod = api::go_quote(pod_name);
  const json::object* status = container_status(member_or_empty(pod, "status"), target.container);
  if (status == nullptr) {
    return fail(api::bad_request(
        fmt::format("container {} in pod {} is not available", quoted_container, quoted_pod)));
  }
  const json::object& state = member_or_empty(*status, "state");
  const json::object* last_terminated =
      api::find_object(member_or_empty(*status, "lastState"), "terminated");
  if (previous) {
    if (last_terminated == nullptr || string_member(*last_terminated, "containerID").empty()) {
      return fail(api::bad_request(fmt::format(
          "previous terminated container {} in pod {} not found", quoted_container, quoted_pod)));
    }
    return target;
  }
  if (state.contains("running")) {
    target.running = true;
    return target;
  }
  if (state.contains("terminated") || last_terminated != nullptr) return target;
  if (const json::object* waiting = api::find_object(state, "waiting")) {
    const std::string_view reason = string_member(*waiting, "reason");
    std::string why(reason);
    if (reason == "ErrImagePull") why = "image can't be pulled";
    if (reason == "ImagePullBackOff") why = "trying and failing to pull image";
    return fail(api::bad_request(fmt::format("container {} in pod {} is waiting to start: {}",
                                             quoted_container, quoted_pod, why)));
  }
  return fail(api::bad_request(fmt::format(
      "container {} in pod {} is waiting to start - no logs yet", quoted_container, quoted_pod)));
}

}  // namespace kcm::local::registry
