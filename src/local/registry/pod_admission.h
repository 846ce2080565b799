// The mutating admission plugins of a default kube-apiserver that touch new
// pods: Priority (priority 0 and preemptionPolicy PreemptLowerPriority when no
// PriorityClass applies) and DefaultTolerationSeconds (tolerate the not-ready
// and unreachable NoExecute taints for 300s). kcm-local serves no
// PriorityClasses or ServiceAccounts, so those parts of admission do not apply.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

void admit_pod(json::object& pod);

}  // namespace kcm::local::registry
