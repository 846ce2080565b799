// EventRecorder: what controllers call to record an event about an object
// (tools/record's EventRecorder). Recording never blocks: the event is queued
// for each of the broadcaster's watchers, and dropped for a watcher whose
// queue is full.
#pragma once

#include <fmt/core.h>

#include <string_view>
#include <utility>

#include "api/object.h"
#include "api/object_meta.h"
#include "record/object_reference.h"

namespace kcm::record {

class EventRecorder {
 public:
  virtual ~EventRecorder() = default;

  // `type` is "Normal" or "Warning" (others are logged and dropped); `reason`
  // is UpperCamelCase and machine-readable; `message` is for humans.
  virtual void event(const ObjectReference& object, std::string_view type, std::string_view reason,
                     std::string_view message) = 0;
  virtual void annotated_event(const ObjectReference& object, const api::StringMap& annotations,
                               std::string_view type, std::string_view reason,
                               std::string_view message) = 0;
  // The same for a whole object; without kind/apiVersion the reference cannot
  // be built and the event is logged and dropped.
  virtual void event(const api::Object& object, std::string_view type, std::string_view reason,
                     std::string_view message) = 0;

  // Eventf: the message is formatted with fmt.
  template <class... Args>
  void eventf(const ObjectReference& object, std::string_view type, std::string_view reason,
              fmt::format_string<Args...> format, Args&&... args) {
    event(object, type, reason, fmt::format(format, std::forward<Args>(args)...));
  }
  template <class... Args>
  void eventf(const api::Object& object, std::string_view type, std::string_view reason,
              fmt::format_string<Args...> format, Args&&... args) {
    event(object, type, reason, fmt::format(format, std::forward<Args>(args)...));
  }
};

}  // namespace kcm::record
