// Pod updates: what the main resource may change (images, a shorter
// activeDeadlineSeconds, added tolerations, removed scheduling gates; node
// selector and affinity additions while gated), and status updates
// (upstream's ValidatePodUpdate and ValidatePodStatusUpdate).
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

api::FieldErrors validate_pod_update(const json::object& pod, const json::object& old);
api::FieldErrors validate_pod_status_update(const json::object& pod, const json::object& old);

}  // namespace kcm::local::registry
