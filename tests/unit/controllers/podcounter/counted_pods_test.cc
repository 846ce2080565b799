#include "controllers/podcounter/counted_pods.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcm::controllers::podcounter {
namespace {

cache::ObjectPtr pod(const std::string& name, const std::string& uid) {
  auto p = cache::CachedObject::from_json(boost::json::parse(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"default","name":")" + name +
      R"(","uid":")" + uid + R"("}})"));
  EXPECT_TRUE(p.ok()) << p.error();
  return *p;
}

std::vector<std::string> names(const std::vector<cache::ObjectPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods)
    out.emplace_back(p->name());
  return out;
}

using Names = std::vector<std::string>;

TEST(PodCountedMessage, SingularAndPlural) {
  EXPECT_EQ(pod_counted_message(0), "Pod counted (0 pods in the cluster)");
  EXPECT_EQ(pod_counted_message(1), "Pod counted (1 pod in the cluster)");
  EXPECT_EQ(pod_counted_message(2), "Pod counted (2 pods in the cluster)");
  EXPECT_EQ(pod_counted_message(150000), "Pod counted (150000 pods in the cluster)");
}

TEST(CountedPods, AnnouncesEachUidOnce) {
  CountedPods counted;
  const auto a = pod("a", "uid-a");
  const auto b = pod("b", "uid-b");
  const auto c = pod("c", "uid-c");
  EXPECT_EQ(names(counted.count({})), Names{});
  EXPECT_EQ(names(counted.count({a, b})), (Names{"a", "b"}));
  EXPECT_EQ(names(counted.count({a, b})), Names{});  // a resync of the same pods
  EXPECT_EQ(names(counted.count({b, a, c})), Names{"c"});
  EXPECT_EQ(counted.size(), 3u);
  EXPECT_TRUE(counted.contains("uid-a"));
  EXPECT_FALSE(counted.contains("uid-d"));
}

TEST(CountedPods, ARecreatedPodIsANewPod) {
  CountedPods counted;
  EXPECT_EQ(names(counted.count({pod("web", "uid-1")})), Names{"web"});
  EXPECT_EQ(names(counted.count({})), Names{});
  // Same name, new uid: counted again.
  EXPECT_EQ(names(counted.count({pod("web", "uid-2")})), Names{"web"});
}

TEST(CountedPods, ForgetsUidsOfPodsThatAreGone) {
  CountedPods counted;
  counted.count({pod("a", "uid-a"), pod("b", "uid-b"), pod("c", "uid-c")});
  EXPECT_EQ(counted.size(), 3u);
  counted.count({pod("b", "uid-b")});
  EXPECT_EQ(counted.size(), 1u);
  EXPECT_FALSE(counted.contains("uid-a"));
  EXPECT_TRUE(counted.contains("uid-b"));
  counted.count({});
  EXPECT_EQ(counted.size(), 0u);
}

TEST(CountedPods, RememberedUidsAreNotAnnouncedAgain) {
  CountedPods counted;
  counted.remember("uid-a");
  counted.remember("uid-a");  // twice: one entry
  counted.remember("uid-gone");
  EXPECT_EQ(counted.size(), 2u);
  EXPECT_EQ(names(counted.count({pod("a", "uid-a"), pod("b", "uid-b")})), Names{"b"});
  // The remembered uid of a pod that no longer exists is dropped by the first count.
  EXPECT_FALSE(counted.contains("uid-gone"));
  EXPECT_EQ(counted.size(), 2u);
}

TEST(CountedPodUids, ReadsOnlyPodCountedEventsAboutPods) {
  const auto events = boost::json::parse(R"([
    {"reason":"PodCounted","involvedObject":{"kind":"Pod","name":"a","uid":"uid-a"}},
    {"reason":"PodCounted","involvedObject":{"kind":"Pod","name":"b","uid":"uid-b"}},
    {"reason":"PodsCounted","involvedObject":{"kind":"Pod","name":"c","uid":"uid-c"}},
    {"reason":"PodCounted","involvedObject":{"kind":"Namespace","name":"d","uid":"uid-d"}},
    {"reason":"PodCounted","involvedObject":{"kind":"Pod","name":"e"}},
    {"reason":"PodCounted","involvedObject":{"kind":"Pod","name":"f","uid":""}},
    {"reason":"PodCounted"},
    {"reason":7,"involvedObject":{"kind":"Pod","uid":"uid-g"}},
    "not an event",
    {"reason":"PodCounted","involvedObject":{"kind":"Pod","name":"a","uid":"uid-a"}}
  ])")
                          .as_array();
  const std::vector<boost::json::value> items(events.begin(), events.end());
  EXPECT_EQ(counted_pod_uids(items), (std::vector<std::string>{"uid-a", "uid-b", "uid-a"}));
  EXPECT_TRUE(counted_pod_uids({}).empty());
}

}  // namespace
}  // namespace kcm::controllers::podcounter
