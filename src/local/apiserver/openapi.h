// OpenAPI v3 documents for kubectl: an index of group-versions and, per
// group-version, the paths with their operations. kubectl uses them to decide
// that the server validates fields itself (the fieldValidation parameter on
// PATCH), so create/apply/replace work with validation on.
#pragma once

#include <string_view>

#include "api/json.h"
#include "local/registry/resource_info.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// GET /openapi/v3
json::value openapi_v3_index(const registry::ResourceTable& table);
// GET /openapi/v3/<api/v1 | apis/<group>/<version>>; null when not served.
json::value openapi_v3_document(const registry::ResourceTable& table, std::string_view gv_path);

}  // namespace kcm::local::apiserver
