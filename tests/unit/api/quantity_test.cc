#include "api/quantity.h"

#include <gtest/gtest.h>

#include <limits>

namespace kcm::api {
namespace {

using F = Quantity::Format;

Quantity q(std::string_view s) {
  auto r = Quantity::parse(s);
  EXPECT_TRUE(r.ok()) << s << ": " << r.error();
  return r.ok() ? *r : Quantity();
}

constexpr const char* kFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr const char* kSuffix = "unable to parse quantity's suffix";
constexpr const char* kNumeric = "unable to parse numeric part of quantity";

TEST(QuantityTest, ParseAndCanonicalString) {
  struct Case {
    const char* in;
    const char* canonical;
    F format;
  };
  const Case cases[] = {
      // Already canonical text is kept verbatim (upstream caches it).
      {"100m", "100m", F::kDecimalSI},
      {"1500m", "1500m", F::kDecimalSI},
      {"100M", "100M", F::kDecimalSI},
      {"500M", "500M", F::kDecimalSI},
      {"1k", "1k", F::kDecimalSI},
      {"2e3", "2e3", F::kDecimalExponent},
      {"1e3", "1e3", F::kDecimalExponent},
      {"1E6", "1E6", F::kDecimalExponent},
      {"1e-3", "1e-3", F::kDecimalExponent},
      {"+5", "+5", F::kDecimalSI},
      {"-3Ki", "-3Ki", F::kBinarySI},
      {"1Ki", "1Ki", F::kBinarySI},
      {"512Mi", "512Mi", F::kBinarySI},
      {"12E", "12E", F::kDecimalSI},
      {"1.", "1.", F::kDecimalSI},
      // Canonicalised.
      {"0.1", "100m", F::kDecimalSI},
      {"1.5", "1500m", F::kDecimalSI},
      {"1.5Gi", "1536Mi", F::kBinarySI},
      {"0.5Gi", "512Mi", F::kBinarySI},
      {"1024Ki", "1Mi", F::kBinarySI},
      {"1024Mi", "1Gi", F::kBinarySI},
      {"2048Ki", "2Mi", F::kBinarySI},
      {"1536Ki", "1536Ki", F::kBinarySI},
      {"1000M", "1G", F::kDecimalSI},
      {"1000", "1k", F::kDecimalSI},
      {"1000000000", "1G", F::kDecimalSI},
      {"1000e-3", "1", F::kDecimalExponent},
      {"1.2e3", "1200", F::kDecimalExponent},
      {"1.3E+6", "1300e3", F::kDecimalExponent},
      // Cached verbatim too: scale, digits and first digit pass upstream's test.
      {"100.035k", "100.035k", F::kDecimalSI},
      {"10.035M", "10.035M", F::kDecimalSI},
      {"10.0350M", "10035k", F::kDecimalSI},
      {"1.0k", "1k", F::kDecimalSI},
      {".001Ki", "1024m", F::kBinarySI},
      {".000001Ki", "1024u", F::kDecimalSI},
      {".000000001Ki", "1024n", F::kDecimalSI},
      // Below a nano unit rounds up, and a tiny binary value becomes decimal.
      {".000000000001Ki", "2n", F::kDecimalSI},
      {"3.001n", "4n", F::kDecimalSI},
      {"0.0000000001", "1n", F::kDecimalSI},
      {"0.00000012345", "124n", F::kDecimalSI},
      {"1.1E-9", "2e-9", F::kDecimalExponent},
      {"0.5e-9", "1e-9", F::kDecimalExponent},
      {"-0.0000000001", "-1n", F::kDecimalSI},
      // Zeros.
      {"0", "0", F::kDecimalSI},
      {"00", "0", F::kDecimalSI},
      {"0.0", "0", F::kDecimalSI},
      {"-0", "0", F::kDecimalSI},
      {"0Ki", "0", F::kBinarySI},
      {".", "0", F::kDecimalSI},
      // Beyond int64.
      {"9Ei", "9223372036854775807", F::kBinarySI},
      {"9223372036854775807Ki", "9223372036854775807", F::kBinarySI},
      {"9223372036854775807", "9223372036854775807", F::kDecimalSI},
      {"9223372036854775808", "9223372036854775808", F::kDecimalSI},
      {"123456789012345678901234567890", "123456789012345678901234567890", F::kDecimalSI},
      {"-123456789012345678901234567890m", "-123456789012345678901234567890m", F::kDecimalSI},
      {"1E30", "1E30", F::kDecimalExponent},
      // No decimal SI suffix past E: the exponent is written (kubernetes#140459).
      {"1000E", "1e21", F::kDecimalSI},
      {"1000000000000000000000", "1e21", F::kDecimalSI},
      {"100E", "100E", F::kDecimalSI},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto got = Quantity::parse(c.in);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_EQ(got->to_string(), c.canonical);
    EXPECT_EQ(got->format(), c.format);
    // The canonical text reads back as the same value.
    auto again = Quantity::parse(got->to_string());
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->cmp(*got), 0);
  }
}

TEST(QuantityTest, NegativesPrintWithSign) {
  for (const char* in : {"1.5", "1Gi", "1000M", ".001Ki", "0.5Gi", "1e3", "12E"}) {
    SCOPED_TRACE(in);
    const Quantity pos = q(in);
    Quantity neg = q(std::string("-") + in);
    EXPECT_EQ(neg.to_string(), "-" + pos.to_string());
  }
}

TEST(QuantityTest, ParseErrors) {
  struct Case {
    const char* in;
    const char* error;
  };
  const Case cases[] = {
      {"", kFormatWrong},
      {"1.1.M", kFormatWrong},
      {"1+1.0M", kFormatWrong},
      {"0.1am", kFormatWrong},
      {"aoeu", kFormatWrong},
      {" 1", kFormatWrong},
      {"1 ", kFormatWrong},
      {"1Kix", kFormatWrong},
      {"--1", kSuffix},
      {"0.1mi", kSuffix},
      {".5i", kSuffix},
      {"1i", kSuffix},
      {"-3.01e-", kSuffix},
      {"1e", kSuffix},
      {"1KiB", kFormatWrong},
      {"1kb", kFormatWrong},
      {"1e99999999999999999999", kSuffix},
      {"-.e-20", kNumeric},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto got = Quantity::parse(c.in);
    ASSERT_FALSE(got.ok()) << got->to_string();
    EXPECT_EQ(got.error(), c.error);
  }
}

TEST(QuantityTest, Values) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  struct Case {
    const char* in;
    std::int64_t value;
    std::int64_t milli;
  };
  const Case cases[] = {
      {"100m", 1, 100},
      {"1", 1, 1000},
      {"1.5", 2, 1500},
      {"-1.5", -2, -1500},  // away from zero
      {"1n", 1, 1},
      {"1Gi", 1073741824, 1073741824000},
      {"1E", 1000000000000000000, kMax},
      {"10E", kMax, kMax},
      {"-10E", kMin, kMin},
      {"1e-9", 1, 1},
      {"0", 0, 0},
      {"123456789012345678901234567890", kMax, kMax},
      {"9223372036854775807", kMax, kMax},
      {"1e999999999", kMax, kMax},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const Quantity v = q(c.in);
    EXPECT_EQ(v.value(), c.value);
    EXPECT_EQ(v.milli_value(), c.milli);
  }
  EXPECT_EQ(q("1").scaled_value(-9), 1000000000);
  EXPECT_EQ(q("1k").scaled_value(3), 1);
  EXPECT_EQ(q("1500").scaled_value(3), 2);
  EXPECT_EQ(q("2").scaled_value(-2), 200);
}

