#include "api/version.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

struct Case {
  std::string text;
  std::string parsed;  // to_string(), or empty when `error` is set
  std::string error;
};

void check(const std::vector<Case>& cases, Result<Version> (*parse)(std::string_view)) {
  for (const Case& c : cases) {
    const auto v = parse(c.text);
    if (c.error.empty()) {
      ASSERT_TRUE(v) << c.text << ": " << v.error();
      EXPECT_EQ(v->to_string(), c.parsed) << c.text;
    } else {
      ASSERT_FALSE(v) << c.text << " parsed as " << v->to_string();
      EXPECT_EQ(v.error(), c.error) << c.text;
    }
  }
}

TEST(VersionTest, Generic) {
  check(
      {
          {"1.31", "1.31", ""},
          {"v1.31", "1.31", ""},
          {"  v1.31.2.7", "1.31.2.7", ""},
          // What follows the numbers is ignored, as upstream.
          {"1.31abc", "1.31", ""},
          {"1.31.0-rc.1+meta", "1.31.0", ""},
          {"1.02", "1.2", ""},  // only the first field refuses a leading zero
          {"1.", "", "illegal version string \"1.\""},
          {"1.foo", "", "illegal version string \"1.foo\""},
          {"foo", "", "could not parse \"foo\" as version"},
          {"", "", "could not parse \"\" as version"},
          {"v", "", "could not parse \"v\" as version"},
          {"1.31\nx", "", "could not parse \"1.31\\nx\" as version"},
          {"01.31", "", "illegal zero-prefixed version component \"01\" in \"01.31\""},
          {"1.99999999999999999999", "",
           "illegal non-numeric version component \"99999999999999999999\" in "
           "\"1.99999999999999999999\": strconv.ParseUint: parsing \"99999999999999999999\": "
           "value out of range"},
      },
      parse_generic_version);
}

TEST(VersionTest, Semantic) {
  check(
      {
          {"1.31.2", "1.31.2", ""},
          {"v1.33.0-rc.1+build.5 ", "1.33.0-rc.1+build.5", ""},
          {"1.33.0-alpha.0.1-x", "1.33.0-alpha.0.1-x", ""},
          {"1.31", "", "illegal version string \"1.31\""},
          {"1.31.02", "", "illegal zero-prefixed version component \"02\" in \"1.31.02\""},
          {"1.31.0-rc.01", "",
           "illegal zero-prefixed version component \"01\" in \"1.31.0-rc.01\""},
          {"1.31.0abc", "", "could not parse pre-release/metadata (abc) in version \"1.31.0abc\""},
          {"1.31.0-", "", "could not parse pre-release/metadata (-) in version \"1.31.0-\""},
          {"1.31.0-a..b", "",
           "could not parse pre-release/metadata (-a..b) in version \"1.31.0-a..b\""},
      },
      parse_semantic_version);
}

TEST(VersionTest, ParseTriesSemanticThenGeneric) {
  check(
      {
          {"1.31", "1.31", ""},
          {"1.31.2-rc.1", "1.31.2-rc.1", ""},
          {"1.31.0abc", "1.31.0", ""},  // generic keeps the numbers
          {"1.foo", "", "illegal version string \"1.foo\""},
      },
      parse_version);
  const auto v = parse_version("1.31.2");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major(), 1u);
  EXPECT_EQ(v->minor(), 31u);
  EXPECT_EQ(v->patch(), 2u);
  EXPECT_EQ(parse_version("1.31")->patch(), 0u);
}

}  // namespace
}  // namespace kcm::api
