// core/v1 Secret validation (upstream's ValidateSecret and
// ValidateSecretUpdate; metadata is validated generically) and the decoding
// rules that run before it.
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// What decoding a v1 Secret does (SetDefaults_Secret and the v1 conversion):
// type defaults to Opaque, and stringData's entries overwrite data's, then
// stringData is gone; it is never stored or returned.
void decode_secret(json::object& secret);

// Every data key is a valid config key; the values hold at most 1 MiB; and
// each built-in type's keys are present (kubernetes.io/tls: tls.crt and
// tls.key; kubernetes.io/dockerconfigjson: .dockerconfigjson holding a JSON
// object; ...).
api::FieldErrors validate_secret(const json::object& secret);

// type never changes; once `immutable` is true it stays true and data stays
// as it is; then validate_secret.
api::FieldErrors validate_secret_update(const json::object& secret, const json::object& old);

}  // namespace kcm::local::registry