TEST(QuantityTest, AsInt64) {
  EXPECT_EQ(q("1k").as_int64(), 1000);
  EXPECT_EQ(q("1Gi").as_int64(), 1073741824);
  EXPECT_EQ(q("1000m").as_int64(), 1);
  EXPECT_EQ(q("1500m").as_int64(), std::nullopt);
  EXPECT_EQ(q("10E").as_int64(), std::nullopt);
  EXPECT_EQ(q("0").as_int64(), 0);
}

TEST(QuantityTest, Compare) {
  struct Case {
    const char* a;
    const char* b;
    int want;
  };
  const Case cases[] = {
      {"0", "0", 0},
      {"0", "0m", 0},
      {"100m", "50m", 1},
      {"50m", "100m", -1},
      {"10000T", "100Gi", 1},
      {"1000m", "1", 0},
      {"1Gi", "1G", 1},
      {"1Ki", "1024", 0},
      {"-1", "1", -1},
      {"-2", "-1", -1},
      {"1e30", "1E", 1},
      {"1e-9", "0", 1},
      {"1e999999999", "1e999999998", 1},
      {"123456789012345678901234567890", "123456789012345678901234567891", -1},
      {"1.5Gi", "1536Mi", 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.a) + " vs " + c.b);
    EXPECT_EQ(q(c.a).cmp(q(c.b)), c.want);
    EXPECT_EQ(q(c.b).cmp(q(c.a)), -c.want);
  }
  EXPECT_TRUE(q("1") == q("1000m"));
  EXPECT_TRUE(q("1") < q("1001m"));
}

