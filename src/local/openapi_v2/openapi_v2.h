// kcm-local's OpenAPI v2 document: what kube-apiserver serves at
// /openapi/v2. kubectl 1.27 and 1.28 fetch it (as gnostic protobuf) before
// create/apply/replace with validation on, to validate manifests, to compute
// client-side apply patches and for `kubectl explain`.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "local/registry/resource_info.h"

namespace kcm::local::openapi_v2 {

namespace json = boost::json;

// The media types of the protobuf form (gnostic openapi.v2.Document): the one
// answers carry, and the older spelling kubectl 1.27/1.28 ask for (answered
// with the first, as upstream does).
inline constexpr std::string_view kProtobufContentType =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
inline constexpr std::string_view kProtobufContentTypeDeprecated =
    "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

// The Swagger 2.0 document for every resource of `table`: "swagger": "2.0",
// info, paths (each verb of each resource and subresource, with
// x-kubernetes-action, x-kubernetes-group-version-kind and the dryRun /
// fieldManager / fieldValidation query parameters on writes) and the
// definitions of api/schema/openapi_v2.h. Members are sorted by name.
json::value openapi_v2_json(const registry::ResourceTable& table);

// openapi_v2_json(table) as gnostic protobuf bytes. Building the document
// cannot fail for a table of registry kinds; should the encoder ever reject
// it, the answer is empty (callers then answer 500).
std::string openapi_v2_protobuf(const registry::ResourceTable& table);

// Which form of the document an Accept header asks for, as kube-openapi's
// handler decides: the media ranges sorted by q (then exact types before
// wildcards), the first that matches application/json or either protobuf
// type wins (q=0 included, as upstream; matching is case-sensitive); no
// header means */* (JSON); nothing matching is kNotAcceptable (406).
enum class Format { kJson, kProtobuf, kNotAcceptable };
Format negotiate_format(std::string_view accept);

}  // namespace kcm::local::openapi_v2
