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

// An RS last scaled by a Deployment of `desired` replicas (max `max`).
const ReplicaSetInfo* scaled_rs(ReplicaSets& rss, const char* name, std::int64_t spec,
                                const char* created, const char* desired, const char* max) {
  return rss.add_compact(json::object{
      {"name", name},
      {"specReplicas", spec},
      {"created", created},
      {"annotations", json::object{{"deployment.kubernetes.io/desired-replicas", desired},
                                   {"deployment.kubernetes.io/max-replicas", max}}}});
}

TEST(Scale, ActionsCarryDirectionAndEventText) {
  json::object c{{"replicas", 8},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 0}, {"maxUnavailable", 0}}}};
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* created) {
    return scaled_rs(rss, n, spec, created, "13", "13");
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
    EXPECT_EQ(a.operation(), "down");
  EXPECT_EQ(scaling_replica_set_message(actions[0].operation(), actions[0].rs->name,
                                        actions[0].replicas, actions[0].previous),
            "Scaled down replica set foo-v2 from 8 to 5");
  // The update the controller sends refreshes the replica annotations.
  const json::object put =
      scaled_replica_set(*actions[0].rs->object, actions[0].replicas, deployment_view(c));
  EXPECT_EQ(put.at("spec").at("replicas").as_int64(), 5);
  EXPECT_EQ(annotations_of(put).at(std::string(kDesiredReplicasAnnotation)), "8");
  EXPECT_EQ(annotations_of(put).at(std::string(kMaxReplicasAnnotation)), "8");
}

// The old RSs go to zero, newest first: upstream's FindActiveOrLatest sorts
// them newest first, in place, before this loop.
TEST(Scale, SaturatedNewReplicaSetScalesOldToZeroNewestFirst) {
  json::object c{{"replicas", 3},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 1}, {"maxUnavailable", 0}}}};
  ReplicaSets rss;
  const ReplicaSetInfo* fresh = rss.add_compact(json::object{
      {"name", "new"},
      {"specReplicas", 3},
      {"created", "2016-05-20T03:00:00Z"},
      {"annotations", json::object{{"deployment.kubernetes.io/desired-replicas", "3"}}},
      {"status", json::object{{"availableReplicas", 3}}}});
  const auto old = [&](const char* n, std::int64_t spec, const char* created) {
    return rss.add_compact(json::object{{"name", n}, {"specReplicas", spec}, {"created", created}});
  };
  const ReplicaSetInfo* oldest = old("a", 1, "2016-05-20T00:00:00Z");
  const ReplicaSetInfo* newest = old("c", 2, "2016-05-20T02:00:00Z");
  const ReplicaSetInfo* empty = old("d", 0, "2016-05-20T02:30:00Z");
  const ReplicaSetInfo* middle = old("b", 1, "2016-05-20T01:00:00Z");
  const ScaleActions actions =
      plan_scale(deployment_view(c), fresh, {oldest, newest, empty, middle});
  ASSERT_EQ(actions.size(), 3u);  // the empty one is left alone
  EXPECT_EQ(actions[0].rs, newest);
  EXPECT_EQ(actions[1].rs, middle);
  EXPECT_EQ(actions[2].rs, oldest);
  for (const ScaleAction& a : actions) {
    EXPECT_EQ(a.replicas, 0);
    EXPECT_EQ(a.operation(), "down");
  }
}

// A proportional scale can grow one RS and shrink another: each event says
// which way its own RS went (upstream since "from A to B").
TEST(Scale, EachActionsDirectionIsItsOwn) {
  // 16 -> 10 replicas, 25 % surge: room for 13, the RSs hold 12, so +1
  // overall, spread by the max-replicas of the last scale (20).
  json::object c{
      {"replicas", 10},
      {"strategy",
       json::object{{"type", "RollingUpdate"}, {"maxSurge", "25%"}, {"maxUnavailable", "25%"}}}};
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* created) {
    return scaled_rs(rss, n, spec, created, "16", "20");
  };
  const ReplicaSetInfo* fresh = rs("web-new", 4, "2016-05-20T01:00:00Z");
  const ReplicaSetInfo* old = rs("web-old", 8, "2016-05-20T00:00:00Z");
  const ScaleActions actions = plan_scale(deployment_view(c), fresh, {old});
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[0].rs, old);
  EXPECT_EQ(actions[0].replicas, 10);
  EXPECT_EQ(actions[0].operation(), "up");
  EXPECT_EQ(actions[1].rs, fresh);
  EXPECT_EQ(actions[1].replicas, 3);
  EXPECT_EQ(actions[1].operation(), "down");
  EXPECT_EQ(scaling_replica_set_message(actions[1].operation(), "web-new", 3, 4),
            "Scaled down replica set web-new from 4 to 3");
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
