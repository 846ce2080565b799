// FakeRecorder (tools/record's FakeRecorder): keeps "<type> <reason> <message>"
// strings for tests to compare, instead of sending anything anywhere.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "record/event_recorder.h"

namespace kcm::record {

class FakeRecorder : public EventRecorder {
 public:
  void event(const ObjectReference& object, std::string_view type, std::string_view reason,
             std::string_view message) override;
  void annotated_event(const ObjectReference& object, const api::StringMap& annotations,
                       std::string_view type, std::string_view reason,
                       std::string_view message) override;
  void event(const api::Object& object, std::string_view type, std::string_view reason,
             std::string_view message) override;

  std::vector<std::string> events() const;
  std::vector<ObjectReference> objects() const;
  // Blocks (real time) until at least `n` events were recorded.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<std::string> events_;
  std::vector<ObjectReference> objects_;
};

}  // namespace kcm::record
