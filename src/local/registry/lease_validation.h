// coordination.k8s.io/v1 Lease validation (upstream's ValidateLeaseSpec).
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// spec.leaseDurationSeconds > 0, spec.leaseTransitions >= 0, a known
// spec.strategy, and spec.preferredHolder only with a strategy.
api::FieldErrors validate_lease(const json::object& lease);

}  // namespace kcm::local::registry
