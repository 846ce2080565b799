#include "controller/active_pods.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kcm::controller {

namespace {

int phase_ordinal(std::string_view phase) {
  if (phase == kPodUnknown) return 1;
  if (phase == kPodRunning) return 2;
  return 0;  // Pending, and phases missing from upstream's map
}

// afterOrZero: a zero time sorts first; otherwise the later time does.
bool after_or_zero(const api::Time& t1, const api::Time& t2) {
  if (t1.is_zero() || t2.is_zero()) return t1.is_zero();
  return t1 > t2;
}

std::int64_t log2_rank(const api::Time& t, const api::Time& now) {
  const auto d =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_point() - t.time_point());
  if (d.count() <= 0) return -1;
  return static_cast<std::int64_t>(std::log2(static_cast<double>(d.count())));
}

// Rules 6 and 8 of ActivePodsWithRanks: `nullopt` when the times are equal.
std::optional<bool> compare_times(const api::Time& t1, const api::Time& t2, std::string_view uid1,
                                  std::string_view uid2, const api::Time& now,
                                  const RankOptions& options) {
  if (t1 == t2) return std::nullopt;
  if (!options.logarithmic_scale_down || now.is_zero() || t1.is_zero() || t2.is_zero()) {
    return after_or_zero(t1, t2);
  }
  const std::int64_t diff = log2_rank(t1, now) - log2_rank(t2, now);
  if (diff == 0) return uid1 < uid2;
  return diff < 0;
}

// compareMaxContainerRestarts: more restarts first, sidecars breaking a tie.
std::optional<bool> compare_restarts(const ContainerRestarts& a, const ContainerRestarts& b) {
  if (a.regular != b.regular) return a.regular > b.regular;
  if (a.sidecar != b.sidecar) return a.sidecar > b.sidecar;
  return std::nullopt;
}

// Rules 1-3, shared by both orders.
std::optional<bool> compare_placement(const PodOrderKey& a, const PodOrderKey& b) {
  if (a.node_name != b.node_name && (a.node_name.empty() || b.node_name.empty())) {
    return a.node_name.empty();
  }
  if (a.phase_ordinal != b.phase_ordinal) return a.phase_ordinal < b.phase_ordinal;
  if (a.ready != b.ready) return !a.ready;
  return std::nullopt;
}

}  // namespace

PodOrderKey pod_order_key(const CachedPod& pod) {
  const PodFacts& f = pod.facts();
  return {.node_name = f.node_name,
          .phase_ordinal = phase_ordinal(f.phase),
          .ready = f.ready,
          .ready_time = f.ready_time,
          .deletion_cost = f.deletion_cost,
          .restarts = f.restarts,
          .creation_time = f.creation_time,
          .uid = pod.object().uid()};
}

bool active_pods_less(const PodOrderKey& a, const PodOrderKey& b) {
  if (auto r = compare_placement(a, b)) return *r;
  if (a.ready && b.ready && a.ready_time != b.ready_time) {
    return after_or_zero(a.ready_time, b.ready_time);
  }
  if (auto r = compare_restarts(a.restarts, b.restarts)) return *r;
  if (a.creation_time != b.creation_time) return after_or_zero(a.creation_time, b.creation_time);
  return false;
}

bool active_pods_with_ranks_less(const PodOrderKey& a, int rank_a, const PodOrderKey& b, int rank_b,
                                 api::Time now, const RankOptions& options) {
  if (auto r = compare_placement(a, b)) return *r;
  if (options.pod_deletion_cost && a.deletion_cost != b.deletion_cost) {
    return a.deletion_cost < b.deletion_cost;
  }
  // A node crowded with related pods is the better place to remove one.
  if (rank_a != rank_b) return rank_a > rank_b;
  if (a.ready && b.ready) {
    if (auto r = compare_times(a.ready_time, b.ready_time, a.uid, b.uid, now, options)) return *r;
  }
  if (auto r = compare_restarts(a.restarts, b.restarts)) return *r;
  if (auto r = compare_times(a.creation_time, b.creation_time, a.uid, b.uid, now, options)) {
    return *r;
  }
  return false;
}

void sort_active_pods(std::vector<const CachedPod*>& pods) {
  std::vector<PodOrderKey> keys;
  keys.reserve(pods.size());
  for (const CachedPod* p : pods)
    keys.push_back(pod_order_key(*p));
  std::vector<std::size_t> order(pods.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return active_pods_less(keys[i], keys[j]);
  });
  std::vector<const CachedPod*> sorted;
  sorted.reserve(pods.size());
  for (std::size_t i : order)
    sorted.push_back(pods[i]);
  pods = std::move(sorted);
}

void sort_active_pods_with_ranks(std::vector<const CachedPod*>& pods, std::vector<int>& ranks,
                                 api::Time now, const RankOptions& options) {
  std::vector<PodOrderKey> keys;
  keys.reserve(pods.size());
  for (const CachedPod* p : pods)
    keys.push_back(pod_order_key(*p));
  std::vector<std::size_t> order(pods.size());
  std::iota(order.begin(), order.end(), 0);
  // Merge sort never reads outside the range, even though the log-scale
  // comparison is not a strict weak order in every corner.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return active_pods_with_ranks_less(keys[i], ranks[i], keys[j], ranks[j], now, options);
  });
  std::vector<const CachedPod*> sorted_pods;
  std::vector<int> sorted_ranks;
  sorted_pods.reserve(pods.size());
  sorted_ranks.reserve(pods.size());
  for (std::size_t i : order) {
    sorted_pods.push_back(pods[i]);
    sorted_ranks.push_back(ranks[i]);
  }
  pods = std::move(sorted_pods);
  ranks = std::move(sorted_ranks);
}

}  // namespace kcm::controller
