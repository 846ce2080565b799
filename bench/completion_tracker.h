// Knows when every object of a set has reached a state: fed by a
// CollectionWatch, it keeps each object's newest version, judges it with a
// predicate, and wakes a waiting benchmark when all `expected` objects pass,
// remembering when that happened and at which resourceVersion.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "bench/collection_watch.h"

namespace kcm::bench {

class CompletionTracker {
 public:
  using Clock = std::chrono::steady_clock;
  using Predicate = std::function<bool(const boost::json::object&)>;

  struct Completion {
    Clock::time_point at;
    std::uint64_t revision = 0;  // resourceVersion of the event that completed the set
  };

  CompletionTracker(std::size_t expected, Predicate predicate);

  // Replaces the predicate and judges every object seen so far by it; a
  // completion recorded earlier is forgotten.
  void set_predicate(Predicate predicate);

  // The CollectionWatch handler (any thread).
  void observe(WatchEventType type, const boost::json::object& object);

  // Waits until `expected` objects pass, or `timeout`, or `keep_waiting`
  // (asked about once a second) returns false; nullopt unless complete.
  std::optional<Completion> wait(Clock::duration timeout,
                                 const std::function<bool()>& keep_waiting);

  std::size_t passing() const;
  std::size_t seen() const;
  std::size_t events() const;

 private:
  struct Entry {
    boost::json::object object;
    bool passes = false;
  };
  void note_completion(std::uint64_t revision);  // with mu_ held

  const std::size_t expected_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  Predicate predicate_;
  std::map<std::string, Entry> objects_;  // by namespace/name
  std::size_t passing_ = 0;
  std::size_t events_ = 0;
  std::optional<Completion> completion_;
};

// Helpers for predicates: a member path's integer (nullopt when absent) and
// the metadata.resourceVersion as a number (0 when absent).
std::optional<std::int64_t> int_at(const boost::json::object& o,
                                   std::initializer_list<std::string_view> path);
std::uint64_t revision_of(const boost::json::object& o);

}  // namespace kcm::bench
