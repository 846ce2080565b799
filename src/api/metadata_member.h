// Reading a member of an API object's metadata from its raw JSON, for code that
// works on json::object rather than the typed ObjectMeta (object_meta.h).
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::api {

// metadata.<key> of `obj` as a string; "" when metadata or the member is absent
// or not of the expected type.
inline std::string metadata_string(const json::object& obj, std::string_view key) {
  const json::object* meta = find_object(obj, "metadata");
  return meta != nullptr ? std::string(find_string(*meta, key).value_or("")) : std::string();
}

}  // namespace kcm::api
