// Event validation (upstream's pkg/apis/core/validation/events.go). Both
// APIs store the same internal Event upstream; field paths in errors are the
// internal ones ("involvedObject.namespace", "reportingController", ...)
// whichever API the request used. core/v1 requests only get the legacy
// checks; events.k8s.io/v1 requests get the strict ones too.
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

enum class EventApi { kCoreV1, kEventsV1 };

api::FieldErrors validate_event_create(const json::object& event, EventApi api);
api::FieldErrors validate_event_update(const json::object& event, const json::object& old,
                                       EventApi api);

}  // namespace kcm::local::registry
