// upstream progress.go: the rollout status with the Progressing condition,
// and the requeue that notices a missed progress deadline.
#include <chrono>
#include <utility>

#include "controllers/deployment/deployment_syncer.h"
#include "log/log.h"

namespace kcm::controllers::deployment {

SyncResult DeploymentSyncer::sync_rollout_status(SyncState& s, const ReplicaSetList& all_rss,
                                                 const ReplicaSetInfo* new_rs) {
  const DeploymentStatus status = rollout_status(all_rss, new_rs, s.d, now(), options_.status);
  if (status == s.d.status) {
    // Nothing to write; the deadline still has to be checked when it passes.
    requeue_stuck_deployment(s, status);
    return {};
  }
  s.set_status(status);
  return write_status(s);
}

void DeploymentSyncer::requeue_stuck_deployment(const SyncState& s,
                                                const DeploymentStatus& new_status) {
  const StuckRequeue r = deployment::requeue_stuck_deployment(s.d, new_status, now());
  switch (r.kind) {
    case StuckRequeue::Kind::kNone:
      return;
    case StuckRequeue::Kind::kRateLimited:
      if (log::v(4)) {
        log::info("Queueing up deployment for a progress check now", {{"deployment", s.key}});
      }
      requeuer_.requeue_rate_limited(s.key);
      return;
    case StuckRequeue::Kind::kAfter:
      if (log::v(4)) {
        log::info("Queueing up deployment for a progress check",
                  {{"deployment", s.key},
                   {"queueAfter",
                    static_cast<std::int64_t>(
                        std::chrono::duration_cast<std::chrono::seconds>(r.after).count())}});
      }
      // A second more absorbs clock skew between the check and AddAfter.
      requeuer_.requeue_after(s.key, r.after + std::chrono::seconds(1));
      return;
  }
}

}  // namespace kcm::controllers::deployment
