#include "controllers/replicaset/pods_to_delete.h"

#include <gtest/gtest.h>

#include <map>

#include "../../controller/upstream_cases.h"
#include "controllers/replicaset/manage_replicas.h"

namespace kcm::controllers::replicaset {
namespace {

namespace json = api::json;
using kcm::testing::cached_pod;
using kcm::testing::cases_of;
using kcm::testing::load_upstream_cases;
using kcm::testing::str;

// TestGetPodsToDelete.
TEST(PodsToDelete, UpstreamGetPodsToDelete) {
  const json::object file = load_upstream_cases("get_pods_to_delete.json");
  std::map<std::string, CachedPod> pods;
  for (const auto& kv : file.at("pods").as_object()) {
    pods.emplace(std::string(kv.key()),
                 cached_pod(kcm::testing::pod_from_compact(kv.value().as_object())));
  }
  const auto resolve = [&](const json::array& names) {
    std::vector<const CachedPod*> out;
    for (const json::value& n : names) {
      EXPECT_TRUE(pods.count(str(n))) << str(n);
      out.push_back(&pods.at(str(n)));
    }
    return out;
  };
  ASSERT_EQ(cases_of(file).size(), 10u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const auto filtered = resolve(in.at("pods").as_array());
    const json::value& related_v = in.at("related");
    const auto related = related_v.is_null() ? filtered : resolve(related_v.as_array());
    const auto got = get_pods_to_delete(
        filtered, related, static_cast<std::size_t>(in.at("diff").as_int64()), api::Time::now());
    std::vector<std::string> got_names;
    for (const CachedPod* p : got)
      got_names.push_back(kcm::testing::pod_name(p));
    std::vector<std::string> want;
    for (const json::value& n : c.at("expected").at("podsToDelete").as_array()) {
      want.push_back(str(n));
    }
    EXPECT_EQ(got_names, want) << name;
  }
}

// TestGetPodKeys.
TEST(PodsToDelete, UpstreamGetPodKeys) {
  const json::object file = load_upstream_cases("get_pod_keys.json");
  ASSERT_EQ(cases_of(file).size(), 2u);
  for (const json::value& c : cases_of(file)) {
    std::vector<CachedPod> pods;
    for (const json::value& p : c.at("input").at("pods").as_array()) {
      json::object pod;
      pod["metadata"] = p;
      pods.push_back(cached_pod(pod));
    }
    const std::vector<const CachedPod*> ptrs = controller::pointers_to(pods);
    std::vector<std::string> want;
    for (const json::value& k : c.at("expected").at("keys").as_array())
      want.push_back(str(k));
    EXPECT_EQ(get_pod_keys(ptrs), want) << str(c.at("name"));
  }
}

TEST(PodsToDelete, RanksCountOnlyActiveRelatedPods) {
  const auto a =
      kcm::testing::parse_cached_pod(R"({"spec":{"nodeName":"n1"},"status":{"phase":"Running"}})");
  const auto b =
      kcm::testing::parse_cached_pod(R"({"spec":{"nodeName":"n2"},"status":{"phase":"Running"}})");
  const auto done = kcm::testing::parse_cached_pod(
      R"({"spec":{"nodeName":"n2"},"status":{"phase":"Succeeded"}})");
  const auto deleting = kcm::testing::parse_cached_pod(
      R"({"metadata":{"deletionTimestamp":"2024-06-15T12:00:00Z"},"spec":{"nodeName":"n2"}})");
  const auto unscheduled = kcm::testing::parse_cached_pod(R"({"status":{"phase":"Pending"}})");
  EXPECT_EQ(ranks_by_related_pods_on_same_node(
                {&a, &b, &unscheduled}, {&a, &b, &done, &deleting, &unscheduled, &unscheduled}),
            (std::vector<int>{1, 1, 2}));
}

TEST(PodsToDelete, DeletionCostBeatsRank) {
  const auto cheap = kcm::testing::parse_cached_pod(R"({"metadata":{"name":"cheap","annotations":{
      "controller.kubernetes.io/pod-deletion-cost":"-5"}},
      "spec":{"nodeName":"n1"},"status":{"phase":"Running"}})");
  const auto crowded = kcm::testing::parse_cached_pod(R"({"metadata":{"name":"crowded"},
      "spec":{"nodeName":"n2"},"status":{"phase":"Running"}})");
  const std::vector<const CachedPod*> related = {&cheap, &crowded, &crowded};
  const auto got = get_pods_to_delete({&crowded, &cheap}, related, 1, api::Time{});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], &cheap);
  controller::RankOptions no_cost;
  no_cost.pod_deletion_cost = false;
  EXPECT_EQ(get_pods_to_delete({&cheap, &crowded}, related, 1, api::Time{}, no_cost)[0], &crowded);
}

TEST(ManageReplicas, PlanAndBurst) {
  struct Case {
    std::size_t active;
    std::int32_t replicas;
    int burst;
    int create, remove;
  };
  const Case cases[] = {
      {0, 3, kBurstReplicas, 3, 0},      {3, 3, kBurstReplicas, 0, 0},
      {5, 3, kBurstReplicas, 0, 2},      {0, 1000, kBurstReplicas, 500, 0},
      {1000, 0, kBurstReplicas, 0, 500}, {0, 10, 4, 4, 0},
  };
  for (const Case& c : cases) {
    const ReplicaPlan p = plan_replicas(c.active, c.replicas, c.burst);
    EXPECT_EQ(p.create, c.create) << c.active << " " << c.replicas;
    EXPECT_EQ(p.remove, c.remove) << c.active << " " << c.replicas;
  }
  EXPECT_EQ(kBurstReplicas, 500);
  EXPECT_EQ(skipped_creations(10, 5), 5);
  EXPECT_EQ(skipped_creations(3, 3), 0);
}

}  // namespace
}  // namespace kcm::controllers::replicaset
