// Small helpers over Boost.JSON, the representation every kcm object passes
// through on the wire. Objects stay boost::json values wherever kcm does not
// model them, so unknown fields survive a read-modify-write untouched.
#pragma once

#include <boost/json.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kcm::api {

namespace json = boost::json;

// Parses JSON text. Returns nullopt and fills `error` (a precise message with
// the byte offset) on malformed input. The value is allocated from `sp` (an
// arena such as json::monotonic_resource makes many short-lived values cheap
// to build and free).
std::optional<json::value> parse_json(std::string_view text, std::string* error,
                                      json::storage_ptr sp = {});
// The deepest nesting parse_json accepts; code that builds or walks values
// bounds its recursion by it, so that what it makes can be read back.
inline constexpr std::size_t kJsonMaxDepth = 512;

// Compact serialization (no whitespace), as the API server and kubectl emit.
std::string to_json_string(const json::value& v);

// The name of a JSON value's type in kcm's "expected X, got Y" messages:
// "object", "array", "string", "boolean", "null" or "number".
std::string_view json_type_name(const json::value& v);
// The same in encoding/json's words ("bool" for booleans), as in
// "json: cannot unmarshal bool into Go value of type string".
std::string_view go_json_type_name(const json::value& v);

// Field accessors that tolerate absent members and wrong types (nullptr / nullopt).
const json::value* find(const json::object& o, std::string_view key);
const json::value* find_path(const json::value& v, std::initializer_list<std::string_view> path);
const json::object* find_object(const json::object& o, std::string_view key);
const json::array* find_array(const json::object& o, std::string_view key);
std::optional<std::string_view> find_string(const json::object& o, std::string_view key);
std::optional<std::int64_t> find_int(const json::object& o, std::string_view key);
std::optional<bool> find_bool(const json::object& o, std::string_view key);

// Returns the object member `key`, creating it (as an empty object) when absent
// or not an object.
json::object& ensure_object(json::object& o, std::string_view key);

// A string view of a JSON string value, or empty when `v` is null or not a string.
std::string_view as_string_view(const json::value* v);

// Whether `v` is what Go's omitempty leaves out and semantic equality treats
// as absent: null, false, 0, "", [] or {}.
bool is_empty_value(const json::value& v);

}  // namespace kcm::api
