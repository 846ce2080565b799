// apps/v1 Deployment and ReplicaSet validation (upstream's apps/validation
// plus the registry's apps/v1 selector immutability), per
// ../shared/spec/deployment-replicaset.md §5.3. Bad values that upstream
// prints as Go structs (selectors, IntOrStrings, label maps) read the same.
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

api::FieldErrors validate_deployment(const json::object& deployment);
api::FieldErrors validate_deployment_update(const json::object& deployment,
                                            const json::object& old);
api::FieldErrors validate_deployment_status_update(const json::object& deployment,
                                                   const json::object& old);

api::FieldErrors validate_replica_set(const json::object& replica_set);
api::FieldErrors validate_replica_set_update(const json::object& replica_set,
                                             const json::object& old);
api::FieldErrors validate_replica_set_status_update(const json::object& replica_set,
                                                    const json::object& old);

}  // namespace kcm::local::registry
