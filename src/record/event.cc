#include "record/event.h"

#include <fmt/core.h>

#include <chrono>

#include "api/name_validation.h"
#include "record/uuid.h"

namespace kcm::record {

bool is_valid_event_type(std::string_view type) {
  return type == kEventTypeNormal || type == kEventTypeWarning;
}

api::json::value Event::to_json() const {
  namespace json = api::json;
  json::object meta;
  meta["name"] = name;
  if (!namespace_.empty()) meta["namespace"] = namespace_;
  if (!resource_version.empty()) meta["resourceVersion"] = resource_version;
  meta["creationTimestamp"] = nullptr;
  if (!annotations.empty()) {
    json::object a;
    for (const auto& [k, v] : annotations)
      a[k] = v;
    meta["annotations"] = std::move(a);
  }
  json::object source_json;
  if (!source.component.empty()) source_json["component"] = source.component;
  if (!source.host.empty()) source_json["host"] = source.host;

  json::object o;
  o["kind"] = "Event";
  o["apiVersion"] = "v1";
  o["metadata"] = std::move(meta);
  o["involvedObject"] = involved_object.to_json();
  if (!reason.empty()) o["reason"] = reason;
  if (!message.empty()) o["message"] = message;
  o["source"] = std::move(source_json);
  o["firstTimestamp"] = first_timestamp.to_json();
  o["lastTimestamp"] = last_timestamp.to_json();
  if (count != 0) o["count"] = count;
  if (!type.empty()) o["type"] = type;
  o["eventTime"] = nullptr;
  o["reportingComponent"] = reporting_controller;
  o["reportingInstance"] = reporting_instance;
  return o;
}

Result<Event> Event::from_json(const api::json::value& v) {
  if (!v.is_object()) return fail("event: expected object");
  const auto& o = v.get_object();
  Event e;
  const auto str = [](const api::json::object& obj, std::string_view key) {
    return std::string(api::find_string(obj, key).value_or(""));
  };
  if (const auto* meta = api::find_object(o, "metadata")) {
    e.name = str(*meta, "name");
    e.namespace_ = str(*meta, "namespace");
    e.resource_version = str(*meta, "resourceVersion");
    if (const auto* a = api::find_object(*meta, "annotations")) {
      for (const auto& [k, val] : *a) {
        if (val.is_string()) e.annotations.emplace(std::string(k), std::string(val.get_string()));
      }
    }
  }
  if (const auto* io = api::find(o, "involvedObject")) {
    auto ref = ObjectReference::from_json(*io);
    if (!ref) return fail(ref.error());
    e.involved_object = std::move(*ref);
  }
  e.reason = str(o, "reason");
  e.message = str(o, "message");
  if (const auto* s = api::find_object(o, "source")) {
    e.source.component = str(*s, "component");
    e.source.host = str(*s, "host");
  }
  for (auto [key, field] : {std::pair{"firstTimestamp", &e.first_timestamp},
                            std::pair{"lastTimestamp", &e.last_timestamp}}) {
    if (const auto* t = api::find(o, key)) {
      auto parsed = api::Time::from_json(*t);
      if (!parsed) return fail(fmt::format("{}: {}", key, parsed.error()));
      *field = *parsed;
    }
  }
  e.count = static_cast<std::int32_t>(api::find_int(o, "count").value_or(0));
  e.type = str(o, "type");
  e.reporting_controller = str(o, "reportingComponent");
  e.reporting_instance = str(o, "reportingInstance");
  return e;
}

std::string generate_event_name(std::string_view ref_name, api::Time::TimePoint t) {
  const auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  std::string name = fmt::format("{}.{:x}", ref_name, nanos);
  if (!api::is_dns1123_subdomain(name).empty()) name = new_uuid();
  return name;
}

std::string describe(const Event& event) {
  const auto& io = event.involved_object;
  return fmt::format("{}/{} kind={} apiVersion={} type={} reason={} message={:?}", io.namespace_,
                     io.name, io.kind, io.api_version, event.type, event.reason, event.message);
}

}  // namespace kcm::record
