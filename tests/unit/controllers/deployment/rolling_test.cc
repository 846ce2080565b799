#include "controllers/deployment/rolling.h"

#include <gtest/gtest.h>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

// An RS of `spec` replicas, `available` of them available.
const ReplicaSetInfo* rs_of(ReplicaSets& rss, const char* name, std::int64_t spec,
                            std::int64_t available, const char* created) {
  return rss.add_compact(json::object{{"name", name},
                                      {"specReplicas", spec},
                                      {"created", created},
                                      {"status", json::object{{"availableReplicas", available}}}});
}

// The size `rs` ends with after the actions (its last action wins).
std::int32_t size_after(const ScaleActions& actions, const ReplicaSetInfo* rs) {
  std::int32_t size = rs->spec_replicas;
  for (const ScaleAction& a : actions) {
    if (a.rs == rs) size = a.replicas;
  }
  return size;
}

// TestDeploymentController_reconcileNewReplicaSet.
TEST(Rolling, UpstreamReconcileNewReplicaSet) {
  const json::object file = load_upstream_cases("reconcile_new_replica_set.json");
  ASSERT_EQ(cases_of(file).size(), 5u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    const ReplicaSetList all = rss.add_all(in.if_contains("allRSs"));
    const ReplicaSetInfo* new_rs = all.front();  // the first entry is the new RS
    ASSERT_EQ(new_rs->name, str(in.at("newRS").at("name"))) << name;
    auto got = plan_reconcile_new_replica_set(d, all, *new_rs);
    ASSERT_TRUE(got.ok()) << name;
    const json::object& want = c.at("expected").as_object();
    ASSERT_EQ(!got->empty(), want.at("scaled").as_bool()) << name;
    if (got->empty()) continue;
    ASSERT_EQ(got->size(), 1u) << name;
    EXPECT_EQ((*got)[0].rs, new_rs) << name;
    EXPECT_EQ((*got)[0].replicas, want.at("newRSReplicas").as_int64()) << name;
    EXPECT_EQ((*got)[0].operation(), (*got)[0].replicas > new_rs->spec_replicas ? "up" : "down");
  }
}

// TestDeploymentController_reconcileOldReplicaSets (rows that fail RS updates
// are the executor's concern: the plan has no API calls to fail).
TEST(Rolling, UpstreamReconcileOldReplicaSets) {
  const json::object file = load_upstream_cases("reconcile_old_replica_sets.json");
  ASSERT_EQ(cases_of(file).size(), 7u);
  int checked = 0;
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    if (in.contains("failReplicaSetUpdates")) continue;
    ++checked;
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    const ReplicaSetList old = rss.add_all(in.if_contains("oldRSs"));
    const ReplicaSetInfo* new_rs = rss.add_compact(in.at("newRS"));
    ReplicaSetList all = old;
    all.push_back(new_rs);
    const OldReplicaSetsPlan got = plan_reconcile_old_replica_sets(all, old, *new_rs, d);
    ASSERT_FALSE(got.error) << name;
    const json::object& want = c.at("expected").as_object();
    EXPECT_EQ(got.scaled(), want.at("scaled").as_bool()) << name;
    EXPECT_EQ(size_after(got.actions, old.front()), want.at("oldRSReplicasAfter").as_int64())
        << name;
    for (const ScaleAction& a : got.actions) {
      EXPECT_EQ(a.operation(), "down") << name;
      EXPECT_TRUE(a.rs == old.front()) << name;  // actions point at the caller's RSs
    }
  }
  EXPECT_EQ(checked, 5);
}

TEST(Rolling, ReconcileOldCleansUpThenScalesDownFromTheCleanedSize) {
  // "old=10(avail 9)": one unhealthy replica removed (10 -> 9), then one
  // healthy one (9 -> 8), as two updates of the same RS.
  json::object c{{"replicas", 10},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 0}, {"maxUnavailable", 2}}}};
  ReplicaSets rss;
  const ReplicaSetInfo* old = rss.add_compact(json::object{
      {"name", "old"}, {"specReplicas", 10}, {"status", json::object{{"availableReplicas", 9}}}});
  const ReplicaSetInfo* fresh = rss.add_compact(json::object{{"name", "new"}, {"specReplicas", 0}});
  const OldReplicaSetsPlan plan =
      plan_reconcile_old_replica_sets({old, fresh}, {old}, *fresh, deployment_view(c));
  ASSERT_FALSE(plan.error);
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(plan.cleaned_up, 1);
  EXPECT_EQ(plan.scaled_down, 1);
  EXPECT_EQ(plan.actions[0].previous, 10);
  EXPECT_EQ(plan.actions[0].replicas, 9);
  EXPECT_EQ(plan.actions[1].previous, 9);
  EXPECT_EQ(plan.actions[1].replicas, 8);
}

TEST(Rolling, WorkedExampleNewPodsNeverReady) {
  // §9 E1: 10 replicas, maxSurge 3, maxUnavailable 2, new pods never ready.
  json::object c{{"replicas", 10},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 3}, {"maxUnavailable", 2}}}};
  const DeploymentView d = deployment_view(c);
  ReplicaSets rss;
  const ReplicaSetInfo* old = rss.add_compact(json::object{
      {"name", "old"}, {"specReplicas", 8}, {"status", json::object{{"availableReplicas", 8}}}});
  const ReplicaSetInfo* fresh = rss.add_compact(json::object{{"name", "new"}, {"specReplicas", 5}});
  auto grow = plan_reconcile_new_replica_set(d, {old, fresh}, *fresh);
  ASSERT_TRUE(grow.ok());
  EXPECT_TRUE(grow->empty());  // 13 pods: at the surge limit
  const OldReplicaSetsPlan shrink = plan_reconcile_old_replica_sets({old, fresh}, {old}, *fresh, d);
  EXPECT_FALSE(shrink.error);
  EXPECT_FALSE(shrink.scaled());  // 13 - 8 - 5 = 0
}

