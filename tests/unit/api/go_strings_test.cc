#include "api/go_strings.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

TEST(GoStringsTest, SplitKeepsEmptyItemsAsGoDoes) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(split("a,b", ','), (V{"a", "b"}));
  EXPECT_EQ(split(",a,,", ','), (V{"", "a", "", ""}));
  EXPECT_EQ(split("", ','), (V{""}));
}

TEST(GoStringsTest, TrimSpaceStripsAsciiSpaceAtBothEnds) {
  EXPECT_EQ(trim_space(" \t a b\r\n"), "a b");
  EXPECT_EQ(trim_space(" \v\f "), "");
  EXPECT_EQ(trim_space("x"), "x");
}

}  // namespace
}  // namespace kcm::api
