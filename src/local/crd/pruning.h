// Pruning of fields a structural schema does not specify (upstream's
// apiserver/schema/pruning): unknown fields are dropped unless
// x-kubernetes-preserve-unknown-fields covers them; embedded resources and the
// resource root always keep apiVersion, kind and metadata.
#pragma once

#include <string>
#include <vector>

#include "api/json.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::crd {

// Prunes `value` in place. `is_resource_root` is true for a whole custom
// object (so apiVersion, kind and metadata are kept). `schema` may be null
// (everything but the root's apiVersion/kind/metadata is pruned). Returns the
// pruned paths sorted ("spec.foo", "spec.items[0].bar"), as
// upstream reports them in `unknown field "spec.foo"` warnings or, with
// fieldValidation=Strict, errors.
std::vector<std::string> prune(json::value& value, const Schema* schema, bool is_resource_root);

}  // namespace kcm::local::crd
