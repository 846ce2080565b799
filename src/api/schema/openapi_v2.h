// OpenAPI v2 (Swagger 2.0) definitions for the built-in types, named and
// shaped like kube-apiserver's /openapi/v2 ("io.k8s.api.apps.v1.Deployment",
// "$ref": "#/definitions/...", IntOrString as {type: string, format:
// int-or-string}, Quantity as {type: string}). kubectl 1.27/1.28 read them to
// validate manifests client-side, to compute strategic merge patches
// (x-kubernetes-patch-strategy/-merge-key) and for `kubectl explain`.
//
// Unlike v3, a v2 "$ref" may carry siblings: a field that refers to a type
// keeps its description and x-kubernetes-* extensions next to the "$ref".
#pragma once

#include <string>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/schema/registry.h"

namespace kcm::api::schema {

// The definitions of one v2 document serving `kinds` (resources and the kinds
// of their subresources): each kind, its list (not for Scale, Binding and
// meta/v1 kinds), every type they reach, the well-known types (Time,
// IntOrString, ...), meta/v1 Status, DeleteOptions, ListMeta and Patch. Names
// are sorted; kinds missing from the registry are skipped. DeleteOptions lists
// every group-version of the kinds that have lists, as upstream lists every
// served group-version.
json::object openapi_v2_definitions(const std::vector<GroupVersionKind>& kinds,
                                    const Registry& registry = Registry::builtin());

// The schema of one type, as openapi_v2_definitions holds it under its name.
json::object openapi_v2_type_schema(const Type& type);

// "#/definitions/io.k8s.api.apps.v1.Deployment"; empty when the kind is not in
// the registry.
std::string openapi_v2_ref(const GroupVersionKind& gvk,
                           const Registry& registry = Registry::builtin());
// "#/definitions/io.k8s.api.apps.v1.DeploymentList"; empty when the kind has
// no list.
std::string openapi_v2_list_ref(const GroupVersionKind& gvk,
                                const Registry& registry = Registry::builtin());
std::string openapi_v2_status_ref();          // meta/v1 Status
std::string openapi_v2_delete_options_ref();  // meta/v1 DeleteOptions
std::string openapi_v2_patch_ref();           // meta/v1 Patch (a PATCH request body)

// Reorders the members of every object in `v` by name, recursively (arrays
// keep their order), as upstream's swagger.json is written.
void sort_object_keys(json::value& v);

}  // namespace kcm::api::schema
