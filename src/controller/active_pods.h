// The order in which controllers prefer pods for deletion (upstream
// controller.ActivePods and controller.ActivePodsWithRanks). Each pod's
// sort-relevant fields are read once into a PodOrderKey, so sorting n pods
// parses each pod once instead of O(n log n) times.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/time.h"
#include "controller/cached_pod.h"
#include "controller/pod_util.h"

namespace kcm::controller {

// The sort-relevant fields of one pod; the views point into the pod.
struct PodOrderKey {
  std::string_view node_name;
  int phase_ordinal = 0;  // Pending 0 < Unknown 1 < Running 2; anything else 0
  bool ready = false;
  api::Time ready_time;            // zero unless ready
  std::int32_t deletion_cost = 0;  // invalid annotations count as 0
  ContainerRestarts restarts;
  api::Time creation_time;
  std::string_view uid;
};

PodOrderKey pod_order_key(const CachedPod& pod);

// ActivePods.Less: true when `a` should be deleted before `b`:
// unassigned < assigned; Pending < Unknown < Running; not ready < ready; ready
// more recently (or with a zero time) < ready longer; more restarts (then more
// sidecar restarts) < fewer; created more recently (or zero) < older.
bool active_pods_less(const PodOrderKey& a, const PodOrderKey& b);

// The feature gates ActivePodsWithRanks consults: PodDeletionCost (beta, on)
// and LogarithmicScaleDown (GA, locked on).
struct RankOptions {
  bool pod_deletion_cost = true;
  bool logarithmic_scale_down = true;
};

// ActivePodsWithRanks.Less: as active_pods_less, with the pod-deletion-cost
// (lower first) and the rank (higher first) after readiness, and the two
// timestamps compared on a log2 scale relative to `now` (equal buckets are
// ordered by uid). A zero `now` compares timestamps directly.
bool active_pods_with_ranks_less(const PodOrderKey& a, int rank_a, const PodOrderKey& b, int rank_b,
                                 api::Time now, const RankOptions& options = {});

// Sorts pods in place by active_pods_less (stable, so ties keep their order).
void sort_active_pods(std::vector<const CachedPod*>& pods);

// Sorts pods (with their ranks, ranks[i] belonging to pods[i]) in place by
// active_pods_with_ranks_less. Stable, so ties keep their input order.
void sort_active_pods_with_ranks(std::vector<const CachedPod*>& pods, std::vector<int>& ranks,
                                 api::Time now, const RankOptions& options = {});

}  // namespace kcm::controller
