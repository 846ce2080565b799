// apps/v1 defaulting (upstream's SetObjectDefaults_Deployment and
// SetObjectDefaults_ReplicaSet): the spec defaults of
// ../shared/spec/deployment-replicaset.md §5.1, plus the core/v1 pod
// template defaults, which become part of the stored template (and so of
// its pod-template-hash). The selector is never defaulted.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

void apply_deployment_defaults(json::object& deployment);
void apply_replica_set_defaults(json::object& replica_set);

}  // namespace kcm::local::registry
