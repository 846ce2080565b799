#include "local/registry/event_validation.h"

#include <fmt/format.h>

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/semantic_equal.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

constexpr std::size_t kReportingInstanceLengthLimit = 128;
constexpr std::size_t kActionLengthLimit = 128;
constexpr std::size_t kReasonLengthLimit = 128;
constexpr std::size_t kNoteLengthLimit = 1024;

// The JSON member holding each internal Event field, per API version.
struct EventKeys {
  std::string_view involved_object, message, source, first_timestamp, last_timestamp, count,
      reporting_controller;
};

EventKeys keys_for(EventApi api) {
  if (api == EventApi::kEventsV1) {
    return {"regarding",
            "note",
            "deprecatedSource",
            "deprecatedFirstTimestamp",
            "deprecatedLastTimestamp",
            "deprecatedCount",
            "reportingController"};
  }
  return {"involvedObject", "message",           "source", "firstTimestamp", "lastTimestamp",
          "count",          "reportingComponent"};
}

std::string_view event_namespace(const json::object& event) {
  const json::object* meta = object_member(event, "metadata");
  return meta != nullptr ? string_member(*meta, "namespace") : "";
}

// legacyValidateEvent.
Errs legacy_validate(const json::object& event, const EventKeys& k) {
  Errs errs;
  const std::string_view ns = event_namespace(event);
  const json::object* involved = object_member(event, k.involved_object);
  const std::string_view involved_ns =
      involved != nullptr ? string_member(*involved, "namespace") : "";
  constexpr std::string_view kNsMismatch = "does not match event.namespace";
  if (!has(event, "eventTime")) {
    // Old-style events: the namespaces agree ("default" stands for none).
    if (involved_ns.empty() ? (!ns.empty() && ns != "default") : ns != involved_ns) {
      errs.push_back(api::invalid("involvedObject.namespace", json::value(involved_ns),
                                  std::string(kNsMismatch)));
    }
  } else {
    if (involved_ns.empty() && ns != "default" && ns != "kube-system") {
      errs.push_back(api::invalid("involvedObject.namespace", json::value(involved_ns),
                                  std::string(kNsMismatch)));
    }
    const std::string_view controller = string_member(event, k.reporting_controller);
    if (controller.empty()) errs.push_back(api::required("reportingController"));
    append_invalid("reportingController", controller, api::is_qualified_name(controller), errs);
    const auto limit = [&](std::string_view key, std::string_view path, std::size_t max,
                           bool required) {
      const std::string_view v = string_member(event, key);
      if (required && v.empty()) errs.push_back(api::required(std::string(path)));
      if (v.size() > max) {
        errs.push_back(api::invalid(std::string(path), json::value(""),
                                    fmt::format("can have at most {} characters", max)));
      }
    };
    limit("reportingInstance", "reportingInstance", kReportingInstanceLengthLimit, true);
    limit("action", "action", kActionLengthLimit, true);
    limit("reason", "reason", kReasonLengthLimit, true);
    limit(k.message, "message", kNoteLengthLimit, false);
  }
  append_invalid("namespace", ns, api::is_dns1123_subdomain(ns), errs);
  return errs;
}

void validate_series(const json::object& event, Errs& errs) {
  const json::object* series = object_member(event, "series");
  if (series == nullptr) return;
  if (int_member(*series, "count").value_or(0) < 2) {
    errs.push_back(api::invalid("series.count", json::value(""), "should be at least 2"));
  }
  if (!has(*series, "lastObservedTime")) errs.push_back(api::required("series.lastObservedTime"));
}

bool time_set(const json::object& event, std::string_view key) {
  const json::value* v = member(event, key);
  return v != nullptr && !(v->is_string() && v->get_string() == "0001-01-01T00:00:00Z");
}

}  // namespace

api::FieldErrors validate_event_create(const json::object& event, EventApi api) {
  const EventKeys k = keys_for(api);
  Errs errs = legacy_validate(event, k);
  if (api == EventApi::kCoreV1) return errs;
  validate_kube_finalizer_names(event, errs);
  validate_series(event, errs);
  if (!time_set(event, "eventTime")) errs.push_back(api::required("eventTime"));
  const std::string_view type = string_member(event, "type");
  if (type != "Normal" && type != "Warning") {
    errs.push_back(
        api::invalid("type", json::value(""), fmt::format("has invalid value: {}", type)));
  }
  if (time_set(event, k.first_timestamp)) {
    errs.push_back(api::invalid("firstTimestamp", json::value(""), "needs to be unset"));
  }
  if (time_set(event, k.last_timestamp)) {
    errs.push_back(api::invalid("lastTimestamp", json::value(""), "needs to be unset"));
  }
  if (int_member(event, k.count).value_or(0) != 0) {
    errs.push_back(api::invalid("count", json::value(""), "needs to be unset"));
  }
  const json::object* source = object_member(event, k.source);
  if (source != nullptr &&
      (!string_member(*source, "component").empty() || !string_member(*source, "host").empty())) {
    errs.push_back(api::invalid("source", json::value(""), "needs to be unset"));
  }
  return errs;
}

api::FieldErrors validate_event_update(const json::object& event, const json::object& old,
                                       EventApi api) {
  const EventKeys k = keys_for(api);
  Errs errs = legacy_validate(event, k);
  if (api == EventApi::kCoreV1) return errs;
  validate_kube_finalizer_names(event, errs);
  static const api::schema::Type& events_event = builtin_type("events.k8s.io/v1", "Event");
  if (!equal_member(event, old, "series", events_event)) {
    validate_series(event, errs);
  }
  // Upstream checks "reason" twice; both errors are kept.
  const std::pair<std::string_view, std::string_view> immutables[] = {
      {k.involved_object, "involvedObject"},
      {"reason", "reason"},
      {k.message, "message"},
      {k.source, "source"},
      {k.first_timestamp, "firstTimestamp"},
      {k.last_timestamp, "lastTimestamp"},
      {k.count, "count"},
      {"reason", "reason"},
      {"type", "type"},
      {"eventTime", "eventTime"},
      {"action", "action"},
      {"related", "related"},
      {k.reporting_controller, "reportingController"},
      {"reportingInstance", "reportingInstance"},
  };
  for (const auto& [key, path] : immutables) {
    const json::value* now = event.if_contains(key);
    const json::value* before = old.if_contains(key);
    if (!equal_member(now, before, key, events_event)) {
      errs.push_back(api::invalid(std::string(path), now != nullptr ? *now : json::value(""),
                                  std::string(kFieldImmutableErrorMsg)));
    }
  }
  return errs;
}

}  // namespace kcm::local::registry
