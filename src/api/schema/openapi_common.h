// What the OpenAPI v3 (openapi.h) and v2 (openapi_v2.h) documents share: the
// names of the well-known types, which types a document carries and the
// x-kubernetes-group-version-kind extension.
#pragma once

#include <set>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/schema/type.h"

namespace kcm::api::schema {

// The schema name of a well-known type, as upstream names it
// ("io.k8s.apimachinery.pkg.util.intstr.IntOrString"); empty for other kinds.
std::string_view builtin_openapi_name(Kind k);

// Adds `t` and the struct types its fields reach to `seen`, and the well-known
// types among their fields to `builtins`.
void collect_openapi_types(const Type& t, std::set<const Type*>& seen, std::set<Kind>& builtins);

// Whether the kind `t` is served as a collection and so has a "<name>List"
// schema: Binding, Scale, Status and DeleteOptions are not.
bool has_list_schema(const Type& t);

// The value of x-kubernetes-group-version-kind: [{"group", "kind", "version"}...].
json::array gvk_list_extension(const std::vector<GroupVersionKind>& gvks);

}  // namespace kcm::api::schema
