// apiequality.Semantic.DeepEqual for the strategies: JSON compared as the
// decoded Go structs of the built-in types compare (api/schema/semantic_equal.h:
// a zero value equals an absent field unless the field is a pointer, nil and
// empty lists and maps are alike, quantities compare by value).
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/schema/registry.h"
#include "api/schema/semantic_equal.h"
#include "api/schema/type.h"

namespace kcm::local::registry {

namespace json = boost::json;

using api::schema::builtin_type;
// Two values of a struct type (api/schema/semantic_equal.h).
using api::schema::semantic_equal;

// Two values of the member `key` of the struct `owner` (nullptr: absent).
// A member the definitions lack compares as JSON, absent equal to null.
bool equal_member(const json::value* a, const json::value* b, std::string_view key,
                  const api::schema::Type& owner);
// The member `key` of two objects of the struct `owner` (either may lack it).
bool equal_member(const json::object& a, const json::object& b, std::string_view key,
                  const api::schema::Type& owner);

}  // namespace kcm::local::registry
