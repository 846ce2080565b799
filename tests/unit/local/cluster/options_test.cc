#include "local/cluster/options.h"

#include <gtest/gtest.h>

namespace kcm::local::cluster {
namespace {

TEST(ParseNodeCount, AcceptsWholeNumbersInRange) {
  for (const auto& [text, want] :
       std::vector<std::pair<std::string, int>>{{"0", 0}, {"1", 1}, {"3", 3}, {"200", 200}}) {
    auto n = parse_node_count(text);
    ASSERT_TRUE(n) << text << ": " << n.error();
    EXPECT_EQ(*n, want);
  }
}

TEST(ParseNodeCount, RefusesOthersWithThePreciseMessage) {
  for (const std::string text : {"", "-1", "201", "3.5", "abc", "1e2", "99999", " 3"}) {
    auto n = parse_node_count(text);
    ASSERT_FALSE(n) << text;
    EXPECT_EQ(n.error(), "--nodes: expected a whole number from 0 to 200, got \"" + text + "\"");
  }
}

TEST(ParseDelay, AcceptsGoDurations) {
  using std::chrono::milliseconds;
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::chrono::nanoseconds>>{
           {"0", milliseconds(0)},
           {"500ms", milliseconds(500)},
           {"1s", milliseconds(1000)},
           {"1m30s", milliseconds(90000)},
           {"1.5s", milliseconds(1500)}}) {
    auto d = parse_delay("--pod-ready-delay", text);
    ASSERT_TRUE(d) << text << ": " << d.error();
    EXPECT_EQ(*d, want) << text;
  }
}

TEST(ParseDelay, RefusesBadValuesNamingTheFlag) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"abc", "--pod-ready-delay: time: invalid duration \"abc\""},
      {"1", "--pod-ready-delay: time: missing unit in duration \"1\""},
      {"", "--pod-ready-delay: time: invalid duration \"\""},
      {"-1s", "--pod-ready-delay: must not be negative, got \"-1s\""},
  };
  for (const auto& [text, message] : cases) {
    auto d = parse_delay("--pod-ready-delay", text);
    ASSERT_FALSE(d) << text;
    EXPECT_EQ(d.error(), message);
  }
}

}  // namespace
}  // namespace kcm::local::cluster
