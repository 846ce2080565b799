#include "record/fake_recorder.h"

#include <fmt/core.h>

namespace kcm::record {

void FakeRecorder::event(const ObjectReference& object, std::string_view type,
                         std::string_view reason, std::string_view message) {
  {
    std::lock_guard lock(mu_);
    events_.push_back(fmt::format("{} {} {}", type, reason, message));
    objects_.push_back(object);
  }
  cv_.notify_all();
}

void FakeRecorder::annotated_event(const ObjectReference& object, const api::StringMap& annotations,
                                   std::string_view type, std::string_view reason,
                                   std::string_view message) {
  std::string line = fmt::format("{} {} {}", type, reason, message);
  for (const auto& [k, v] : annotations)
    line += fmt::format(" {}: {}", k, v);
  {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(line));
    objects_.push_back(object);
  }
  cv_.notify_all();
}

void FakeRecorder::event(const api::Object& object, std::string_view type, std::string_view reason,
                         std::string_view message) {
  auto ref = ObjectReference::from_object(object);
  event(ref ? *ref : ObjectReference{}, type, reason, message);
}

std::vector<std::string> FakeRecorder::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

std::vector<ObjectReference> FakeRecorder::objects() const {
  std::lock_guard lock(mu_);
  return objects_;
}

bool FakeRecorder::wait_for(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
}

}  // namespace kcm::record
