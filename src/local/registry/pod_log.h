// GET pods/NAME/log: which container's log a request reads, and whether it
// can be read, as kube-apiserver (pod.LogLocation) and then the kubelet
// (validateContainerLogStatus) decide. kcm-local's simulated containers
// write nothing, so a log that can be read is empty; what clients meet are
// these choices and refusals, worded as upstream words them.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::local::registry {

struct PodLogTarget {
  std::string container;
  bool running = false;  // still writing: a follower waits for more
};

// `container` is the request's ?container= ("" picks the only one);
// `previous` its ?previous=true. Errors are 400s.
Result<PodLogTarget, api::Status> pod_log_target(const json::object& pod,
                                                 std::string_view container, bool previous);

}  // namespace kcm::local::registry
