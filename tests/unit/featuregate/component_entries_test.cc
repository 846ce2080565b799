#include "featuregate/component_entries.h"

#include <gtest/gtest.h>

namespace kcm::featuregate {
namespace {

std::vector<ComponentEntry> entries_of(const std::vector<std::string>& uses) {
  std::vector<ComponentEntry> entries;
  for (const std::string& use : uses)
    append_component_entries(use, entries);
  return entries;
}

TEST(ComponentEntriesTest, SplitsPrefixesAndTrims) {
  const auto entries = entries_of({" kube : A=true ,,B=false", "wardle:C=true"});
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].component, "kube");
  EXPECT_EQ(entries[0].setting, "A=true");
  EXPECT_EQ(entries[1].component, "");
  EXPECT_EQ(entries[1].setting, "B=false");
  EXPECT_EQ(entries[2].component, "wardle");
  EXPECT_EQ(entries[2].setting, "C=true");
}

TEST(ComponentEntriesTest, KubeSettings) {
  struct Case {
    std::vector<std::string> uses;
    std::string settings;  // empty when `error` is set
    std::string error;
  };
  const std::vector<Case> cases = {
      {{}, "", ""},
      {{"A=true", "B=false"}, "A=true,B=false", ""},
      {{"kube:A=true,kube:B=false"}, "A=true,B=false", ""},
      // The value is left to FeatureGate::set, which reports it.
      {{"kube:A"}, "A", ""},
      {{"wardle:A=true"}, "", "component not registered: wardle"},
      {{"kube:A=true", "B=true"},
       "",
       "set kube feature gates with default empty prefix or kube: prefix consistently, do not "
       "mix use"},
  };
  for (const Case& c : cases) {
    const auto settings = kube_settings(entries_of(c.uses));
    if (c.error.empty()) {
      ASSERT_TRUE(settings) << settings.error();
      EXPECT_EQ(*settings, c.settings);
    } else {
      ASSERT_FALSE(settings);
      EXPECT_EQ(settings.error(), c.error);
    }
  }
}

}  // namespace
}  // namespace kcm::featuregate
