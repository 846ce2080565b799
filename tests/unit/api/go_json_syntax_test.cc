#include "api/go_json_syntax.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

TEST(GoJsonSyntaxTest, ReportsGoScannerMessages) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"a":1})", ""},
      {" [1, 2.5e-3, true, false, null, \"x\\u00e9\"] ", ""},
      {"", "unexpected end of JSON input"},
      {"kind: Pod\n", "invalid character 'k' looking for beginning of value"},
      {R"({"a" 1})", "invalid character '1' after object key"},
      {R"({"a":1 "b":2})", "invalid character '\"' after object key:value pair"},
      {"[1 2]", "invalid character '2' after array element"},
      {"{a:1}", "invalid character 'a' looking for beginning of object key string"},
      {"{\"a\":1}}", "invalid character '}' after top-level value"},
      {"[tru]", "invalid character ']' in literal true (expecting 'e')"},
      {"[1.]", "invalid character ']' after decimal point in numeric literal"},
      {"[1e]", "invalid character ']' in exponent of numeric literal"},
      {"[-x]", "invalid character 'x' in numeric literal"},
      {"\"a\\qb\"", "invalid character 'q' in string escape code"},
      {"\"a\nb\"", "invalid character '\\n' in string literal"},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"},
      {R"({"a":)", "unexpected end of JSON input"},
      {"'x'", "invalid character '\\'' looking for beginning of value"},
  };
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(go_json_syntax_error(text), message) << text;
  }
}

}  // namespace
}  // namespace kcm::api
