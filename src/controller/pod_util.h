// Read-only accessors for the pod fields controllers reason about, over the
// pod's JSON (upstream pkg/api/v1/pod/util.go and the pod helpers of
// pkg/controller/controller_utils.go). Absent or mistyped members read as Go's
// zero value, as the decoded Go struct would hold them. Controllers read them
// once per pod version, into the PodFacts of cached_pod.h.
#pragma once

#include <cstdint>
#include <string_view>

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

// The first status.conditions entry of type Ready (GetPodReadyCondition), or nullptr.
const json::object* pod_ready_condition(const json::object& pod);
// IsPodReady: that condition exists and its status is "True".
bool is_pod_ready(const json::object& pod);
// The lastTransitionTime of the first Ready=True condition; the zero time when
// the pod is not ready or the time is absent or unparseable.
api::Time pod_ready_time(const json::object& pod);

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

}  // namespace kcm::controller
