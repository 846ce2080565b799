// Events: LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE FIRST
// SEEN COUNT NAME (upstream printEvent). events.k8s.io/v1 Events print the
// same after upstream's conversion to the internal Event, which renames
// regarding, note, deprecatedSource, deprecatedFirstTimestamp,
// deprecatedLastTimestamp and deprecatedCount.
#include <string>

#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kEventColumns[] = {
    {"Last Seen", "string", "",
     "The time at which the most recent occurrence of this event was recorded.", 0},
    {"Type", "string", "",
     "Type of this event (Normal, Warning), new types could be added in the future", 0},
    {"Reason", "string", "",
     "This should be a short, machine understandable string that gives the reason for the "
     "transition into the object's current status.",
     0},
    {"Object", "string", "", "The object that this event is about.", 0},
    {"Subobject", "string", "",
     "If referring to a piece of an object instead of an entire object, this string should "
     "contain a valid JSON/Go field access statement, such as "
     "desiredState.manifest.containers[2]. For example, if the object reference is to a "
     "container within a pod, this would take on a value like: \"spec.containers{name}\" (where "
     "\"name\" refers to the name of the container that triggered the event) or if no container "
     "name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax "
     "is chosen only to have some well-defined way of referencing a part of an object.",
     1},
    {"Source", "string", "",
     "The component reporting this event. Should be a short machine understandable string.", 1},
    {"Message", "string", "", "A human-readable description of the status of this operation.", 0},
    {"First Seen", "string", "",
     "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", 1},
    {"Count", "string", "", "The number of times this event has occurred.", 1},
    {"Name", "string", "name", kNameDescription, 1},
};

// Where each internal Event field lives in one wire version.
struct EventFields {
  std::string_view involved_object;
  std::string_view message;
  std::string_view source;
  std::string_view first_timestamp;
  std::string_view last_timestamp;
  std::string_view count;
  std::string_view reporting_controller;
};

constexpr EventFields kCoreV1Fields{"involvedObject",    "message",       "source",
                                    "firstTimestamp",    "lastTimestamp", "count",
                                    "reportingComponent"};
constexpr EventFields kEventsV1Fields{"regarding",
                                      "note",
                                      "deprecatedSource",
                                      "deprecatedFirstTimestamp",
                                      "deprecatedLastTimestamp",
                                      "deprecatedCount",
                                      "reportingController"};

// upstream formatEventSource: component (or the reporting controller), then
// ", host" (or the reporting instance) when there is one.
std::string event_source(const json::object& event, const EventFields& fields) {
  const json::object* source = api::find_object(event, fields.source);
  std::string_view component = string_at(source, "component");
  if (component.empty()) component = string_at(&event, fields.reporting_controller);
  std::string_view host = string_at(source, "host");
  if (host.empty()) host = string_at(&event, "reportingInstance");
  std::string out(component);
  if (!host.empty()) {
    out += ", ";
    out += host;
  }
  return out;
}

Row print_event(const json::object& event, const PrintContext& context, const EventFields& fields) {
  const api::Time first_timestamp = time_at(&event, fields.first_timestamp);
  std::string first_seen = age(first_timestamp, context.now);
  if (first_timestamp.is_zero()) first_seen = age(time_at(&event, "eventTime"), context.now);

  const api::Time last_timestamp = time_at(&event, fields.last_timestamp);
  std::string last_seen = age(last_timestamp, context.now);
  if (last_timestamp.is_zero()) last_seen = first_seen;

  std::int64_t count = int_at(&event, fields.count);
  if (const json::object* series = api::find_object(event, "series")) {
    last_seen = age(time_at(series, "lastObservedTime"), context.now);
    count = int_at(series, "count");
  } else if (count == 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }

  const json::object* involved = api::find_object(event, fields.involved_object);
  std::string target = ascii_lower(string_at(involved, "kind"));
  if (const std::string_view name = string_at(involved, "name"); !name.empty()) {
    target += '/';
    target += name;
  }
  const std::string_view message = trim_space(string_at(&event, fields.message));

  Row row;
  row.cells.emplace_back(last_seen);
  row.cells.emplace_back(string_at(&event, "type"));
  row.cells.emplace_back(string_at(&event, "reason"));
  row.cells.emplace_back(target);
  if (context.wide) {
    row.cells.emplace_back(string_at(involved, "fieldPath"));
    row.cells.emplace_back(event_source(event, fields));
    row.cells.emplace_back(message);
    row.cells.emplace_back(first_seen);
    row.cells.emplace_back(count);
    row.cells.emplace_back(object_name(event));
  } else {
    row.cells.emplace_back(message);
  }
  return row;
}

Row print_core_event(const json::object& event, const PrintContext& context) {
  return print_event(event, context, kCoreV1Fields);
}

Row print_events_v1_event(const json::object& event, const PrintContext& context) {
  return print_event(event, context, kEventsV1Fields);
}

}  // namespace

const TablePrinter& event_printer() {
  static constexpr TablePrinter kPrinter{kEventColumns, &print_core_event};
  return kPrinter;
}

const TablePrinter& events_v1_printer() {
  static constexpr TablePrinter kPrinter{kEventColumns, &print_events_v1_event};
  return kPrinter;
}

}  // namespace kcm::local::printers
