// Defaults of apiextensions.k8s.io/v1 CustomResourceDefinitions (upstream's
// v1/defaults.go).
#pragma once

#include "api/json.h"

namespace kcm::local::crd {

namespace json = boost::json;

// In place: spec.names.singular = lowercase kind (when kind is set), spec.names.listKind =
// kind + "List" (when kind is set), spec.conversion = {strategy: None},
// the conversion webhook service's port 443, and status.storedVersions =
// [storage version] when empty. Printer columns have no v1 defaults (the
// table printer adds "Age" itself when a version has none).
void crd_defaults(json::object& crd);

}  // namespace kcm::local::crd
