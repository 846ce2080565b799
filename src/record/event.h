// core/v1 Event as the recorder writes it: the members tools/record sets,
// encoded in Go's member order so the sink sends what client-go would.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/object_meta.h"
#include "api/result.h"
#include "api/time.h"
#include "record/object_reference.h"

namespace kcm::record {

inline constexpr std::string_view kEventTypeNormal = "Normal";
inline constexpr std::string_view kEventTypeWarning = "Warning";

// util.ValidateEventType: only Normal and Warning are accepted.
bool is_valid_event_type(std::string_view type);

struct EventSource {
  std::string component;
  std::string host;
  friend bool operator==(const EventSource&, const EventSource&) = default;
};

struct Event {
  // metadata
  std::string name;
  std::string namespace_;
  std::string resource_version;
  api::StringMap annotations;

  ObjectReference involved_object;
  std::string reason;
  std::string message;
  EventSource source;
  api::Time first_timestamp;
  api::Time last_timestamp;
  std::int32_t count = 0;
  std::string type;
  std::string reporting_controller;  // "reportingComponent" on the wire
  std::string reporting_instance;

  // {"kind":"Event","apiVersion":"v1","metadata":{...},...}
  api::json::value to_json() const;
  // Reads what a server answers; members the recorder does not use are dropped.
  static Result<Event> from_json(const api::json::value& v);

  friend bool operator==(const Event&, const Event&) = default;
};

// Upstream's event name: "<object name>.<UnixNano in lowercase hex>", or a
// random UUID when that is not a valid DNS subdomain.
std::string generate_event_name(std::string_view ref_name, api::Time::TimePoint t);

// "Normal Reason message" with the involved object, for logs.
std::string describe(const Event& event);

}  // namespace kcm::record
