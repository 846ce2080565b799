// The defs/*.schema files compiled into the library (generated source, see
// src/CMakeLists.txt).
#pragma once

#include <vector>

#include "api/schema/registry.h"

namespace kcm::api::schema {

std::vector<DefinitionFile> embedded_definitions();

}  // namespace kcm::api::schema
