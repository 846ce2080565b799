// The YAML text of a vendor extension's value, as gnostic stores it in a
// NamedAny's Any.yaml (kubectl unmarshals it with go-yaml v2).
#pragma once

#include <string>

#include "api/json.h"

namespace kcm::local::openapi_v2 {

namespace json = boost::json;

// Block-style YAML ending in a newline, as go-yaml writes it:
//   "retainKeys"                 -> "retainKeys\n"
//   [{"group":"apps",...}]       -> "- group: apps\n  kind: Deployment\n  version: v1\n"
//   {"group":"","kind":"Pod"}    -> "group: \"\"\nkind: Pod\n"
// Strings that would read back as something else (empty, numbers, true, no,
// null, text with spaces or punctuation) are double-quoted.
std::string extension_yaml(const json::value& value);

}  // namespace kcm::local::openapi_v2
