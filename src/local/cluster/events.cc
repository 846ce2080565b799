#include "local/cluster/events.h"

#include <fmt/format.h>

#include "api/metadata_member.h"
#include "local/cluster/node_objects.h"

namespace kcm::local::cluster {
namespace {

json::object pod_reference(const json::object& pod) {
  return json::object{{"kind", "Pod"},
                      {"namespace", api::metadata_string(pod, "namespace")},
                      {"name", api::metadata_string(pod, "name")},
                      {"uid", api::metadata_string(pod, "uid")},
                      {"apiVersion", "v1"},
                      {"resourceVersion", api::metadata_string(pod, "resourceVersion")}};
}

// "<object>.<unix nanoseconds in hex>", as client-go's recorders name events.
std::string event_name(const json::object& pod, std::chrono::system_clock::time_point now) {
  const auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  return fmt::format("{}.{:x}", api::metadata_string(pod, "name"), nanos);
}

}  // namespace

json::object scheduler_event(const json::object& pod, const EventSpec& spec,
                             std::string_view reporting_instance,
                             std::chrono::system_clock::time_point now) {
  return json::object{
      {"apiVersion", "events.k8s.io/v1"},
      {"kind", "Event"},
      {"metadata", json::object{{"name", event_name(pod, now)},
                                {"namespace", api::metadata_string(pod, "namespace")}}},
      {"eventTime", format_micro_time(now)},
      {"reportingController", "default-scheduler"},
      {"reportingInstance", reporting_instance},
      {"action", spec.action},
      {"reason", spec.reason},
      {"regarding", pod_reference(pod)},
      {"note", spec.message},
      {"type", spec.type},
  };
}

json::object kubelet_event(const json::object& pod, std::string_view node, const EventSpec& spec,
                           std::chrono::system_clock::time_point now) {
  json::object involved = pod_reference(pod);
  if (!spec.field_path.empty()) involved["fieldPath"] = spec.field_path;
  const std::string t = format_time(now);
  return json::object{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", json::object{{"name", event_name(pod, now)},
                                {"namespace", api::metadata_string(pod, "namespace")}}},
      {"involvedObject", std::move(involved)},
      {"reason", spec.reason},
      {"message", spec.message},
      {"source", json::object{{"component", "kubelet"}, {"host", node}}},
      {"firstTimestamp", t},
      {"lastTimestamp", t},
      {"count", 1},
      {"type", spec.type},
      {"eventTime", nullptr},
      {"reportingComponent", "kubelet"},
      {"reportingInstance", node},
  };
}

EventRecorder::EventRecorder(ApiAccess& api, std::string scheduler_instance)
    : api_(api), scheduler_instance_(std::move(scheduler_instance)) {}

void EventRecorder::scheduler(const json::object& pod, const EventSpec& spec) {
  record(false, pod, "", spec);
}

void EventRecorder::kubelet(const json::object& pod, std::string_view node, const EventSpec& spec) {
  record(true, pod, node, spec);
}

void EventRecorder::forget(std::string_view uid) {
  if (auto it = recorded_.find(uid); it != recorded_.end()) recorded_.erase(it);
}

void EventRecorder::record(bool core, const json::object& pod, std::string_view node,
                           const EventSpec& spec) {
  const auto now = spec.when == std::chrono::system_clock::time_point{}
                       ? std::chrono::system_clock::now()
                       : spec.when;
  const std::string uid = api::metadata_string(pod, "uid");
  const std::string key = spec.reason + "\n" + spec.message + "\n" + spec.field_path;
  auto& per_object = recorded_[uid];
  const Kind kind = core ? Kind::kCoreEvents : Kind::kEvents;
  if (auto it = per_object.find(key); it != per_object.end()) {
    // A repeat: count it on the event already written.
    Recorded& r = it->second;
    const int count = ++r.count;
    api_.update(
        kind, r.namespace_, r.name,
        [core, count, now](const json::object& current) -> Result<json::object, api::Status> {
          json::object next = current;
          if (core) {
            next["count"] = count;
            next["lastTimestamp"] = format_time(now);
          } else {
            next["series"] =
                json::object{{"count", count}, {"lastObservedTime", format_micro_time(now)}};
          }
          return next;
        },
        [](const ApiAccess::Outcome&) {});
    return;
  }
  json::object event = core ? kubelet_event(pod, node, spec, now)
                            : scheduler_event(pod, spec, scheduler_instance_, now);
  per_object.emplace(key, Recorded{api::metadata_string(pod, "namespace"),
                                   api::metadata_string(event, "name"), 1});
  api_.create(kind, api::metadata_string(pod, "namespace"), std::move(event),
              [](const ApiAccess::Outcome&) {});
}

}  // namespace kcm::local::cluster
