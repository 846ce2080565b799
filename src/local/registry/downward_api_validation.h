// fieldRef and resourceFieldRef selectors of env vars and downwardAPI volume
// files (upstream's validateObjectFieldSelector and
// validateContainerResourceFieldSelector).
#pragma once

#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

enum class DownwardApiUse { kEnv, kVolume };

void validate_object_field_selector(const json::object& ref, DownwardApiUse use,
                                    std::string_view field, api::FieldErrors& errs);
void validate_resource_field_selector(const json::object& ref, DownwardApiUse use,
                                      std::string_view field, api::FieldErrors& errs);

}  // namespace kcm::local::registry
