// YAML documents as JSON values (what the API server does with
// application/yaml bodies, and what kubeconfig files are).
#pragma once

#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

// Parses a single YAML document into JSON. Plain scalars resolve as YAML 1.2's
// core schema (null, booleans, integers, floats); quoted scalars stay strings.
// Errors carry the line and column.
Result<json::value> parse_yaml(std::string_view text);

// Every document of a multi-document stream (`---` separated); empty documents
// are skipped.
Result<std::vector<json::value>> parse_yaml_documents(std::string_view text);

}  // namespace kcm::api
