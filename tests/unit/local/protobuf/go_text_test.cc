#include "local/protobuf/go_text.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace kcm::local::protobuf {
namespace {

TEST(GoJsonTextTest, CoercesInvalidUtf8LikeEncodingJson) {
  const struct {
    std::string in;
    std::string want;
  } cases[] = {
      {"plain", "plain"},
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
      {"a\xFF"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      // A truncated sequence: each byte of it is replaced on its own.
      {"\xE2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD"},
      // Overlong encoding of '/', a UTF-16 surrogate, and a code point above U+10FFFF.
      {"\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD"},
      {"\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
      {"\xF4\x90\x80\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
      {std::string("nul\0in", 6), std::string("nul\0in", 6)},
  };
  for (const auto& c : cases)
    EXPECT_EQ(go_json_text(c.in), c.want) << c.in;
}

TEST(GoTimeTest, FormatsLikeMetav1) {
  const struct {
    GoInstant t;
    bool micros;
    std::string want;
  } cases[] = {
      {{0, 0}, false, "1970-01-01T00:00:00Z"},
      {{1'796'032'800, 999'999'999}, false, "2026-11-30T10:00:00Z"},
      {{1'796'032'800, 123'456'789}, true, "2026-11-30T10:00:00.123456Z"},
      {{-1, 0}, false, "1969-12-31T23:59:59Z"},
      // time.Unix normalizes nanoseconds out of range.
      {{0, -1}, true, "1969-12-31T23:59:59.999999Z"},
      {{0, 2'500'000'000}, true, "1970-01-01T00:00:02.500000Z"},
      {{951'782'400, 0}, false, "2000-02-29T00:00:00Z"},
      {{-62'167'219'200, 0}, false, "0000-01-01T00:00:00Z"},
      {{253'402'300'799, 0}, false, "9999-12-31T23:59:59Z"},
  };
  for (const auto& c : cases) {
    auto got = format_go_time(c.t, c.micros);
    ASSERT_TRUE(got) << got.error();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(GoTimeTest, OutOfRange) {
  for (std::int64_t s :
       {std::int64_t{253'402'300'800}, std::int64_t{-62'167'219'201},
        std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    auto got = format_go_time({s, 0}, false);
    ASSERT_FALSE(got) << s;
    EXPECT_EQ(got.error(), "time out of range: " + std::to_string(s) + " seconds since 1970");
  }
}

TEST(GoTimeTest, ZeroTime) {
  EXPECT_TRUE(is_go_zero_time({-62'135'596'800, 0}));
  EXPECT_FALSE(is_go_zero_time({-62'135'596'800, 1}));
  EXPECT_TRUE(is_go_zero_time({-62'135'596'801, 1'000'000'000}));
  EXPECT_FALSE(is_go_zero_time({0, 0}));
}

}  // namespace
}  // namespace kcm::local::protobuf
