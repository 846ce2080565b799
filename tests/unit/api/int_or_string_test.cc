#include "api/int_or_string.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>

#include "api_test_util.h"

namespace kcm::api {
namespace {

IntOrString s(const char* v) {
  return IntOrString::from_string(v);
}
IntOrString i(std::int32_t v) {
  return IntOrString::from_int(v);
}

struct ScaledCase {
  const char* name;
  IntOrString value;
  std::int64_t total;
  bool round_up;
  std::optional<std::int64_t> want;  // nullopt: error
  const char* error;
};

TEST(IntOrStringTest, GetScaledValueFromIntOrPercent) {
  const ScaledCase cases[] = {
      {"int as is", i(5), 10, true, 5, ""},
      {"negative int as is", i(-3), 10, false, -3, ""},
      {"25% of 10 rounds up", s("25%"), 10, true, 3, ""},
      {"25% of 10 rounds down", s("25%"), 10, false, 2, ""},
      {"39% of 10 up", s("39%"), 10, true, 4, ""},
      {"39% of 10 down", s("39%"), 10, false, 3, ""},
      {"0% of 0", s("0%"), 0, true, 0, ""},
      {"100% of 7", s("100%"), 7, false, 7, ""},
      {"-5% of 10 up", s("-5%"), 10, true, 0, ""},
      {"-5% of 10 down", s("-5%"), 10, false, -1, ""},
      {"oops", s("oops"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"plain number string", s("5"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"fraction", s("5.5%"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid value \"5.5%\": strconv.Atoi: parsing \"5.5\": "
       "invalid syntax"},
      {"sign only", s("-%"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid value \"-%\": strconv.Atoi: parsing \"-\": "
       "invalid syntax"},
      {"percent only", s("%"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid value \"%\": strconv.Atoi: parsing \"\": "
       "invalid syntax"},
      {"double percent", s("5%%"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid value \"5%%\": strconv.Atoi: parsing \"5%\": "
       "invalid syntax"},
      {"overflow", s("99999999999999999999%"), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid value \"99999999999999999999%\": strconv.Atoi: "
       "parsing \"99999999999999999999\": value out of range"},
      {"empty string", s(""), 10, true, std::nullopt,
       "invalid value for IntOrString: invalid type: string is not a percentage"},
  };
  for (const ScaledCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = get_scaled_value_from_int_or_percent(c.value, c.total, c.round_up);
    if (c.want.has_value()) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(*got, *c.want);
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
  }
}

TEST(IntOrStringTest, NilPointerIsAnError) {
  auto got = get_scaled_value_from_int_or_percent(nullptr, 10, true);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "nil value for IntOrString");
}

TEST(IntOrStringTest, JsonDecoding) {
  struct Case {
    const char* json;
    std::optional<IntOrString> want;
    const char* error;
  };
  const Case cases[] = {
      {R"("25%")", s("25%"), ""},
      {R"("http")", s("http"), ""},
      {R"("")", s(""), ""},
      {"8080", i(8080), ""},
      {"-3", i(-3), ""},
      {"2147483647", i(2147483647), ""},
      {"null", i(0), ""},
      {"2147483648", std::nullopt,
       "json: cannot unmarshal number 2147483648 into Go value of type int32"},
      {"1.5", std::nullopt, "json: cannot unmarshal number 1.5 into Go value of type int32"},
      {"true", std::nullopt, "json: cannot unmarshal bool into Go value of type int32"},
      {"[]", std::nullopt, "json: cannot unmarshal array into Go value of type int32"},
      {"{}", std::nullopt, "json: cannot unmarshal object into Go value of type int32"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    auto got = IntOrString::from_json(json::parse(c.json));
    if (c.want.has_value()) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(*got, *c.want);
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
  }
}

TEST(IntOrStringTest, JsonEncodingRoundTrips) {
  for (const char* text : {R"("25%")", "3", "-7", R"("http")"}) {
    SCOPED_TRACE(text);
    auto v = IntOrString::from_json(json::parse(text));
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(json::serialize(v->to_json()), text);
  }
}

TEST(IntOrStringTest, ParseAndValues) {
  struct Case {
    const char* text;
    IntOrString want;
    std::int64_t int_value;
    const char* str;
  };
  const Case cases[] = {
      {"8080", i(8080), 8080, "8080"},
      {"-1", i(-1), -1, "-1"},
      {"http", s("http"), 0, "http"},
      {"", s(""), 0, ""},
      {"25%", s("25%"), 0, "25%"},
      // FromInt truncates to int32 the way upstream does.
      {"3000000000", i(-1294967296), -1294967296, "-1294967296"},
      // Atoi's range error makes it a string; IntValue saturates.
      {"99999999999999999999", s("99999999999999999999"), std::numeric_limits<std::int64_t>::max(),
       "99999999999999999999"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const IntOrString v = IntOrString::parse(c.text);
    EXPECT_EQ(v, c.want);
    EXPECT_EQ(v.int_value(), c.int_value);
    EXPECT_EQ(v.to_string(), c.str);
  }
}

TEST(IntOrStringTest, GoAtoi) {
  struct Case {
    const char* text;
    std::int64_t value;
    const char* error;
  };
  const Case cases[] = {
      {"0", 0, ""},
      {"+12", 12, ""},
      {"-12", -12, ""},
      {"9223372036854775807", std::numeric_limits<std::int64_t>::max(), ""},
      {"-9223372036854775808", std::numeric_limits<std::int64_t>::min(), ""},
      {"9223372036854775808", std::numeric_limits<std::int64_t>::max(),
       "strconv.Atoi: parsing \"9223372036854775808\": value out of range"},
      {"-9223372036854775809", std::numeric_limits<std::int64_t>::min(),
       "strconv.Atoi: parsing \"-9223372036854775809\": value out of range"},
      // Overflow is reported before a later bad byte.
      {"999999999999999999999x", std::numeric_limits<std::int64_t>::max(),
       "strconv.Atoi: parsing \"999999999999999999999x\": value out of range"},
      {"", 0, "strconv.Atoi: parsing \"\": invalid syntax"},
      {"+", 0, "strconv.Atoi: parsing \"+\": invalid syntax"},
      {"1_000", 0, "strconv.Atoi: parsing \"1_000\": invalid syntax"},
      {" 1", 0, "strconv.Atoi: parsing \" 1\": invalid syntax"},
      {"0x10", 0, "strconv.Atoi: parsing \"0x10\": invalid syntax"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const GoAtoiResult r = go_atoi(c.text);
    EXPECT_EQ(r.value, c.value);
    EXPECT_EQ(r.error, c.error);
  }
}

constexpr const char* kPercentMsg =
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or "
    "'93%', regex used for validation is '[0-9]+%')";

TEST(IntOrStringTest, ValidatePositiveIntOrPercent) {
  const std::string field = "spec.strategy.rollingUpdate.maxSurge";
  struct Case {
    IntOrString value;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {i(0), {}},
      {i(3), {}},
      {s("25%"), {}},
      {s("0%"), {}},
      {s("250%"), {}},  // range is IsNotMoreThan100Percent's job
      {i(-1), {field + ": Invalid value: -1: must be greater than or equal to 0"}},
      {s("5.5%"), {field + ": Invalid value: \"5.5%\": " + kPercentMsg}},
      {s("5"), {field + ": Invalid value: \"5\": " + kPercentMsg}},
      {s("-5%"), {field + ": Invalid value: \"-5%\": " + kPercentMsg}},
      {s("%"), {field + ": Invalid value: \"%\": " + kPercentMsg}},
      {s(""), {field + ": Invalid value: \"\": " + kPercentMsg}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value.to_string());
    EXPECT_EQ(error_messages(validate_positive_int_or_percent(c.value, field)), c.want);
  }
}

TEST(IntOrStringTest, IsNotMoreThan100Percent) {
  const std::string field = "spec.strategy.rollingUpdate.maxUnavailable";
  struct Case {
    IntOrString value;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {s("100%"), {}},
      {s("0%"), {}},
      {s("5.5%"), {}},  // not a valid percent: not this check's business
      {i(200), {}},
      {s("101%"), {field + ": Invalid value: \"101%\": must not be greater than 100%"}},
      {s("99999999999999999999%"),
       {field + ": Invalid value: \"99999999999999999999%\": must not be greater than 100%"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value.to_string());
    EXPECT_EQ(error_messages(is_not_more_than_100_percent(c.value, field)), c.want);
  }
  const FieldErrors errs = is_not_more_than_100_percent(s("101%"), field);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kInvalid);
  EXPECT_EQ(errs[0].field, field);
}

TEST(IntOrStringTest, IntOrPercentValue) {
  EXPECT_EQ(int_or_percent_value(s("25%")), 25);
  EXPECT_EQ(int_or_percent_value(s("0%")), 0);
  EXPECT_EQ(int_or_percent_value(i(3)), 3);
  EXPECT_EQ(int_or_percent_value(s("abc")), 0);
  EXPECT_EQ(int_or_percent_value(s("7")), 7);  // not a percent: IntValue()
}

}  // namespace
}  // namespace kcm::api
