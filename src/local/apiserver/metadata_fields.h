// Reading an object's metadata members, as the REST store and pod binding
// compare names, uids and resourceVersions.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// metadata.<key> of `obj` as a string; "" when metadata or the member is
// absent or not of the expected type.
inline std::string meta_string(const json::object& obj, std::string_view key) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta ? std::string(api::find_string(*meta, key).value_or("")) : std::string();
}

}  // namespace kcm::local::apiserver
