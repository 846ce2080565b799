// Pods as controllers read them from an informer's cache, without decoding
// their bodies. A CachedPod is the cached object (name, uid, labels, owner
// references and deletion are kept parsed there) plus PodFacts: the status
// facts controllers reason about on every sync, which pod informers keep as
// each pod's summary (see cache/object_summary.h). The ReplicaSet controller
// syncs once per pod change and reads every pod of its ReplicaSet each time,
// so decoding pods was most of its work.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/time.h"
#include "cache/cached_object.h"
#include "cache/object_summary.h"
#include "controller/pod_util.h"

namespace kcm::controller {

// What controllers read of a pod's spec and status, read once with the
// helpers of pod_util.h (so with their zero values for absent members).
struct PodFacts final : cache::ObjectSummary {
  std::string phase;      // status.phase
  std::string node_name;  // spec.nodeName
  bool ready = false;     // IsPodReady
  // The Ready condition's lastTransitionTime while ready (zero otherwise, or
  // when absent or unparseable).
  api::Time ready_time;
  // The pod-deletion-cost annotation; an invalid one counts as 0, as upstream's sort.
  std::int32_t deletion_cost = 0;
  ContainerRestarts restarts;
  api::Time creation_time;  // metadata.creationTimestamp

  static PodFacts of(const json::object& pod);
  std::size_t footprint_bytes() const override;
};

// The summarizer of pod informers (SharedIndexInformer::set_summarizer).
std::shared_ptr<const cache::ObjectSummary> summarize_pod(const json::object& pod);

class CachedPod {
 public:
  // The facts are the object's summary, or are read from its body when its
  // informer keeps no summary.
  explicit CachedPod(cache::ObjectPtr pod);
  // The pod cached as an informer keeping pod summaries would (tests, tools).
  static Result<CachedPod> from_json(const json::value& pod);

  const cache::CachedObject& object() const { return *object_; }
  const PodFacts& facts() const { return *facts_; }

 private:
  cache::ObjectPtr object_;
  std::shared_ptr<const PodFacts> facts_;
};

// IsPodAvailable: ready, and either min_ready_seconds == 0 or the Ready
// condition's lastTransitionTime is set and lastTransitionTime +
// min_ready_seconds is at or before `now` (newer upstream; older used "before").
bool is_pod_available(const PodFacts& pod, std::int32_t min_ready_seconds, api::Time now);
// How long until a ready pod becomes available, when that is still in the
// future (upstream nextPodAvailabilityCheck); nullopt otherwise.
std::optional<std::chrono::nanoseconds> next_pod_availability_check(const PodFacts& pod,
                                                                    std::int32_t min_ready_seconds,
                                                                    api::Time now);

// IsPodTerminal: the phase is Succeeded or Failed.
bool is_pod_terminal(const PodFacts& pod);
// IsPodActive: not terminal and no deletion is pending.
bool is_pod_active(const CachedPod& pod);
// A deletion is pending and the pod is not terminal (isPodTerminating).
bool is_pod_terminating(const CachedPod& pod);

// FilterActivePods / FilterTerminatingPods, keeping the input order.
std::vector<const CachedPod*> filter_active_pods(const std::vector<const CachedPod*>& pods);
std::vector<const CachedPod*> filter_terminating_pods(const std::vector<const CachedPod*>& pods);

// FindMinNextPodAvailabilityCheck: the shortest next_pod_availability_check
// among `pods`, and the index of the first pod with it.
struct NextAvailabilityCheck {
  std::chrono::nanoseconds after{0};
  std::size_t pod_index = 0;
};
std::optional<NextAvailabilityCheck> find_min_next_pod_availability_check(
    const std::vector<const CachedPod*>& pods, std::int32_t min_ready_seconds, api::Time now);

// Pointers to each of `pods`, in order (the functions above take pointers so
// that filtered lists share the pods).
std::vector<const CachedPod*> pointers_to(const std::vector<CachedPod>& pods);

}  // namespace kcm::controller
