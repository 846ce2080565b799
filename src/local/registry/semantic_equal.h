// apiequality.Semantic.DeepEqual for the strategies: JSON compared as the
// decoded Go structs of the built-in types compare (api/schema/semantic_equal.h:
// a zero value equals an absent field unless the field is a pointer, nil and
// empty lists and maps are alike, quantities compare by value).
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/schema/type.h"

namespace kcm::local::registry {

namespace json = boost::json;

// A struct type of the embedded definitions ("core/v1", "PodSpec"). The
// definitions ship with the library, so a missing one is a build defect: it
// aborts.
const api::schema::Type& builtin_type(std::string_view package, std::string_view name);

// Two values of the struct `type`.
bool semantic_equal(const json::value& a, const json::value& b, const api::schema::Type& type);

// Two values of the member `key` of the struct `owner` (nullptr: absent).
// A member the definitions lack compares as JSON, absent equal to null.
bool equal_member(const json::value* a, const json::value* b, std::string_view key,
                  const api::schema::Type& owner);
// The member `key` of two objects of the struct `owner` (either may lack it).
bool equal_member(const json::object& a, const json::object& b, std::string_view key,
                  const api::schema::Type& owner);

}  // namespace kcm::local::registry
