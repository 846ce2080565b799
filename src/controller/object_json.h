// Reading an object's JSON with errors that name the mistyped member, as the
// finalizer and owner-reference helpers report them.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"

namespace kcm::controller {

namespace json = api::json;

// "<path>: expected <want>, got <JSON type of v>".
inline std::string member_type_error(std::string_view path, std::string_view want,
                                     const json::value& v) {
  return std::string(path) + ": expected " + std::string(want) + ", got " +
         std::string(api::json_type_name(v));
}

// The object's metadata, or nullptr when absent or null. A metadata that is
// not an object fails, the message prefixed by `prefix`.
inline Result<const json::object*> find_metadata(const json::object& obj,
                                                 std::string_view prefix = "") {
  const json::value* m = api::find(obj, "metadata");
  if (m == nullptr || m->is_null()) return static_cast<const json::object*>(nullptr);
  if (!m->is_object()) {
    return fail(std::string(prefix) + member_type_error("metadata", "object", *m));
  }
  return &m->as_object();
}

}  // namespace kcm::controller
