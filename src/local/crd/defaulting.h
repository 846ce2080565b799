// Defaulting of custom objects from their structural schema (upstream's
// apiserver/schema/defaulting): absent properties get the schema's default,
// also inside array items and additionalProperties; a null where the schema
// is not nullable counts as absent.
#pragma once

#include "api/json.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::crd {

// Applies defaults in place (upstream's Default). Defaults are deep-copied and
// then defaulted themselves.
void apply_defaults(json::value& value, const Schema& schema);

// Drops null values of properties that are not nullable and have no default
// (upstream's PruneNonNullableNullsWithoutDefaults), which the API server runs
// before defaulting so that `foo: null` means "unset".
void prune_non_nullable_nulls(json::value& value, const Schema& schema);

}  // namespace kcm::local::crd
