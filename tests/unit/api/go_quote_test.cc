#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/field_error.h"

namespace kcm::api {
namespace {

struct QuoteCase {
  std::string in;
  std::string out;  // what Go's strconv.Quote (%q) prints
};

TEST(GoQuoteTest, EscapesAsGosStrconvQuote) {
  const std::vector<QuoteCase> cases = {
      {"", "\"\""},
      {"plain", "\"plain\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\""},
      {"\n\r\t\a\b\f\v", "\"\\n\\r\\t\\a\\b\\f\\v\""},
      {std::string("\x00\x1f\x7f", 3), "\"\\x00\\x1f\\x7f\""},
      // Printable non-ASCII stays as it is.
      {"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
       "\"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80\""},
      // C1 controls and the soft hyphen are not printable: \u escapes.
      {"\xc2\x85|\xc2\xad", "\"\\u0085|\\u00ad\""},
      // Invalid bytes: \x each (a lone byte, a truncated sequence, an overlong
      // form, a surrogate).
      {"\xff", "\"\\xff\""},
      {"\xe2\x9c", "\"\\xe2\\x9c\""},
      {"\xc0\xaf", "\"\\xc0\\xaf\""},
      {"\xed\xa0\x80", "\"\\xed\\xa0\\x80\""},
  };
  for (const QuoteCase& c : cases) {
    EXPECT_EQ(go_quote(c.in), c.out) << c.out;
  }
}

}  // namespace
}  // namespace kcm::api
