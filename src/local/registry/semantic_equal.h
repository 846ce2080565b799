// Equality of JSON objects as upstream's apiequality.Semantic.DeepEqual sees
// the decoded structs: absent, null and empty values (0, false, "", [] and
// {}) are alike, numbers compare by value.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

bool semantic_equal(const json::value& a, const json::value& b);
// For optional members (nullptr: absent).
bool semantic_equal(const json::value* a, const json::value* b);

}  // namespace kcm::local::registry
