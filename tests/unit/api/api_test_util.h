// Helpers the api suite's tests share. The suite's files are compiled in
// batches (tests/CMakeLists.txt), so a helper two files need lives here once.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::api {

// `text` parsed as JSON; a parse error fails the calling test.
inline json::value parse_test_json(std::string_view text) {
  std::string error;
  std::optional<json::value> v = parse_json(text, &error);
  EXPECT_TRUE(v.has_value()) << text << ": " << error;
  return v.value_or(nullptr);
}

// The messages of `errs`, in order.
inline std::vector<std::string> error_messages(const FieldErrors& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs)
    out.push_back(e.message());
  return out;
}

// Upstream's validation messages (k8s.io/apimachinery/pkg/util/validation).
inline const std::string kNamePartMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
inline const std::string kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// The schema of property `name` of object schema `s`.
inline const json::object& property_schema(const json::object& s, std::string_view name) {
  return s.at("properties").as_object().at(name).as_object();
}

}  // namespace kcm::api
