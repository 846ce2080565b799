// Reading members of the Deployment's and ReplicaSets' JSON, shared by the
// views, the status and the template comparisons of this folder.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::controllers::deployment {

namespace json = api::json;

// A string member of `o`; "" when absent or not a string.
inline std::string string_member(const json::object& o, std::string_view key) {
  return std::string(api::find_string(o, key).value_or(""));
}

// A JSON null that outlives every caller: what an absent member reads as.
inline const json::value& null_value() {
  static const json::value kNull;
  return kNull;
}

}  // namespace kcm::controllers::deployment
