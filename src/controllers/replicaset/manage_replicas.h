// The arithmetic of manageReplicas (upstream replica_set.go): how many pods
// one sync creates or deletes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kcm::controllers::replicaset {

// upstream BurstReplicas: at most this many creations or deletions per sync.
inline constexpr int kBurstReplicas = 500;

struct ReplicaPlan {
  int create = 0;  // pods to create now (expectations: ExpectCreations(create))
  int remove = 0;  // pods to delete now (expectations: ExpectDeletions(their keys))
};

// diff = active - spec.replicas; too few pods: create min(-diff, burst); too
// many: delete min(diff, burst); otherwise nothing.
ReplicaPlan plan_replicas(std::size_t active_pods, std::int32_t spec_replicas,
                          int burst_replicas = kBurstReplicas);

// After slow_start_batch created `successes` of `planned` pods: how many
// creations will never be observed (CreationObserved is called that many times).
inline int skipped_creations(int planned, int successes) {
  return planned > successes ? planned - successes : 0;
}

}  // namespace kcm::controllers::replicaset
