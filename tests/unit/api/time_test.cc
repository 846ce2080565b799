#include "api/time.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;

constexpr const char* kLayout = "\"2006-01-02T15:04:05Z07:00\"";
constexpr const char* kMicroLayout = "\"2006-01-02T15:04:05.000000Z07:00\"";

std::int64_t unix_nanos(const Time& t) {
  return std::chrono::duration_cast<nanoseconds>(t.time_point().time_since_epoch()).count();
}

TEST(TimeTest, ParseRfc3339) {
  struct Case {
    const char* in;
    const char* utc;     // to_string()
    std::int64_t nanos;  // within the second
  };
  const Case cases[] = {
      {"2026-11-30T10:00:00Z", "2026-11-30T10:00:00Z", 0},
      {"2026-11-30T10:00:00+02:00", "2026-11-30T08:00:00Z", 0},
      {"2026-11-30T10:00:00-05:30", "2026-11-30T15:30:00Z", 0},
      {"2026-11-30T23:30:00-01:00", "2026-12-01T00:30:00Z", 0},
      {"2026-11-30T10:00:00.5Z", "2026-11-30T10:00:00Z", 500000000},
      {"2026-11-30T10:00:00.123456789Z", "2026-11-30T10:00:00Z", 123456789},
      // Digits past nanoseconds are dropped, not rounded.
      {"2026-11-30T10:00:00.1234567899Z", "2026-11-30T10:00:00Z", 123456789},
      // Go also takes a comma before the fraction and a one-digit hour.
      {"2026-11-30T10:00:00,25Z", "2026-11-30T10:00:00Z", 250000000},
      {"2026-11-30T1:02:03Z", "2026-11-30T01:02:03Z", 0},
      {"2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z", 0},
      {"1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", 0},
      {"1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z", 0},
      {"2026-11-30T10:00:00+24:00", "2026-11-29T10:00:00Z", 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto t = Time::parse(c.in);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_FALSE(t->is_zero());
    EXPECT_EQ(t->to_string(), c.utc);
    const std::int64_t n = unix_nanos(*t);
    EXPECT_EQ(((n % 1000000000) + 1000000000) % 1000000000, c.nanos);
  }
  EXPECT_EQ(unix_nanos(*Time::parse("1970-01-01T00:00:01Z")), 1000000000);
}

TEST(TimeTest, ParseErrorsMatchGo) {
  struct Case {
    const char* in;
    std::string error;
  };
  const Case cases[] = {
      {"2026-02-30T00:00:00Z", R"(parsing time "2026-02-30T00:00:00Z": day out of range)"},
      {"2025-02-29T00:00:00Z", R"(parsing time "2025-02-29T00:00:00Z": day out of range)"},
      {"2026-13-01T00:00:00Z", R"(parsing time "2026-13-01T00:00:00Z": month out of range)"},
      {"2026-00-01T00:00:00Z", R"(parsing time "2026-00-01T00:00:00Z": month out of range)"},
      {"2026-11-30T24:00:00Z", R"(parsing time "2026-11-30T24:00:00Z": hour out of range)"},
      {"2026-11-30T10:60:00Z", R"(parsing time "2026-11-30T10:60:00Z": minute out of range)"},
      {"2026-11-30T10:00:60Z", R"(parsing time "2026-11-30T10:00:60Z": second out of range)"},
      {"2026-11-30T10:00:00+25:00",
       R"(parsing time "2026-11-30T10:00:00+25:00": time zone offset hour out of range)"},
      {"2026-11-30T10:00:00Zjunk",
       R"(parsing time "2026-11-30T10:00:00Zjunk": extra text: "junk")"},
      {"x", std::string(R"(parsing time "x" as )") + kLayout + R"(: cannot parse "x" as "2006")"},
      {"", std::string(R"(parsing time "" as )") + kLayout + R"(: cannot parse "" as "2006")"},
      {"2026-11-30 10:00:00Z", std::string(R"(parsing time "2026-11-30 10:00:00Z" as )") + kLayout +
                                   R"(: cannot parse " 10:00:00Z" as "T")"},
      {"2026-11-30T10:00:00", std::string(R"(parsing time "2026-11-30T10:00:00" as )") + kLayout +
                                  R"(: cannot parse "" as "Z07:00")"},
      {"2026-1-30T10:00:00Z", std::string(R"(parsing time "2026-1-30T10:00:00Z" as )") + kLayout +
                                  R"(: cannot parse "1-30T10:00:00Z" as "01")"},
      {"2026/11/30T10:00:00Z", std::string(R"(parsing time "2026/11/30T10:00:00Z" as )") + kLayout +
                                   R"(: cannot parse "/11/30T10:00:00Z" as "-")"},
      {"2026-11-30T10:00:00z", std::string(R"(parsing time "2026-11-30T10:00:00z" as )") + kLayout +
                                   R"(: cannot parse "z" as "Z07:00")"},
      {"2026-11-30T10:00:00*02:00", std::string(R"(parsing time "2026-11-30T10:00:00*02:00" as )") +
                                        kLayout + R"(: cannot parse "*02:00" as "Z07:00")"},
      {"2026-11-30T10:00:00\xff", std::string(R"(parsing time "2026-11-30T10:00:00\xff" as )") +
                                      kLayout + R"(: cannot parse "\xff" as "Z07:00")"},
      {"3000-01-01T00:00:00Z",
       R"(parsing time "3000-01-01T00:00:00Z": outside the range of a nanosecond time point )"
       "(1677-09-21T00:12:45Z to 2262-04-11T23:47:15Z)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto t = Time::parse(c.in);
    ASSERT_FALSE(t.ok()) << t->to_string();
    EXPECT_EQ(t.error(), c.error);
  }
}

TEST(TimeTest, ZeroTime) {
  const Time zero;
  EXPECT_TRUE(zero.is_zero());
  EXPECT_EQ(zero.to_string(), "0001-01-01T00:00:00Z");
  EXPECT_TRUE(zero.to_json().is_null());
  // Go's zero time in any spelling is the zero time.
  for (const char* in : {"0001-01-01T00:00:00Z", "0001-01-01T01:00:00+01:00"}) {
    auto t = Time::parse(in);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_TRUE(t->is_zero());
  }
  // It sorts before every real instant.
  EXPECT_LT(zero, *Time::parse("1970-01-01T00:00:00Z"));
  EXPECT_LT(zero, *Time::parse("1677-09-22T00:00:00Z"));
}

TEST(TimeTest, Json) {
  struct Case {
    const char* json;
    const char* encoded;  // nullptr: error
    const char* error;
  };
  const Case cases[] = {
      {"null", "null", ""},
      {R"("2026-11-30T10:00:00Z")", R"("2026-11-30T10:00:00Z")", ""},
      {R"("2026-11-30T12:00:00.75+02:00")", R"("2026-11-30T10:00:00Z")", ""},
      {R"("0001-01-01T00:00:00Z")", "null", ""},
      {"5", nullptr, "json: cannot unmarshal number into Go value of type string"},
      {"true", nullptr, "json: cannot unmarshal bool into Go value of type string"},
      {"{}", nullptr, "json: cannot unmarshal object into Go value of type string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    auto t = Time::from_json(json::parse(c.json));
    if (c.encoded != nullptr) {
      ASSERT_TRUE(t.ok()) << t.error();
      EXPECT_EQ(json::serialize(t->to_json()), c.encoded);
    } else {
      ASSERT_FALSE(t.ok());
      EXPECT_EQ(t.error(), c.error);
    }
  }
}

TEST(TimeTest, Rfc3339CopyTruncatesToSeconds) {
  const Time t = *Time::parse("2026-11-30T10:00:00.999Z");
  const Time copy = t.rfc3339_copy();
  EXPECT_NE(copy, t);
  EXPECT_EQ(copy, *Time::parse("2026-11-30T10:00:00Z"));
  EXPECT_EQ(*Time::from_json(t.to_json()), copy);
  EXPECT_TRUE(Time().rfc3339_copy().is_zero());
  const Time before = *Time::parse("1969-12-31T23:59:59.5Z");
  EXPECT_EQ(before.rfc3339_copy().to_string(), "1969-12-31T23:59:59Z");
}

TEST(MicroTimeTest, ParseAndFormat) {
  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {"2026-11-30T10:00:00.123456Z", "2026-11-30T10:00:00.123456Z"},
      {"2026-11-30T10:00:00.000000Z", "2026-11-30T10:00:00.000000Z"},
      {"2026-11-30T10:00:00.123456+01:00", "2026-11-30T09:00:00.123456Z"},
      {"2026-11-30T10:00:00,000001Z", "2026-11-30T10:00:00.000001Z"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto t = MicroTime::parse(c.in);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->to_string(), c.out);
    EXPECT_EQ(json::serialize(t->to_json()), std::string("\"") + c.out + "\"");
  }
  // Nanoseconds are truncated to microseconds when formatting.
  const auto tp = std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(1700000000123456789ns));
  EXPECT_EQ(MicroTime(tp).to_string(), "2023-11-14T22:13:20.123456Z");
  EXPECT_EQ(MicroTime().to_string(), "0001-01-01T00:00:00.000000Z");
  EXPECT_TRUE(MicroTime().to_json().is_null());
}

TEST(MicroTimeTest, ParseErrors) {
  struct Case {
    const char* in;
    std::string error;
  };
  const Case cases[] = {
      {"2026-11-30T10:00:00Z", std::string(R"(parsing time "2026-11-30T10:00:00Z" as )") +
                                   kMicroLayout + R"(: cannot parse "Z" as ".000000")"},
      {"2026-11-30T10:00:00.123Z", std::string(R"(parsing time "2026-11-30T10:00:00.123Z" as )") +
                                       kMicroLayout + R"(: cannot parse ".123Z" as ".000000")"},
      {"2026-11-30T10:00:00.1234567Z",
       std::string(R"(parsing time "2026-11-30T10:00:00.1234567Z" as )") + kMicroLayout +
           R"(: cannot parse "7Z" as "Z07:00")"},
      {"2026-11-30T10:00:00.-12345Z",
       R"(parsing time "2026-11-30T10:00:00.-12345Z": fractional second out of range)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto t = MicroTime::parse(c.in);
    ASSERT_FALSE(t.ok()) << t->to_string();
    EXPECT_EQ(t.error(), c.error);
  }
}

struct DurationCase {
  nanoseconds d;
  const char* want;
};

constexpr nanoseconds kDay = 24h;
constexpr nanoseconds kYear = 365 * kDay;

// Upstream's TestHumanDuration and TestHumanDurationBoundaries.
TEST(HumanDurationTest, MatchesUpstream) {
  const DurationCase cases[] = {
      {1s, "1s"},
      {70s, "70s"},
      {190s, "3m10s"},
      {70min, "70m"},
      {47h, "47h"},
      {49h, "2d1h"},
      {(8 * 24 + 2) * 1h, "8d"},
      {367 * kDay, "367d"},
      {(365 * 2 * 24 + 25) * 1h, "2y1d"},
      {(365 * 8 * 24 + 2) * 1h, "8y"},
      {-2s, "<invalid>"},
      {-2s + 1ns, "0s"},
      {0s, "0s"},
      {1s - 1ms, "0s"},
      {2min - 1ms, "119s"},
      {2min, "2m"},
      {2min + 1s, "2m1s"},
      {10min - 1ms, "9m59s"},
      {10min, "10m"},
      {10min + 1s, "10m"},
      {3h - 1ms, "179m"},
      {3h, "3h"},
      {3h + 1min, "3h1m"},
      {8h - 1ms, "7h59m"},
      {8h, "8h"},
      {8h + 59min, "8h"},
      {2 * kDay - 1ms, "47h"},
      {2 * kDay, "2d"},
      {2 * kDay + 1h, "2d1h"},
      {8 * kDay - 1ms, "7d23h"},
      {8 * kDay, "8d"},
      {8 * kDay + 23h, "8d"},
      {2 * kYear - 1ms, "729d"},
      {2 * kYear, "2y"},
      {2 * kYear + 23h, "2y"},
      {2 * kYear + 23h + 59min, "2y"},
      {2 * kYear + 24h - 1ms, "2y"},
      {2 * kYear + 24h, "2y1d"},
      {3 * kYear, "3y"},
      {4 * kYear + 100 * kDay, "4y100d"},
      {7 * kYear, "7y"},
      {8 * kYear - 1ms, "7y364d"},
      {8 * kYear, "8y"},
      {8 * kYear + 364 * kDay, "8y"},
      {9 * kYear, "9y"},
      {45h, "45h"},
      {5s, "5s"},
      {182s, "3m2s"},
  };
  for (const DurationCase& c : cases) {
    SCOPED_TRACE(c.want);
    EXPECT_EQ(human_duration(c.d), c.want) << c.d.count();
  }
}

// Upstream's TestShortHumanDurationBoundaries.
TEST(HumanDurationTest, ShortMatchesUpstream) {
  const DurationCase cases[] = {
      {-2s, "<invalid>"},    {-2s + 1ns, "0s"}, {0s, "0s"},
      {1s - 1ms, "0s"},      {1s, "1s"},        {2s - 1ms, "1s"},
      {1min - 1ms, "59s"},   {1min, "1m"},      {2min - 1ms, "1m"},
      {1h - 1ms, "59m"},     {1h, "1h"},        {2h - 1ms, "1h"},
      {kDay - 1ms, "23h"},   {kDay, "1d"},      {2 * kDay - 1ms, "1d"},
      {kYear - 1ms, "364d"}, {kYear, "1y"},     {2 * kYear - 1ms, "1y"},
      {2 * kYear, "2y"},
  };
  for (const DurationCase& c : cases) {
    SCOPED_TRACE(c.want);
    EXPECT_EQ(short_human_duration(c.d), c.want) << c.d.count();
  }
}

TEST(HumanDurationTest, Age) {
  const Time created = *Time::parse("2026-11-30T10:00:00Z");
  EXPECT_EQ(human_age(created, created.time_point() + 3723s), "62m");
  EXPECT_EQ(human_age(created, created.time_point() + 5s), "5s");
  EXPECT_EQ(human_age(Time(), created.time_point()), "<unknown>");
}

}  // namespace
}  // namespace kcm::api
