#include "controllers/replicaset/manage_replicas.h"

#include <algorithm>

namespace kcm::controllers::replicaset {

ReplicaPlan plan_replicas(std::size_t active_pods, std::int32_t spec_replicas, int burst_replicas) {
  const std::int64_t diff = static_cast<std::int64_t>(active_pods) - std::int64_t{spec_replicas};
  ReplicaPlan plan;
  if (diff < 0) {
    plan.create = static_cast<int>(std::min<std::int64_t>(-diff, burst_replicas));
  } else if (diff > 0) {
    plan.remove = static_cast<int>(std::min<std::int64_t>(diff, burst_replicas));
  }
  return plan;
}

}  // namespace kcm::controllers::replicaset
