// Choosing which pods a ReplicaSet deletes when it scales down (upstream
// getPodsToDelete with the LogarithmicScaleDown ranking).
#pragma once

#include <string>
#include <vector>

#include "api/time.h"
#include "controller/active_pods.h"
#include "controller/cached_pod.h"

namespace kcm::controllers::replicaset {

using controller::CachedPod;

// getPodsRankedByRelatedPodsOnSameNode: each pod's rank is the number of
// active pods in `related` on the same spec.nodeName (unscheduled pods count
// the active unscheduled related pods; a pod listed twice counts twice).
std::vector<int> ranks_by_related_pods_on_same_node(const std::vector<const CachedPod*>& pods,
                                                    const std::vector<const CachedPod*>& related);

// getPodsToDelete: the first `diff` pods in ActivePodsWithRanks order (ranks
// as above, log scale relative to `now`). When diff >= pods.size() nothing is
// sorted and all pods come back in input order. `related` are the active pods
// of every ReplicaSet with the same controller (including these pods).
std::vector<const CachedPod*> get_pods_to_delete(std::vector<const CachedPod*> pods,
                                                 const std::vector<const CachedPod*>& related,
                                                 std::size_t diff, api::Time now,
                                                 const controller::RankOptions& options = {});

// getPodKeys: "namespace/name" of each pod, in order (the expected deletions).
std::vector<std::string> get_pod_keys(const std::vector<const CachedPod*>& pods);

}  // namespace kcm::controllers::replicaset
