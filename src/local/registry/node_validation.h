// core/v1 Node validation (upstream's ValidateNode and ValidateNodeUpdate):
// taints, resource quantities in capacity/allocatable, pod CIDRs, and on
// update the fields that may only be set once.
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

api::FieldErrors validate_node(const json::object& node);
// Main resource and status updates alike.
api::FieldErrors validate_node_update(const json::object& node, const json::object& old);

}  // namespace kcm::local::registry
