// core/v1 ConfigMap validation (upstream's ValidateConfigMap and
// ValidateConfigMapUpdate; metadata is validated generically).
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Every key of data and binaryData is a valid config key and appears in one
// of them only; the values together hold at most 1 MiB (binaryData counted
// decoded).
api::FieldErrors validate_config_map(const json::object& config_map);

// Once `immutable` is true it stays true and data and binaryData stay as
// they are; then validate_config_map.
api::FieldErrors validate_config_map_update(const json::object& config_map,
                                            const json::object& old);

}  // namespace kcm::local::registry
