// The pod counter's memory of which pods it has announced: one PodCounted
// event per pod uid, the first time a sync counts the pod.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/json.h"
#include "cache/cached_object.h"

namespace kcm::controllers::podcounter {

inline constexpr std::string_view kPodCountedReason = "PodCounted";
// Lists the events a previous run recorded (the API server filters them).
inline constexpr std::string_view kPodCountedEventsSelector =
    "reason=PodCounted,involvedObject.kind=Pod";

// "Pod counted (3 pods in the cluster)"; "1 pod" for one.
std::string pod_counted_message(std::size_t pods);

// The involvedObject.uid of every PodCounted event about a Pod among `events`
// (the items of an Event list); other events and ones without a uid are skipped.
std::vector<std::string> counted_pod_uids(const std::vector<boost::json::value>& events);

// Pod uids announced so far. Not thread-safe: the controller touches it only
// from sync, which the queue never runs twice at once for its single key.
class CountedPods {
 public:
  // A uid announced before this process started (read from its event).
  void remember(std::string uid);

  // `pods` is every pod in the cluster now. Returns those not announced
  // before, in order, and remembers them. Uids no longer among `pods` are
  // forgotten: a deleted pod's uid never comes back, so memory follows the
  // live pods instead of every pod ever seen.
  std::vector<cache::ObjectPtr> count(const std::vector<cache::ObjectPtr>& pods);

  bool contains(std::string_view uid) const { return uids_.find(uid) != uids_.end(); }
  std::size_t size() const { return uids_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // uid -> the count() call that last saw it (0: remembered, not yet seen).
  std::unordered_map<std::string, std::uint64_t, Hash, std::equal_to<>> uids_;
  std::uint64_t generation_ = 0;
};

}  // namespace kcm::controllers::podcounter
