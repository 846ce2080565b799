#include "controllers/deployment/recreate.h"

#include <gtest/gtest.h>

#include <deque>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

// TestOldPodsRunning.
TEST(Recreate, UpstreamOldPodsRunning) {
  const json::object file = load_upstream_cases("old_pods_running.json");
  ASSERT_EQ(cases_of(file).size(), 9u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    ReplicaSets rss;
    const ReplicaSetInfo* new_rs = nullptr;
    if (!in.at("newRSUid").is_null()) {
      new_rs = rss.add_compact(json::object{{"name", "new"}, {"uid", in.at("newRSUid")}});
    }
    ReplicaSetList old;
    int i = 0;
    for (const json::value& o : in.at("oldRSs").as_array()) {
      old.push_back(rss.add_compact(
          json::object{{"name", "old-" + std::to_string(i++)},
                       {"uid", o.at("uid")},
                       {"status", json::object{{"replicas", o.at("statusReplicas")}}}}));
    }
    std::deque<json::object> pods;
    PodMap pod_map;
    for (const auto& kv : in.at("podsByRSUid").as_object()) {
      auto& list = pod_map[std::string(kv.key())];
      for (const json::value& p : kv.value().as_array()) {
        pods.push_back(kcm::testing::pod_from_compact(p.as_object()));
        list.push_back(&pods.back());
      }
    }
    EXPECT_EQ(old_pods_running(new_rs, old, pod_map),
              c.at("expected").at("oldPodsRunning").as_bool())
        << name;
  }
}

TEST(Recreate, PodsOfTheNewReplicaSetDoNotCount) {
  ReplicaSets rss;
  const ReplicaSetInfo* new_rs = rss.add_compact(json::object{{"name", "new"}, {"uid", "n"}});
  const json::object pod = kcm::testing::pod_from_compact(json::object{{"phase", "Running"}});
  PodMap pod_map{{"n", {&pod}}};
  EXPECT_FALSE(old_pods_running(new_rs, {}, pod_map));
  pod_map["o"] = {&pod};
  EXPECT_TRUE(old_pods_running(new_rs, {}, pod_map));
}

TEST(Recreate, PodMapForDeployment) {
  ReplicaSets rss;
  const ReplicaSetInfo* a = rss.add_compact(json::object{{"name", "a"}, {"uid", "ua"}});
  const ReplicaSetInfo* b = rss.add_compact(json::object{{"name", "b"}, {"uid", "ub"}});
  const auto pod = [](const char* name, const char* owner, bool controller) {
    json::object p = kcm::testing::pod_from_compact(json::object{{"name", name}});
    if (owner != nullptr) {
      p["metadata"].as_object()["ownerReferences"] = json::array{
          json::object{{"uid", owner}, {"kind", "ReplicaSet"}, {"controller", controller}}};
    }
    return p;
  };
  const json::object p1 = pod("p1", "ua", true);
  const json::object p2 = pod("p2", "ua", false);  // not the controller
  const json::object p3 = pod("p3", "other", true);
  const json::object p4 = pod("p4", nullptr, false);
  const json::object p5 = pod("p5", "ua", true);
  const PodMap map = pod_map_for_deployment({&p1, &p2, &p3, &p4, &p5}, {a, b});
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map.at("ua"), (std::vector<const json::object*>{&p1, &p5}));
  EXPECT_TRUE(map.at("ub").empty());
}

// TestScaleDownOldReplicaSets.
TEST(Recreate, UpstreamScaleDownOldReplicaSets) {
  const json::object file = load_upstream_cases("recreate_scale_down.json");
  ASSERT_EQ(cases_of(file).size(), 1u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    json::object d_compact = in.at("deployment").as_object();
    d_compact["strategy"] = json::object{{"type", "Recreate"}};
    ReplicaSets rss;
    const ReplicaSetList old = rss.add_all(in.if_contains("oldRSs"));
    const ScaleActions actions =
        plan_scale_down_old_replica_sets_for_recreate(old, deployment_view(d_compact));
    EXPECT_EQ(!actions.empty(), c.at("expected").at("scaled").as_bool()) << name;
    for (const auto& kv : c.at("expected").at("sizes").as_object()) {
      const ReplicaSetInfo* rs = rss.named(std::string(kv.key()));
      ASSERT_NE(rs, nullptr);
      std::int32_t size = rs->spec_replicas;
      for (const ScaleAction& a : actions) {
        if (a.rs == rs) size = a.replicas;
      }
      EXPECT_EQ(size, kv.value().as_int64()) << name;
    }
  }
}

TEST(Recreate, ScaleUpNewReplicaSet) {
  const DeploymentView d = deployment_view(
      json::object{{"replicas", 3}, {"strategy", json::object{{"type", "Recreate"}}}});
  ReplicaSets rss;
  const ReplicaSetInfo* rs = rss.add_compact(json::object{{"name", "new"}, {"specReplicas", 0}});
  const ScaleActions actions = plan_scale_up_new_replica_set_for_recreate(*rs, d);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].replicas, 3);
  EXPECT_EQ(actions[0].operation(), "up");
  const ReplicaSetInfo* done = rss.add_compact(json::object{{"name", "done"}, {"specReplicas", 3}});
  EXPECT_TRUE(plan_scale_up_new_replica_set_for_recreate(*done, d).empty());
}

}  // namespace
}  // namespace kcm::controllers::deployment
