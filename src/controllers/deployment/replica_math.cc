#include "controllers/deployment/replica_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "api/int_or_string.h"
#include "controllers/deployment/annotations.h"

namespace kcm::controllers::deployment {

namespace {

Result<std::int32_t> scaled(const std::optional<api::IntOrString>& v, std::int32_t total,
                            bool round_up) {
  const api::IntOrString value = v.value_or(api::IntOrString::from_int(0));
  auto r = api::get_scaled_value_from_int_or_percent(value, total, round_up);
  if (!r.ok()) return fail(r.error());
  if (*r < std::numeric_limits<std::int32_t>::min() ||
      *r > std::numeric_limits<std::int32_t>::max()) {
    return fail("value " + std::to_string(*r) + " is out of int32 range");
  }
  return static_cast<std::int32_t>(*r);
}

}  // namespace

Result<Fenceposts> resolve_fenceposts(const std::optional<api::IntOrString>& max_surge,
                                      const std::optional<api::IntOrString>& max_unavailable,
                                      std::int32_t desired) {
  auto surge = scaled(max_surge, desired, true);
  if (!surge.ok()) return fail(surge.error());
  auto unavailable = scaled(max_unavailable, desired, false);
  if (!unavailable.ok()) return fail(unavailable.error());
  Fenceposts f{*surge, *unavailable};
  if (f.surge == 0 && f.unavailable == 0) f.unavailable = 1;
  return f;
}

std::int32_t max_surge(const DeploymentView& d) {
  if (!d.is_rolling_update()) return 0;
  auto f = resolve_fenceposts(d.max_surge, d.max_unavailable, d.replicas);
  return f.ok() ? f->surge : 0;
}

std::int32_t max_unavailable(const DeploymentView& d) {
  if (!d.is_rolling_update() || d.replicas == 0) return 0;
  auto f = resolve_fenceposts(d.max_surge, d.max_unavailable, d.replicas);
  const std::int32_t unavailable = f.ok() ? f->unavailable : 0;
  return std::min(unavailable, d.replicas);
}

std::int32_t min_available(const DeploymentView& d) {
  if (!d.is_rolling_update()) return 0;
  return d.replicas - max_unavailable(d);
}

std::int32_t replica_count(const ReplicaSetList& replica_sets) {
  std::int32_t total = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr) total += rs->spec_replicas;
  }
  return total;
}

std::int32_t actual_replica_count(const ReplicaSetList& replica_sets) {
  std::int32_t total = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr) total += rs->status_replicas;
  }
  return total;
}

std::int32_t ready_replica_count(const ReplicaSetList& replica_sets) {
  std::int32_t total = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr) total += rs->ready_replicas;
  }
  return total;
}

std::int32_t available_replica_count(const ReplicaSetList& replica_sets) {
  std::int32_t total = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr) total += rs->available_replicas;
  }
  return total;
}

std::optional<std::int32_t> terminating_replica_count(const ReplicaSetList& replica_sets) {
  std::int32_t total = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs == nullptr) continue;
    if (rs->terminating_replicas) {
      total += *rs->terminating_replicas;
    } else if (rs->observed_generation != 0) {
      return std::nullopt;  // synced but not reporting: the sum is unknown
    }
  }
  return total;
}

ReplicaSetList filter_active_replica_sets(const ReplicaSetList& replica_sets) {
  ReplicaSetList out;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr && rs->spec_replicas > 0) out.push_back(rs);
  }
  return out;
}

Result<std::int32_t> new_rs_new_replicas(const DeploymentView& d, const ReplicaSetList& all_rss,
                                         const ReplicaSetInfo& new_rs) {
  if (d.strategy_type == kRollingUpdateStrategy) {
    auto surge = scaled(d.max_surge, d.replicas, true);
    if (!surge.ok()) return fail(surge.error());
    const std::int32_t current = replica_count(all_rss);
    const std::int32_t max_total = d.replicas + *surge;
    if (current >= max_total) return new_rs.spec_replicas;
    const std::int32_t scale_up = std::min(max_total - current, d.replicas - new_rs.spec_replicas);
    return new_rs.spec_replicas + scale_up;
  }
  if (d.strategy_type == kRecreateStrategy) return d.replicas;
  return fail("deployment type " + d.strategy_type + " isn't supported");
}

bool is_saturated(const DeploymentView& d, const ReplicaSetInfo* rs) {
  if (rs == nullptr) return false;
  // Upstream reads this annotation with strconv.Atoi (a sign is allowed) and
  // compares it as an int32, where the other readers want a non-negative int32.
  const auto it = rs->annotations.find(kDesiredReplicasAnnotation);
  const api::GoAtoiResult desired =
      api::go_atoi(it != rs->annotations.end() ? std::string_view(it->second) : "");
  if (!desired.error.empty()) return false;
  return rs->spec_replicas == d.replicas &&
         static_cast<std::int32_t>(desired.value) == d.replicas &&
         rs->available_replicas == d.replicas;
}

std::int32_t replica_set_fraction(const ReplicaSetInfo& rs, const DeploymentView& d) {
  if (d.replicas == 0) return -rs.spec_replicas;
  const std::int64_t deployment_replicas = std::int64_t{d.replicas} + max_surge(d);
  std::int64_t annotated = max_replicas_annotation(rs).value_or(0);
  if (annotated == 0) {
    // Missing, invalid or 0: fall back to the current size; never divide by 0.
    annotated = d.status.replicas;
    if (annotated == 0) return 0;
  }
  const double new_size =
      static_cast<double>(std::int64_t{rs.spec_replicas} * deployment_replicas) /
      static_cast<double>(annotated);
  // math.Round: half away from zero.
  return static_cast<std::int32_t>(std::round(new_size)) - rs.spec_replicas;
}

std::int32_t replica_set_proportion(const ReplicaSetInfo* rs, const DeploymentView& d,
                                    std::int32_t to_add, std::int32_t added) {
  if (rs == nullptr || rs->spec_replicas == 0 || to_add == 0 || to_add == added) return 0;
  const std::int32_t fraction = replica_set_fraction(*rs, d);
  const std::int32_t allowed = to_add - added;
  return to_add > 0 ? std::min(fraction, allowed) : std::max(fraction, allowed);
}

}  // namespace kcm::controllers::deployment
