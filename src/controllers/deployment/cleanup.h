// revisionHistoryLimit (upstream sync.go cleanupDeployment): which old
// ReplicaSets the controller deletes.
#pragma once

#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// cleanupDeployment: nothing without a limit (unset or MaxInt32). Otherwise
// the old RSs not being deleted, lowest revision first (ties and unparseable
// revisions by creation time, then name); of the first len - limit, those
// with no replicas in spec and status and an observed generation are
// deleted. Skipped RSs are not replaced by later ones. In that order; a
// NotFound answer to the delete is ignored, other errors abort.
ReplicaSetList replica_sets_to_clean_up(const ReplicaSetList& old_rss, const DeploymentView& d);

}  // namespace kcm::controllers::deployment
