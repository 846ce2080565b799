// Reads of a pod's status and deletion that the cluster's kubelet and scheduler
// share; absent or mistyped fields read as empty.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::local::cluster {

namespace json = boost::json;

// status.phase of a pod ("" when absent).
inline std::string phase_of(const json::object& pod) {
  const json::object* s = api::find_object(pod, "status");
  return s ? std::string(api::find_string(*s, "phase").value_or("")) : std::string();
}

// Whether a pod's graceful deletion has begun (a non-null deletionTimestamp).
inline bool deleting(const json::object& pod) {
  const json::object* m = api::find_object(pod, "metadata");
  const json::value* ts = m ? m->if_contains("deletionTimestamp") : nullptr;
  return ts != nullptr && !ts->is_null();
}

}  // namespace kcm::local::cluster
