// What the Deployment and ReplicaSet status strategies keep of a status
// write (upstream dropDisabledStatusFields in registry/apps).
#pragma once

#include "api/json.h"
#include "local/registry/resource_info.h"

namespace kcm::local::registry {

// With the DeploymentReplicaSetTerminatingReplicas gate off, a status write
// loses status.terminatingReplicas, unless the stored object already has it.
void drop_disabled_status_fields(json::object& obj, const json::object& old,
                                 const ApiFeatures& features);

}  // namespace kcm::local::registry
