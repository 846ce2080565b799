#include "controllers/deployment/scale.h"

#include <gtest/gtest.h>

#include <set>

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/events.h"
#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

// TestScale: the sizes after DeploymentController.scale() and which RSs got no update.
TEST(Scale, UpstreamScale) {
  const json::object file = load_upstream_cases("scale.json");
  ASSERT_EQ(cases_of(file).size(), 17u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    const ReplicaSetInfo* new_rs = rss.add_compact(in.at("newRS"));
    const ReplicaSetList old_rss = rss.add_all(in.if_contains("oldRSs"));
    const ScaleActions actions = plan_scale(d, new_rs, old_rss);

    std::map<std::string, std::int32_t> sizes;
    std::set<std::string> updated;
    for (const ScaleAction& a : actions) {
      sizes[a.rs->name] = a.replicas;
      updated.insert(a.rs->name);
    }
    for (const auto& kv : c.at("expected").at("sizes").as_object()) {
      const std::string rs_name(kv.key());
      const ReplicaSetInfo* rs = rss.named(rs_name);
      ASSERT_NE(rs, nullptr) << name << ": " << rs_name;
      const std::int32_t got = sizes.contains(rs_name) ? sizes[rs_name] : rs->spec_replicas;
      EXPECT_EQ(got, kv.value().as_int64()) << name << ": " << rs_name;
    }
    if (const json::value* not_updated = c.at("expected").as_object().if_contains("notUpdated")) {
      for (const std::string& rs_name : strings_of(*not_updated)) {
        EXPECT_FALSE(updated.contains(rs_name)) << name << ": " << rs_name << " was updated";
      }
    }
  }
}

TEST(Scale, ActionsCarryDirectionAndEventText) {
  json::object c{{"replicas", 8},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 0}, {"maxUnavailable", 0}}}};
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* created) {
    return rss.add_compact(json::object{
        {"name", n},
        {"specReplicas", spec},
        {"created", created},
        {"annotations", json::object{{"deployment.kubernetes.io/desired-replicas", "13"},
                                     {"deployment.kubernetes.io/max-replicas", "13"}}}});
  };
  const ReplicaSetInfo* v3 = rs("foo-v3", 2, "2016-05-20T02:00:00Z");
  const ReplicaSetList old = {rs("foo-v2", 8, "2016-05-20T01:00:00Z"),
                              rs("foo-v1", 3, "2016-05-20T00:00:00Z")};
  const ScaleActions actions = plan_scale(deployment_view(c), v3, old);
  ASSERT_EQ(actions.size(), 3u);
  // Larger first; all "down".
  EXPECT_EQ(actions[0].rs->name, "foo-v2");
  EXPECT_EQ(actions[1].rs->name, "foo-v1");
  EXPECT_EQ(actions[2].rs->name, "foo-v3");
  for (const ScaleAction& a : actions)
    EXPECT_EQ(a.operation, "down");
  EXPECT_EQ(scaling_replica_set_message(actions[0].operation, actions[0].rs->name,
                                        actions[0].replicas, actions[0].previous),
            "Scaled down replica set foo-v2 from 8 to 5");
  // The update the controller sends refreshes the replica annotations.
  const json::object put =
      scaled_replica_set(*actions[0].rs->object, actions[0].replicas, deployment_view(c));
  EXPECT_EQ(put.at("spec").at("replicas").as_int64(), 5);
  EXPECT_EQ(annotations_of(put).at(std::string(kDesiredReplicasAnnotation)), "8");
  EXPECT_EQ(annotations_of(put).at(std::string(kMaxReplicasAnnotation)), "8");
}

TEST(Scale, SaturatedNewReplicaSetScalesOldToZero) {
  json::object c{{"replicas", 3},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 1}, {"maxUnavailable", 0}}}};
  ReplicaSets rss;
  const ReplicaSetInfo* fresh = rss.add_compact(json::object{
      {"name", "new"},
      {"specReplicas", 3},
      {"annotations", json::object{{"deployment.kubernetes.io/desired-replicas", "3"}}},
      {"status", json::object{{"availableReplicas", 3}}}});
  const ReplicaSetInfo* old = rss.add_compact(json::object{{"name", "old"}, {"specReplicas", 2}});
  const ReplicaSetInfo* empty =
      rss.add_compact(json::object{{"name", "empty"}, {"specReplicas", 0}});
  const ScaleActions actions = plan_scale(deployment_view(c), fresh, {old, empty});
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].rs, old);
  EXPECT_EQ(actions[0].replicas, 0);
  EXPECT_EQ(actions[0].operation, "down");
}

TEST(Scale, IsScalingEvent) {
  json::object c{{"replicas", 5}};
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* desired) {
    json::object r{{"name", n}, {"specReplicas", spec}};
    if (desired != nullptr) {
      r["annotations"] = json::object{{"deployment.kubernetes.io/desired-replicas", desired}};
    }
    return rss.add_compact(r);
  };
  const DeploymentView d = deployment_view(c);
  EXPECT_FALSE(is_scaling_event(d, rs("a", 5, "5"), {rs("b", 0, "3")}));  // inactive RS ignored
  EXPECT_TRUE(is_scaling_event(d, rs("c", 5, "5"), {rs("d", 1, "3")}));
  EXPECT_FALSE(is_scaling_event(d, nullptr, {rs("e", 1, nullptr), rs("f", 2, "-3")}));
  EXPECT_TRUE(is_scaling_event(d, rs("g", 2, "4"), {}));
}

}  // namespace
}  // namespace kcm::controllers::deployment
