#include "api/strconv.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

TEST(StrconvTest, ParsesGoSyntaxWithGoErrors) {
  EXPECT_EQ(*parse_go_int("0x10", 32), 16);
  EXPECT_EQ(*parse_go_int("0o17", 32), 15);
  EXPECT_EQ(*parse_go_int("017", 32), 15);
  EXPECT_EQ(*parse_go_int("0b101", 32), 5);
  EXPECT_FALSE(parse_go_int("1_000", 32));  // underscores need a base prefix
  EXPECT_EQ(*parse_go_int("0x_1_0", 32), 16);
  EXPECT_EQ(*parse_go_int("-2147483648", 32), -2147483648LL);
  EXPECT_EQ(parse_go_int("2147483648", 32).error(),
            "strconv.ParseInt: parsing \"2147483648\": value out of range");
  EXPECT_EQ(parse_go_int("", 32).error(), "strconv.ParseInt: parsing \"\": invalid syntax");
  EXPECT_EQ(parse_go_int("08", 32).error(), "strconv.ParseInt: parsing \"08\": invalid syntax");
  EXPECT_DOUBLE_EQ(*parse_go_float("1e3", 32), 1000);
  EXPECT_DOUBLE_EQ(*parse_go_float("-.5", 32), -0.5);
  EXPECT_EQ(parse_go_float("1e39", 32).error(),
            "strconv.ParseFloat: parsing \"1e39\": value out of range");
  EXPECT_TRUE(*parse_go_bool("T"));
  EXPECT_FALSE(*parse_go_bool("0"));
}

TEST(StrconvTest, Base10TakesDigitsOnly) {
  EXPECT_EQ(*parse_go_int("017", 10, 32), 17);
  EXPECT_EQ(*parse_go_int("+5", 10, 32), 5);
  EXPECT_EQ(*parse_go_int("-1", 10, 32), -1);
  EXPECT_EQ(parse_go_int("0x10", 10, 32).error(),
            "strconv.ParseInt: parsing \"0x10\": invalid syntax");
  EXPECT_FALSE(parse_go_int("0b1", 10, 32));
  EXPECT_FALSE(parse_go_int("1_0", 10, 32));
  EXPECT_EQ(parse_go_int("5\n", 10, 32).error(),
            "strconv.ParseInt: parsing \"5\\n\": invalid syntax");
  EXPECT_EQ(parse_go_int("2147483648", 10, 32).error(),
            "strconv.ParseInt: parsing \"2147483648\": value out of range");
}

}  // namespace
}  // namespace kcm::api
