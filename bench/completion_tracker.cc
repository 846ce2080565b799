#include "bench/completion_tracker.h"

#include <string>

namespace kcm::bench {

namespace json = boost::json;

namespace {

std::string key_of(const json::object& o) {
  const json::value* meta = o.if_contains("metadata");
  if (meta == nullptr || !meta->is_object()) return {};
  auto text = [&](std::string_view k) {
    const json::value* v = meta->get_object().if_contains(k);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  return text("namespace") + "/" + text("name");
}

}  // namespace

std::optional<std::int64_t> int_at(const json::object& o,
                                   std::initializer_list<std::string_view> path) {
  const json::object* at = &o;
  const json::value* v = nullptr;
  std::size_t i = 0;
  for (std::string_view key : path) {
    if (at == nullptr) return std::nullopt;
    v = at->if_contains(key);
    if (v == nullptr) return std::nullopt;
    at = ++i < path.size() ? v->if_object() : nullptr;
  }
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  return std::nullopt;
}

std::uint64_t revision_of(const json::object& o) {
  const json::value* meta = o.if_contains("metadata");
  const json::value* rv = meta != nullptr && meta->is_object()
                              ? meta->get_object().if_contains("resourceVersion")
                              : nullptr;
  if (rv == nullptr || !rv->is_string()) return 0;
  try {
    return std::stoull(std::string(rv->get_string()));
  } catch (const std::exception&) {
    return 0;
  }
}

CompletionTracker::CompletionTracker(std::size_t expected, Predicate predicate)
    : expected_(expected), predicate_(std::move(predicate)) {}

void CompletionTracker::note_completion(std::uint64_t revision) {
  if (passing_ >= expected_ && !completion_) {
    completion_ = Completion{Clock::now(), revision};
    cv_.notify_all();
  }
}

void CompletionTracker::set_predicate(Predicate predicate) {
  std::lock_guard lock(mu_);
  predicate_ = std::move(predicate);
  completion_.reset();
  passing_ = 0;
  std::uint64_t newest = 0;
  for (auto& [key, entry] : objects_) {
    entry.passes = predicate_(entry.object);
    if (entry.passes) ++passing_;
    newest = std::max(newest, revision_of(entry.object));
  }
  note_completion(newest);
}

void CompletionTracker::observe(WatchEventType type, const json::object& object) {
  std::string key = key_of(object);
  std::lock_guard lock(mu_);
  ++events_;
  auto it = objects_.find(key);
  if (type == WatchEventType::kDeleted) {
    if (it != objects_.end()) {
      if (it->second.passes) --passing_;
      objects_.erase(it);
    }
    return;
  }
  if (it == objects_.end()) it = objects_.emplace(std::move(key), Entry{}).first;
  Entry& entry = it->second;
  const bool passes = predicate_(object);
  if (entry.passes != passes) passes ? ++passing_ : --passing_;
  entry.passes = passes;
  entry.object = object;
  note_completion(revision_of(object));
}

std::optional<CompletionTracker::Completion> CompletionTracker::wait(
    Clock::duration timeout, const std::function<bool()>& keep_waiting) {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock lock(mu_);
  while (!completion_) {
    const auto now = Clock::now();
    if (now >= deadline) return std::nullopt;
    cv_.wait_for(lock, std::min<Clock::duration>(deadline - now, std::chrono::seconds(1)));
    if (completion_) break;
    lock.unlock();
    const bool go_on = !keep_waiting || keep_waiting();
    lock.lock();
    if (!go_on) return completion_;
  }
  return completion_;
}

std::size_t CompletionTracker::passing() const {
  std::lock_guard lock(mu_);
  return passing_;
}

std::size_t CompletionTracker::seen() const {
  std::lock_guard lock(mu_);
  return objects_.size();
}

std::size_t CompletionTracker::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

}  // namespace kcm::bench
