// Read-only accessors for the pod fields controllers reason about, over the
// pod's JSON (upstream pkg/api/v1/pod/util.go and the pod helpers of
// pkg/controller/controller_utils.go). Absent or mistyped members read as Go's
// zero value, as the decoded Go struct would hold them. "now" is always a
// parameter so that callers (and tests) decide the clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/time.h"

namespace kcm::controller {

namespace json = api::json;

// The pod annotation that orders scale-down: lower cost goes first.
inline constexpr std::string_view kPodDeletionCostAnnotation =
    "controller.kubernetes.io/pod-deletion-cost";

inline constexpr std::string_view kPodPending = "Pending";
inline constexpr std::string_view kPodRunning = "Running";
inline constexpr std::string_view kPodSucceeded = "Succeeded";
inline constexpr std::string_view kPodFailed = "Failed";
inline constexpr std::string_view kPodUnknown = "Unknown";

// status.phase ("" when unset).
std::string_view pod_phase(const json::object& pod);
// spec.nodeName ("" when unscheduled).
std::string_view pod_node_name(const json::object& pod);
// metadata.deletionTimestamp is set (any non-null value).
bool pod_has_deletion_timestamp(const json::object& pod);

// The first status.conditions entry of type Ready (GetPodReadyCondition), or nullptr.
const json::object* pod_ready_condition(const json::object& pod);
// IsPodReady: that condition exists and its status is "True".
bool is_pod_ready(const json::object& pod);
// The lastTransitionTime of the first Ready=True condition; the zero time when
// the pod is not ready or the time is absent or unparseable.
api::Time pod_ready_time(const json::object& pod);
// IsPodAvailable: ready, and either min_ready_seconds == 0 or the Ready
// condition's lastTransitionTime is set and lastTransitionTime +
// min_ready_seconds is at or before `now` (newer upstream; older used "before").
bool is_pod_available(const json::object& pod, std::int32_t min_ready_seconds, api::Time now);
// How long until a ready pod becomes available, when that is still in the
// future (upstream nextPodAvailabilityCheck); nullopt otherwise.
std::optional<std::chrono::nanoseconds> next_pod_availability_check(const json::object& pod,
                                                                    std::int32_t min_ready_seconds,
                                                                    api::Time now);

// IsPodActive: the phase is neither Succeeded nor Failed and no deletion is pending.
bool is_pod_active(const json::object& pod);
// IsPodTerminal: the phase is Succeeded or Failed.
bool is_pod_terminal(const json::object& pod);
// A deletion is pending and the pod is not terminal (isPodTerminating).
bool is_pod_terminating(const json::object& pod);

// GetDeletionCostFromPodAnnotations: 0 when the annotation is absent; an error
// (and a cost of 0 for callers that ignore it) for "+1", "007", "", or values
// that are not an int32. Messages follow Go's: `invalid value "+1"`,
// `strconv.ParseInt: parsing "x": invalid syntax` / `value out of range`.
Result<std::int32_t> pod_deletion_cost(const json::object& pod);

// Highest restartCount among status.containerStatuses, and among the
// initContainerStatuses of restartable (restartPolicy Always) init containers.
struct ContainerRestarts {
  std::int64_t regular = 0;
  std::int64_t sidecar = 0;
};
ContainerRestarts max_container_restarts(const json::object& pod);

// metadata.creationTimestamp (the zero time when absent or unparseable).
api::Time pod_creation_time(const json::object& pod);
// metadata.uid ("" when absent).
std::string_view pod_uid(const json::object& pod);

// "namespace/name" (upstream PodKey).
std::string pod_key(const json::object& pod);

// FilterActivePods / FilterTerminatingPods, keeping the input order.
std::vector<const json::object*> filter_active_pods(const std::vector<const json::object*>& pods);
std::vector<const json::object*> filter_terminating_pods(
    const std::vector<const json::object*>& pods);

// FindMinNextPodAvailabilityCheck: the shortest next_pod_availability_check
// among `pods`, and the index of the first pod with it.
struct NextAvailabilityCheck {
  std::chrono::nanoseconds after{0};
  std::size_t pod_index = 0;
};
std::optional<NextAvailabilityCheck> find_min_next_pod_availability_check(
    const std::vector<const json::object*>& pods, std::int32_t min_ready_seconds, api::Time now);

}  // namespace kcm::controller
