#include "controller/active_pods.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "controller_test_util.h"
#include "upstream_cases.h"

namespace kcm::controller {
namespace {

using kcm::testing::cached_pod;
using kcm::testing::cached_pods;
using kcm::testing::cases_of;
using kcm::testing::load_upstream_cases;
using kcm::testing::pod_from_compact;
using kcm::testing::pod_name;
using kcm::testing::str;
using kcm::testing::time_of;

// TestSortingActivePods: the input is shuffled 20 times upstream; every
// shuffle must sort to the expected order.
TEST(ActivePods, UpstreamSortingActivePods) {
  const json::object file = load_upstream_cases("active_pods_sort.json");
  ASSERT_EQ(cases_of(file).size(), 1u);
  for (const json::value& c : cases_of(file)) {
    const json::object& in = c.at("input").as_object();
    std::vector<json::object> pods;
    for (const json::value& p : in.at("pods").as_array()) {
      pods.push_back(pod_from_compact(p.as_object()));
    }
    std::vector<std::string> expected;
    for (const json::value& n : c.at("expected").at("order").as_array()) {
      expected.push_back(str(n));
    }
    const std::vector<CachedPod> cached = cached_pods(pods);
    std::mt19937 rng(42);
    for (int round = 0; round < 20; ++round) {
      std::vector<const CachedPod*> ptrs = pointers_to(cached);
      std::shuffle(ptrs.begin(), ptrs.end(), rng);
      sort_active_pods(ptrs);
      std::vector<std::string> got;
      for (const CachedPod* p : ptrs)
        got.push_back(pod_name(p));
      EXPECT_EQ(got, expected) << str(c.at("name")) << " round " << round;
    }
  }
}

// TestSortingActivePodsWithRanks: Less in both directions for each pair.
TEST(ActivePods, UpstreamSortingActivePodsWithRanks) {
  const json::object file = load_upstream_cases("active_pods_with_ranks.json");
  std::map<std::string, CachedPod> pods;
  for (const auto& kv : file.at("pods").as_object()) {
    pods.emplace(std::string(kv.key()), cached_pod(pod_from_compact(kv.value().as_object())));
  }
  ASSERT_EQ(cases_of(file).size(), 27u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const json::object& gates = in.at("featureGates").as_object();
    RankOptions options;
    options.pod_deletion_cost = gates.at("PodDeletionCost").as_bool();
    options.logarithmic_scale_down = gates.at("LogarithmicScaleDown").as_bool();
    const api::Time now = time_of(in.if_contains("now"));
    const json::object& a = in.at("a").as_object();
    const json::object& b = in.at("b").as_object();
    ASSERT_TRUE(pods.count(str(a.at("pod")))) << name;
    ASSERT_TRUE(pods.count(str(b.at("pod")))) << name;
    const PodOrderKey ka = pod_order_key(pods.at(str(a.at("pod"))));
    const PodOrderKey kb = pod_order_key(pods.at(str(b.at("pod"))));
    const int ra = static_cast<int>(a.at("rank").as_int64());
    const int rb = static_cast<int>(b.at("rank").as_int64());
    const json::object& expected = c.at("expected").as_object();
    EXPECT_EQ(active_pods_with_ranks_less(ka, ra, kb, rb, now, options),
              expected.at("aLessB").as_bool())
        << name;
    EXPECT_EQ(active_pods_with_ranks_less(kb, rb, ka, ra, now, options),
              expected.at("bLessA").as_bool())
        << name;
  }
}

PodOrderKey key(std::string node, int phase, bool ready) {
  PodOrderKey k;
  k.node_name = std::move(node);
  k.phase_ordinal = phase;
  k.ready = ready;
  return k;
}

TEST(ActivePods, LogScaleTieBreaksByUid) {
  const api::Time now = time_at("2024-06-15T12:00:00Z");
  PodOrderKey a = key("n", 2, true);
  PodOrderKey b = key("n", 2, true);
  a.ready_time = time_at("2024-06-15T07:00:00Z");  // 5h: bucket 44
  b.ready_time = time_at("2024-06-15T04:00:00Z");  // 8h: bucket 44
  a.uid = "b-uid";
  b.uid = "a-uid";
  EXPECT_TRUE(active_pods_with_ranks_less(b, 0, a, 0, now));
  EXPECT_FALSE(active_pods_with_ranks_less(a, 0, b, 0, now));
  // Without the log scale the later ready time goes first.
  RankOptions linear;
  linear.logarithmic_scale_down = false;
  EXPECT_TRUE(active_pods_with_ranks_less(a, 0, b, 0, now, linear));
  // A zero `now` also compares directly.
  EXPECT_TRUE(active_pods_with_ranks_less(a, 0, b, 0, api::Time{}));
}

TEST(ActivePods, FutureTimesRankBelowEverything) {
  // now - t <= 0 puts a pod in bucket -1, ahead of any past time.
  const api::Time now = time_at("2024-06-15T12:00:00Z");
  PodOrderKey a = key("n", 2, false);
  PodOrderKey b = key("n", 2, false);
  a.creation_time = time_at("2024-06-15T13:00:00Z");
  b.creation_time = time_at("2024-06-15T11:59:59Z");
  EXPECT_TRUE(active_pods_with_ranks_less(a, 0, b, 0, now));
  EXPECT_FALSE(active_pods_with_ranks_less(b, 0, a, 0, now));
}

TEST(ActivePods, SidecarRestartsBreakTies) {
  PodOrderKey a = key("n", 2, true);
  PodOrderKey b = key("n", 2, true);
  a.restarts = {3, 1};
  b.restarts = {3, 0};
  EXPECT_TRUE(active_pods_less(a, b));
  EXPECT_FALSE(active_pods_less(b, a));
  EXPECT_TRUE(active_pods_with_ranks_less(a, 0, b, 0, api::Time{}));
  b.restarts = {4, 0};
  EXPECT_TRUE(active_pods_less(b, a));  // regular restarts decide first
}

TEST(ActivePods, PhasesOutsideTheMapCountAsPending) {
  const CachedPod succeeded = cached_pod(kcm::testing::pod_from_compact(
      json::parse(R"({"name":"s","nodeName":"n","phase":"Succeeded"})").as_object()));
  EXPECT_EQ(pod_order_key(succeeded).phase_ordinal, 0);
  const CachedPod unknown = cached_pod(kcm::testing::pod_from_compact(
      json::parse(R"({"name":"u","nodeName":"n","phase":"Unknown"})").as_object()));
  EXPECT_EQ(pod_order_key(unknown).phase_ordinal, 1);
}

TEST(ActivePods, InvalidDeletionCostCountsAsZero) {
  const CachedPod pod = cached_pod(kcm::testing::pod_from_compact(
      json::parse(
          R"({"name":"p","annotations":{"controller.kubernetes.io/pod-deletion-cost":"+5"}})")
          .as_object()));
  EXPECT_EQ(pod_order_key(pod).deletion_cost, 0);
}

TEST(ActivePods, SortWithRanksKeepsRanksAligned) {
  const std::vector<CachedPod> pods = cached_pods({
      kcm::testing::pod_from_compact(
          json::parse(R"({"name":"a","nodeName":"n1","phase":"Running","ready":true})")
              .as_object()),
      kcm::testing::pod_from_compact(
          json::parse(R"({"name":"b","nodeName":"n2","phase":"Running","ready":true})")
              .as_object()),
  });
  std::vector<const CachedPod*> ptrs = pointers_to(pods);
  std::vector<int> ranks = {1, 3};
  sort_active_pods_with_ranks(ptrs, ranks, api::Time{});
  EXPECT_EQ(pod_name(ptrs[0]), "b");
  EXPECT_EQ(ranks, (std::vector<int>{3, 1}));
}

}  // namespace
}  // namespace kcm::controller
