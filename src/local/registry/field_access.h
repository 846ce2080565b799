// Typed reads and writes of JSON members for defaulting and validation.
// JSON null counts as absent everywhere, as Go decodes null into the zero
// value; wrong JSON types read as the zero value too (the request decoder is
// responsible for type errors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// The member, or nullptr when absent or null.
const json::value* member(const json::object& o, std::string_view key);
// Whether the member is present and not null.
bool has(const json::object& o, std::string_view key);

const json::object* object_member(const json::object& o, std::string_view key);
// The object member `key`, or a shared empty object when absent, null or not an object.
const json::object& member_or_empty(const json::object& o, std::string_view key);
// `v` when it is an object, else a shared empty object.
const json::object& object_or_empty(const json::value& v);
const json::array* array_member(const json::object& o, std::string_view key);
// "" when absent, null or not a string.
std::string_view string_member(const json::object& o, std::string_view key);
// The elements of `a` as strings ("" for non-strings); empty when `a` is null.
std::vector<std::string> strings_of(const json::array* a);
// nullopt when absent, null or not an integer.
std::optional<std::int64_t> int_member(const json::object& o, std::string_view key);
// false when absent, null or not a boolean.
bool bool_member(const json::object& o, std::string_view key);
std::optional<bool> opt_bool_member(const json::object& o, std::string_view key);

json::object* mutable_object_member(json::object& o, std::string_view key);
json::array* mutable_array_member(json::object& o, std::string_view key);

// The object member `key`, created (or replacing null) when absent.
json::object& object_at(json::object& o, std::string_view key);

// Sets o[key] = v when the member is absent or null (a Go nil pointer or an
// empty string/zero value, depending on the caller).
void set_if_unset(json::object& o, std::string_view key, json::value v);
// Sets o[key] = v when the member is absent, null or the empty string.
void set_if_empty_string(json::object& o, std::string_view key, std::string_view v);
// Sets o[key] = v when the member is absent, null or the integer 0.
void set_if_zero(json::object& o, std::string_view key, std::int64_t v);

// Joins a dotted child path: path_of("spec", "containers") == "spec.containers".
std::string path_of(std::string_view parent, std::string_view child);

}  // namespace kcm::local::registry
