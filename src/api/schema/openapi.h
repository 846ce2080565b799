// OpenAPI v3 component schemas for the built-in types, named and shaped like
// kube-apiserver's (/openapi/v3/apis/apps/v1 ...), so that kubectl explain
// and kubectl's schema-driven features read them as they read upstream's.
//
// Operations reference the kinds with schema_ref(): a GET/PUT/POST response
// `{"content": {"application/json": {"schema": {"$ref": <ref>}}}}` (see
// json_content), lists with list_schema_ref(), DELETE with the meta/v1
// Status schema (status_schema_ref()).
#pragma once

#include <string>
#include <string_view>

#include "api/group_version.h"
#include "api/json.h"
#include "api/schema/registry.h"

namespace kcm::api::schema {

// The schemas one group-version's document carries: its kinds, their lists,
// the types they reach, meta/v1 Status and DeleteOptions (and, for apps/v1,
// autoscaling/v1 Scale for the scale subresource). Empty for an unknown
// group-version.
json::object component_schemas(std::string_view group, std::string_view version,
                               const Registry& registry = Registry::builtin());
// Sets document["components"]["schemas"] to component_schemas(...), keeping
// whatever else the document holds (openapi, info, paths).
void add_component_schemas(json::object& document, std::string_view group, std::string_view version,
                           const Registry& registry = Registry::builtin());
// A complete document with no paths: {"openapi":"3.0.0","info":...,"paths":{},
// "components":{"schemas":...}}; null for an unknown group-version.
json::value openapi_v3_document(std::string_view group, std::string_view version,
                                const Registry& registry = Registry::builtin());

// "#/components/schemas/io.k8s.api.apps.v1.Deployment"; empty when the kind is
// not in the registry.
std::string schema_ref(const GroupVersionKind& gvk, const Registry& registry = Registry::builtin());
// "#/components/schemas/io.k8s.api.apps.v1.DeploymentList".
std::string list_schema_ref(const GroupVersionKind& gvk,
                            const Registry& registry = Registry::builtin());
std::string status_schema_ref();  // meta/v1 Status
// {"application/json": {"schema": {"$ref": ref}}} for a response or request body.
json::object json_content(std::string_view ref);

// The schema of one type (what component_schemas holds under its name).
json::object type_schema(const Type& type);

}  // namespace kcm::api::schema
