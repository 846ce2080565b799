#include "controllers/deployment/cleanup.h"

#include "controllers/deployment/progress.h"
#include "controllers/deployment/replica_sets.h"

namespace kcm::controllers::deployment {

ReplicaSetList replica_sets_to_clean_up(const ReplicaSetList& old_rss, const DeploymentView& d) {
  ReplicaSetList out;
  if (!has_revision_history_limit(d)) return out;
  ReplicaSetList candidates;
  for (const ReplicaSetInfo* rs : old_rss) {
    if (rs != nullptr && !rs->being_deleted) candidates.push_back(rs);
  }
  const std::int64_t diff =
      static_cast<std::int64_t>(candidates.size()) - std::int64_t{*d.revision_history_limit};
  if (diff <= 0) return out;
  sort_by_revision(candidates);
  for (std::int64_t i = 0; i < diff; ++i) {
    const ReplicaSetInfo* rs = candidates[static_cast<std::size_t>(i)];
    // Only RSs that are empty and whose size change the RS controller has seen.
    if (rs->status_replicas != 0 || rs->spec_replicas != 0 ||
        rs->generation > rs->observed_generation || rs->being_deleted) {
      continue;
    }
    out.push_back(rs);
  }
  return out;
}

}  // namespace kcm::controllers::deployment
