#include "api/duration.h"

#include <gtest/gtest.h>

#include <limits>

namespace kcm::api {
namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;

constexpr nanoseconds kMin{std::numeric_limits<std::int64_t>::min()};
constexpr nanoseconds kMax{std::numeric_limits<std::int64_t>::max()};

TEST(DurationTest, ParseMatchesGo) {
  struct Case {
    const char* in;
    nanoseconds want;
  };
  const Case cases[] = {
      {"0", 0ns},
      {"+0", 0ns},
      {"-0", 0ns},
      {"5s", 5s},
      {"30s", 30s},
      {"1478s", 1478s},
      {"-5s", -5s},
      {"+5s", 5s},
      {"-1s", -1s},
      {"1m30s", 90s},
      {"1.5h", 90min},
      {"2h45m", 165min},
      {"300ms", 300ms},
      {"1.5s", 1500ms},
      {".5s", 500ms},
      {"1.s", 1s},
      {"1.0s", 1s},
      {"1.004s", 1004ms},
      {"100.00100s", 100001ms},
      {"10ns", 10ns},
      {"11us", 11us},
      {"12\xc2\xb5s", 12us},  // U+00B5
      {"12\xce\xbcs", 12us},  // U+03BC
      {"13ms", 13ms},
      {"14s", 14s},
      {"15m", 15min},
      {"16h", 16h},
      {"3h30m", 210min},
      {"10.5s4m", 4min + 10500ms},
      {"-2m3.4s", -(2min + 3400ms)},
      {"1h2m3s4ms5us6ns", 1h + 2min + 3s + 4ms + 5us + 6ns},
      {"39h9m14.425s", 39h + 9min + 14425ms},
      {"52763797000ns", 52763797000ns},
      {"0.3333333333333333333h", 20min},
      {"9007199254740993ns", 9007199254740993ns},
      {"9223372036854775807ns", kMax},
      {"9223372036854775.807us", kMax},
      {"9223372036s854ms775us807ns", kMax},
      {"-9223372036854775808ns", kMin},
      {"-9223372036854775.808us", kMin},
      {"0.100000000000000000000h", 6min},
      {"0.830103483285477580700h", 49min + 48s + 372539827ns},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto got = parse_duration(c.in);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_EQ(got->count(), c.want.count());
  }
}

TEST(DurationTest, ParseErrorsMatchGo) {
  struct Case {
    const char* in;
    const char* error;
  };
  const Case cases[] = {
      {"", R"(time: invalid duration "")"},
      {"3", R"(time: missing unit in duration "3")"},
      {"1", R"(time: missing unit in duration "1")"},
      {"-", R"(time: invalid duration "-")"},
      {"s", R"(time: invalid duration "s")"},
      {".", R"(time: invalid duration ".")"},
      {"-.", R"(time: invalid duration "-.")"},
      {".s", R"(time: invalid duration ".s")"},
      {"+.s", R"(time: invalid duration "+.s")"},
      {"1x", R"(time: unknown unit "x" in duration "1x")"},
      {"1d", R"(time: unknown unit "d" in duration "1d")"},
      {"1S", R"(time: unknown unit "S" in duration "1S")"},
      {"1s ", R"(time: unknown unit "s " in duration "1s ")"},
      {"1\xc2\xb5x", R"(time: unknown unit "\xc2\xb5x" in duration "1\xc2\xb5x")"},
      {"\"1s", R"(time: invalid duration "\"1s")"},
      {"9223372036854775808ns", R"(time: invalid duration "9223372036854775808ns")"},
      {"9223372036854775.808us", R"(time: invalid duration "9223372036854775.808us")"},
      {"9223372036854ms775us808ns", R"(time: invalid duration "9223372036854ms775us808ns")"},
      {"-9223372036854775809ns", R"(time: invalid duration "-9223372036854775809ns")"},
      {"2562048h", R"(time: invalid duration "2562048h")"},
      {"99999999999999999999s", R"(time: invalid duration "99999999999999999999s")"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto got = parse_duration(c.in);
    ASSERT_FALSE(got.ok()) << got->count();
    EXPECT_EQ(got.error(), c.error);
  }
}

TEST(DurationTest, FormatMatchesGo) {
  struct Case {
    nanoseconds d;
    const char* want;
  };
  const Case cases[] = {
      {0ns, "0s"},
      {1ns, "1ns"},
      {1100ns, "1.1\xc2\xb5s"},
      {2200us, "2.2ms"},
      {3300ms, "3.3s"},
      {4min + 5s, "4m5s"},
      {4min + 5001ms, "4m5.001s"},
      {5h + 6min + 7001ms, "5h6m7.001s"},
      {8min + 1ns, "8m0.000000001s"},
      {90s, "1m30s"},
      {1500ms, "1.5s"},
      {500ms, "500ms"},
      {2h, "2h0m0s"},
      {-1s, "-1s"},
      {-1500us, "-1.5ms"},
      {1ms + 1ns, "1.000001ms"},
      {kMax, "2562047h47m16.854775807s"},
      {kMin, "-2562047h47m16.854775808s"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.want);
    EXPECT_EQ(format_duration(c.d), c.want);
    // Everything Go prints, Go parses back.
    auto back = parse_duration(c.want);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->count(), c.d.count());
  }
}

TEST(DurationTest, Json) {
  EXPECT_EQ(json::serialize(duration_to_json(90s)), R"("1m30s")");
  auto d = duration_from_json(json::parse(R"("2h45m")"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, 165min);
  auto bad = duration_from_json(json::parse("5"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "json: cannot unmarshal number into Go value of type string");
  auto null = duration_from_json(json::parse("null"));
  ASSERT_FALSE(null.ok());
  EXPECT_EQ(null.error(), R"(time: invalid duration "")");
}

TEST(DurationTest, GoTimeQuote) {
  EXPECT_EQ(go_time_quote("abc"), R"("abc")");
  EXPECT_EQ(go_time_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(go_time_quote("\n\x7f"), "\"\\x0a\x7f\"");
  EXPECT_EQ(go_time_quote("\xce\xbc"), R"("\xce\xbc")");
}

}  // namespace
}  // namespace kcm::api