TEST(QuantityTest, AddAndSub) {
  struct Case {
    const char* a;
    const char* b;
    const char* sum;
    const char* diff;
  };
  const Case cases[] = {
      {"100m", "1.9", "2", "-1800m"},
      {"1Gi", "512Mi", "1536Mi", "512Mi"},
      {"1", "100m", "1100m", "900m"},
      {"1Gi", "1Gi", "2Gi", "0"},
      {"100m", "0", "100m", "100m"},
      // A zero receiver takes the other operand's format.
      {"0", "1Gi", "1Gi", "-1Gi"},
      {"0", "100m", "100m", "-100m"},
      {"9223372036854775807", "1", "9223372036854775808", "9223372036854775806"},
      {"1e3", "1", "1001", "999"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.a) + " and " + c.b);
    Quantity sum = q(c.a);
    sum.add(q(c.b));
    EXPECT_EQ(sum.to_string(), c.sum);
    Quantity diff = q(c.a);
    diff.sub(q(c.b));
    EXPECT_EQ(diff.to_string(), c.diff);
    EXPECT_EQ((q(c.a) + q(c.b)).to_string(), c.sum);
  }
}

TEST(QuantityTest, Neg) {
  Quantity v = q("1.5");
  v.neg();
  EXPECT_EQ(v.to_string(), "-1500m");
  v.neg();
  EXPECT_EQ(v.to_string(), "1500m");
  Quantity min = Quantity::from_int(std::numeric_limits<std::int64_t>::min(), F::kDecimalSI);
  min.neg();
  EXPECT_EQ(min.to_string(), "9223372036854775808");
}

TEST(QuantityTest, Constructors) {
  struct Case {
    Quantity value;
    const char* want;
  };
  const Case cases[] = {
      {Quantity::from_int(1, F::kDecimalSI), "1"},
      {Quantity::from_int(1000, F::kDecimalSI), "1k"},
      {Quantity::from_int(1234000, F::kDecimalSI), "1234k"},
      {Quantity::from_int(1024, F::kBinarySI), "1Ki"},
      {Quantity::from_int(1024 * 1024, F::kBinarySI), "1Mi"},
      {Quantity::from_int(1000000, F::kDecimalExponent), "1e6"},
      {Quantity::from_int(5, F::kBinarySI), "5"},
      {Quantity::from_int(1025, F::kBinarySI), "1025"},
      {Quantity::from_milli(1, F::kDecimalSI), "1m"},
      {Quantity::from_milli(1000, F::kDecimalSI), "1"},
      {Quantity::from_milli(1024, F::kBinarySI), "1024m"},
      {Quantity::from_milli(1000000, F::kDecimalExponent), "1e3"},
      {Quantity::from_milli(1234567, F::kBinarySI), "1234567m"},
      {Quantity::from_scaled(1, -9), "1n"},
      {Quantity::from_scaled(1000, -9), "1u"},
      {Quantity::from_scaled(1000, -3), "1"},
      {Quantity::from_scaled(0, -3), "0"},
      {Quantity(), "0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.want);
    EXPECT_EQ(c.value.to_string(), c.want);
  }
}

TEST(QuantityTest, JsonDecoding) {
  struct Case {
    const char* json;
    const char* canonical;  // nullptr: error
    const char* error;
  };
  const Case cases[] = {
      {R"("100m")", "100m", ""},
      {R"(" 1")", "1", ""},
      {R"("1 ")", "1", ""},
      {"1", "1", ""},
      {"-1", "-1", ""},
      {"10", "10", ""},
      {"1.5", "1500m", ""},
      {"0.25", "250m", ""},
      {"null", "0", ""},
      {R"("")", nullptr, kFormatWrong},
      {R"("1x")", nullptr, kFormatWrong},
      {"true", nullptr, kFormatWrong},
      {"{}", nullptr, kFormatWrong},
      {"[1]", nullptr, kFormatWrong},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    auto got = Quantity::from_json(json::parse(c.json));
    if (c.canonical != nullptr) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(got->to_string(), c.canonical);
      EXPECT_EQ(json::serialize(got->to_json()), std::string("\"") + c.canonical + "\"");
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
  }
}

TEST(QuantityTest, CopiesAreIndependent) {
  Quantity a = q("123456789012345678901234567890");
  Quantity b = a;
  b.add(q("1"));
  EXPECT_EQ(a.to_string(), "123456789012345678901234567890");
  EXPECT_EQ(b.to_string(), "123456789012345678901234567891");
  a = b;
  EXPECT_EQ(a.cmp(b), 0);
  Quantity c = std::move(b);
  EXPECT_EQ(c.to_string(), "123456789012345678901234567891");
}

}  // namespace
}  // namespace kcm::api
