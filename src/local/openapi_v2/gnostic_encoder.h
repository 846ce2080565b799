// Encodes a Swagger 2.0 document, given as JSON, in the protobuf form
// kube-apiserver serves at /openapi/v2 for
// Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf: gnostic's
// openapi.v2.Document message (github.com/google/gnostic, openapiv2/OpenAPIv2.proto).
//
// Like gnostic's compiler, the encoder keeps the JSON's member order for maps
// (paths, definitions, properties, responses), writes every vendor extension
// ("x-...") as NamedAny{name, Any{yaml}} and follows proto3 (empty strings,
// false and zero are not written; present sub-messages are, even when empty).
// Members it does not model are errors, so nothing is dropped silently.
#pragma once

#include <string>

#include "api/json.h"
#include "api/result.h"

namespace kcm::local::openapi_v2 {

namespace json = boost::json;

// The Document message bytes, or an error naming the member, e.g.
// `definitions.io.k8s.api.apps.v1.Deployment.properties.spec: "xml" is not supported`.
//
// Supported: Document (swagger, info, host, basePath, schemes, consumes,
// produces, paths, definitions, parameters, responses), Info, PathItem,
// Operation, parameters (body, query, path, header, formData, $ref), responses
// ($ref or description/schema), Schema (everything but xml, externalDocs and
// discriminator) and the parameters' primitive items.
Result<std::string> encode_gnostic_document(const json::value& document);

}  // namespace kcm::local::openapi_v2
