#include "featuregate/emulation_version.h"

#include <gtest/gtest.h>

namespace kcm::featuregate {
namespace {

TEST(EmulationVersionTest, RangeIsThreeMinorsBackButNotBelow131) {
  EXPECT_EQ(kube_emulation_option(kube_emulation_range(33)), "kube=1.31..1.33 (default=1.33)");
  EXPECT_EQ(kube_emulation_option(kube_emulation_range(31)), "kube=1.31..1.31 (default=1.31)");
  EXPECT_EQ(kube_emulation_option(kube_emulation_range(35)), "kube=1.32..1.35 (default=1.35)");
  EXPECT_EQ(kube_emulation_option(kube_emulation_range(36)), "kube=1.33..1.36 (default=1.36)");
}

TEST(EmulationVersionTest, ReadsTheRegistrysEntries) {
  struct Case {
    std::vector<std::string> entries;
    std::string version;  // or the error
  };
  const std::vector<Case> cases = {
      {{}, "1.33"},
      {{"1.31"}, "1.31"},
      {{"v1.32"}, "1.32"},
      {{" kube = 1.31.0 "}, "1.31"},
      {{"1.31.0-rc.1"}, "1.31"},
      {{"1.34"}, "1.34"},  // out of range, which validation reports
      {{"1.foo"}, "illegal version string \"1.foo\""},
      {{"foo"}, "could not parse \"foo\" as version"},
      {{"kube="}, "could not parse \"\" as version"},
      {{"1.31.2"}, "patch version not allowed, got: kube=1.31.2"},
      {{"1.30", "kube=1.32"}, "duplicate version flag, kube=1.30 and kube=1.32"},
      {{"wardle=1.2"}, "component not registered: wardle"},
      {{"=1.31"}, "component not registered: "},
  };
  for (const Case& c : cases) {
    const auto v = kube_emulation_version(c.entries, kube_emulation_range(33));
    EXPECT_EQ(v ? to_string(*v) : v.error(), c.version) << ::testing::PrintToString(c.entries);
  }
}

TEST(EmulationVersionTest, ValidatesTheRange) {
  const EmulationRange range = kube_emulation_range(33);
  EXPECT_TRUE(validate_emulation_version({1, 33}, range).empty());
  EXPECT_TRUE(validate_emulation_version({1, 31}, range).empty());
  EXPECT_EQ(validate_emulation_version({1, 34}, range),
            (std::vector<std::string>{"emulation version 1.34 is not between [1.31, 1.33.0]"}));
  EXPECT_EQ(validate_emulation_version({1, 30}, range),
            (std::vector<std::string>{
                "emulation version 1.30 is not between [1.31, 1.33.0]",
                "minCompatibilityVersion version 1.31 is not between [1.31, 1.30]"}));
  EXPECT_EQ(validate_emulation_version({2, 0}, range),
            (std::vector<std::string>{"emulation version 2.0 is not between [1.31, 1.33.0]"}));
}

}  // namespace
}  // namespace kcm::featuregate
