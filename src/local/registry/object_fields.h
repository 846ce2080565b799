// Small JSON helpers the strategies share.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Replaces obj[key] with old[key] (or removes it when `old` has none).
void copy_member(json::object& obj, const json::object& old, std::string_view key);

// The value at a dotted path as a field-selector string ("" when absent;
// booleans "true"/"false", numbers in decimal).
std::string field_string(const json::object& obj, std::string_view dotted_path);

// Whether obj[key] and old[key] are equal (both absent counts as equal).
bool member_equal(const json::object& a, const json::object& b, std::string_view key);

// metadata.generation, 0 when absent.
std::int64_t generation(const json::object& obj);
void set_generation(json::object& obj, std::int64_t generation);

}  // namespace kcm::local::registry
