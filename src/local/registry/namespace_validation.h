// core/v1 Namespace validation (upstream's ValidateNamespace,
// ValidateNamespaceFinalizeUpdate and ValidateNamespaceStatusUpdate).
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Create: spec.finalizers names (reported on "spec.finalizers", unindexed,
// as upstream does).
api::FieldErrors validate_namespace(const json::object& ns);
// Update and finalize: spec.finalizers names on "spec.finalizers[i]".
api::FieldErrors validate_namespace_update(const json::object& ns, const json::object& old);
// status.phase must be Active, or Terminating once deletion started.
api::FieldErrors validate_namespace_status_update(const json::object& ns, const json::object& old);

}  // namespace kcm::local::registry
