// Events as the scheduler (events.k8s.io/v1, reportingController
// default-scheduler) and the kubelet (core/v1, source kubelet) record them,
// with repeats folded into one object as upstream's recorders do (a series
// count, or count and lastTimestamp).
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "api/json.h"
#include "local/cluster/api_access.h"

namespace kcm::local::cluster {

namespace json = boost::json;

struct EventSpec {
  std::string type;    // Normal | Warning
  std::string reason;  // Scheduled, FailedScheduling, Pulled, ...
  std::string action;  // events.k8s.io only: Binding, Scheduling
  std::string message;
  std::string field_path;  // core only: spec.containers{web}
  // When it happened; the epoch means now.
  std::chrono::system_clock::time_point when{};
};

// The first occurrence, as the scheduler's events.k8s.io recorder writes it.
json::object scheduler_event(const json::object& pod, const EventSpec& spec,
                             std::string_view reporting_instance,
                             std::chrono::system_clock::time_point now);

// The first occurrence, as the kubelet's core/v1 recorder writes it.
json::object kubelet_event(const json::object& pod, std::string_view node, const EventSpec& spec,
                           std::chrono::system_clock::time_point now);

// Records events through the API (on the Loop thread).
class EventRecorder {
 public:
  EventRecorder(ApiAccess& api, std::string scheduler_instance);

  void scheduler(const json::object& pod, const EventSpec& spec);
  void kubelet(const json::object& pod, std::string_view node, const EventSpec& spec);
  // Drops what is remembered about the object with `uid` (it is gone).
  void forget(std::string_view uid);

 private:
  struct Recorded {
    std::string namespace_;
    std::string name;
    int count = 1;
  };
  void record(bool core, const json::object& pod, std::string_view node, const EventSpec& spec);

  ApiAccess& api_;
  std::string scheduler_instance_;
  // uid -> (reason + message + field path) -> the event object written.
  std::map<std::string, std::map<std::string, Recorded>, std::less<>> recorded_;
};

}  // namespace kcm::local::cluster
