// SetDefaults_ResourceList: quantities in requests, limits, capacity and
// the like are rounded up to milli-units and, as the API server writes them
// back, in canonical form ("1.5" -> "1500m", 1 -> "1", "1024Mi" -> "1Gi").
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Rewrites every valid quantity of `list` in place; invalid ones are left
// for validation to report.
void canonicalize_resource_list(json::object& list);
// The same for o[key] when it is an object.
void canonicalize_resource_list_member(json::object& o, std::string_view key);
// A single quantity member (emptyDir.sizeLimit, divisor): canonical form
// only, as any Quantity reads back from the API server; no rounding.
void canonicalize_quantity_member(json::object& o, std::string_view key);

}  // namespace kcm::local::registry