// TestDeploymentController_cleanupUnhealthyReplicas.
TEST(Rolling, UpstreamCleanupUnhealthyReplicas) {
  const json::object file = load_upstream_cases("cleanup_unhealthy_replicas.json");
  ASSERT_EQ(cases_of(file).size(), 4u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    const ReplicaSetList old = rss.add_all(in.if_contains("oldRSs"));
    const OldReplicaSetsPlan got = plan_cleanup_unhealthy_replicas(
        old, d, static_cast<std::int32_t>(in.at("maxCleanupCount").as_int64()));
    ASSERT_FALSE(got.error) << name;
    const json::object& want = c.at("expected").as_object();
    EXPECT_EQ(got.cleaned_up, want.at("cleanedUp").as_int64()) << name;
    EXPECT_EQ(size_after(got.actions, old.front()), want.at("oldRSReplicasAfter").as_int64())
        << name;
  }
}

TEST(Rolling, CleanupUnhealthyOldestFirstAndInvalidRequest) {
  const DeploymentView d = deployment_view(json::object{{"replicas", 10}});
  ReplicaSets rss;
  const ReplicaSetInfo* newer = rs_of(rss, "b", 4, 1, "2024-01-02T00:00:00Z");
  const ReplicaSetInfo* older = rs_of(rss, "a", 3, 1, "2024-01-01T00:00:00Z");
  const OldReplicaSetsPlan got = plan_cleanup_unhealthy_replicas({newer, older}, d, 3);
  ASSERT_FALSE(got.error);
  ASSERT_EQ(got.actions.size(), 2u);
  EXPECT_EQ(got.actions[0].rs, older);
  EXPECT_EQ(got.actions[0].replicas, 1);
  EXPECT_EQ(got.actions[1].rs, newer);
  EXPECT_EQ(got.actions[1].replicas, 3);
  EXPECT_EQ(got.cleaned_up, 3);

  const ReplicaSetInfo* odd = rss.add_compact(json::object{
      {"name", "odd"}, {"specReplicas", 2}, {"status", json::object{{"availableReplicas", 3}}}});
  const OldReplicaSetsPlan bad = plan_cleanup_unhealthy_replicas({odd}, d, 5);
  EXPECT_EQ(bad.error,
            "when cleaning up unhealthy replicas, got invalid request to scale down default/odd "
            "2 -> 3");
  EXPECT_TRUE(bad.actions.empty());
  EXPECT_FALSE(bad.scaled());
}

// Upstream updates each RS as its clean-up goes: an RS with a stale status
// (more available than spec) stops it after the older RSs were scaled down;
// those updates stay, and the reconcile reports "not scaled".
TEST(Rolling, ACleanUpStoppedByAStaleStatusKeepsTheUpdatesBeforeIt) {
  json::object c{{"replicas", 5},
                 {"strategy",
                  json::object{{"type", "RollingUpdate"}, {"maxSurge", 1}, {"maxUnavailable", 2}}}};
  ReplicaSets rss;
  const ReplicaSetInfo* fresh = rs_of(rss, "new", 1, 1, "2024-01-03T00:00:00Z");
  const ReplicaSetInfo* older = rs_of(rss, "a", 3, 1, "2024-01-01T00:00:00Z");
  const ReplicaSetInfo* stale = rs_of(rss, "b", 2, 3, "2024-01-02T00:00:00Z");
  // 6 pods - (5 - 2) - 0 unavailable new ones: up to 3 may go.
  const OldReplicaSetsPlan plan = plan_reconcile_old_replica_sets(
      {older, stale, fresh}, {stale, older}, *fresh, deployment_view(c));
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].rs, older);
  EXPECT_EQ(plan.actions[0].replicas, 1);
  EXPECT_EQ(plan.error,
            "when cleaning up unhealthy replicas, got invalid request to scale down default/b "
            "2 -> 3");
  EXPECT_FALSE(plan.scaled());
}

// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate.
TEST(Rolling, UpstreamScaleDownOldReplicaSetsForRollingUpdate) {
  const json::object file = load_upstream_cases("scale_down_old_rs_rolling.json");
  ASSERT_EQ(cases_of(file).size(), 5u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    const ReplicaSetList old = rss.add_all(in.if_contains("oldRSs"));
    ReplicaSetList all;
    for (const std::string& n : strings_of(in.at("allRSs")))
      all.push_back(rss.named(n));
    const OldReplicaSetsPlan got = plan_scale_down_old_replica_sets_for_rolling_update(all, old, d);
    const json::object& want = c.at("expected").as_object();
    EXPECT_EQ(got.scaled_down, want.at("scaledDownCount").as_int64()) << name;
    if (const json::value* after = want.if_contains("oldRSReplicasAfter")) {
      ASSERT_EQ(got.actions.size(), 1u) << name;
      EXPECT_EQ(got.actions[0].replicas, after->as_int64()) << name;
    } else {
      EXPECT_TRUE(got.actions.empty()) << name;
    }
  }
}

}  // namespace
}  // namespace kcm::controllers::deployment
