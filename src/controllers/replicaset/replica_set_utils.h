// The pure parts of the ReplicaSet controller's sync (upstream
// replica_set_utils.go and replica_set.go): reading the ReplicaSet, computing
// its status from the claimed pods, deciding whether the status needs a write
// and when to look again for pods that become available.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "api/time.h"
#include "controller/cached_pod.h"
#include "controllers/replicaset/replica_set_status.h"

namespace kcm::controllers::replicaset {

// What the controller reads of an apps/v1 ReplicaSet.
struct ReplicaSetView {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::int64_t generation = 0;
  bool being_deleted = false;
  // spec.replicas; the API server defaults it to 1, so an absent value reads as 1.
  std::int32_t spec_replicas = 1;
  std::int32_t min_ready_seconds = 0;
  std::optional<api::LabelSelector> selector;  // spec.selector (nullopt: absent)
  api::labels::LabelSet template_labels;       // spec.template.metadata.labels
  ReplicaSetStatus status;

  // Lenient, like the rest of the views: mistyped members read as zero
  // values. Only a selector that does not decode is an error.
  static Result<ReplicaSetView> from_json(const json::object& rs);
  // "namespace/name": the workqueue and expectations key.
  std::string key() const { return namespace_ + "/" + name; }
};

// The DeploymentReplicaSetTerminatingReplicas feature gate (beta, on).
struct StatusOptions {
  bool terminating_replicas = true;
};

// calculateStatus: replicas = active pods; fullyLabeled = pods whose labels
// include every template label; ready; available (ready for
// min_ready_seconds at `now`); terminating = terminating pods (when the gate
// is on, else unset). A manage error with no ReplicaFailure condition adds one
// (reason FailedCreate when pods are missing, FailedDelete when there are too
// many, "" otherwise; message = the error); no error removes it; an existing
// one is left as it is while errors continue. Other members come from rs.status.
ReplicaSetStatus calculate_status(const ReplicaSetView& rs,
                                  const std::vector<const controller::CachedPod*>& active_pods,
                                  const std::vector<const controller::CachedPod*>& terminating_pods,
                                  const std::optional<std::string>& manage_replicas_error,
                                  api::Time now, const StatusOptions& options = {});

// updateReplicaSetStatus's short cut: false when the counts, terminating
// count and conditions equal the current status and the generation is already
// observed. When true, the write sets observedGeneration = rs.generation.
bool status_needs_update(const ReplicaSetView& rs, const ReplicaSetStatus& new_status);
// upstream statusUpdateRetries: one re-GET and retry after a failed write.
inline constexpr int kStatusUpdateRetries = 1;

// FilterClaimedPods: pods controlled by `owner_uid` whose labels match `selector`.
std::vector<const controller::CachedPod*> filter_claimed_pods(
    std::string_view owner_uid, const api::labels::Selector& selector,
    const std::vector<const controller::CachedPod*>& pods);

// The availability requeue after a sync (newer upstream): when
// min_ready_seconds > 0 and the written status has ready != available, the
// delay until the first ready pod becomes available, measured at `status_now`
// (the time the status was computed) and reduced by the time since
// (`clock_now`), 0 when already due; min_ready_seconds when no pod has a
// pending deadline. nullopt when no requeue is needed.
std::optional<std::chrono::nanoseconds> availability_requeue_after(
    std::int32_t min_ready_seconds, const ReplicaSetStatus& status,
    const std::vector<const controller::CachedPod*>& active_pods, api::Time status_now,
    api::Time clock_now);

}  // namespace kcm::controllers::replicaset
