// deployment_sync_scenarios.json: whole syncDeployment passes of upstream's
// deployment_controller_test.go, checked by the API actions they issue.
// As with upstream's fake clientset, writes do not reach the caches.
#include <gtest/gtest.h>

#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/replica_sets.h"
#include "deployment_cases.h"
#include "fake_cluster.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

const json::object& scenario(const std::string& name) {
  static const json::object file = load_upstream_cases("deployment_sync_scenarios.json");
  for (const json::value& c : cases_of(file)) {
    if (str(c.at("name")) == name) return c.as_object();
  }
  ADD_FAILURE() << "no case " << name;
  static const json::object kNone;
  return kNone;
}

// The case's compact Deployment, with the members deployment_from_compact
// does not know (selector, deletionTimestamp).
json::object deployment_of(const json::object& c) {
  json::object d = deployment_from_compact(c);
  if (const json::value* s = c.if_contains("selector")) {
    d["spec"].as_object()["selector"] = json::object{{"matchLabels", *s}};
    if (s->as_object().empty()) d["spec"].as_object()["selector"] = json::object{};
  }
  if (const json::value* t = c.if_contains("deletionTimestamp"); t && !t->is_null()) {
    d["metadata"].as_object()["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  }
  d["metadata"].as_object()["resourceVersion"] = "1";
  return d;
}

struct Harness {
  explicit Harness(bool apply_writes = false) { cluster.apply_writes = apply_writes; }
  SyncResult sync(std::string_view key = "default/foo") { return syncer.sync_deployment(key); }

  FakeCluster cluster;
  record::FakeRecorder recorder;
  FakeRequeuer requeuer;
  DeploymentSyncer syncer{cluster.deployments_lister(),
                          cluster.replica_sets_lister(),
                          cluster.pods_lister(),
                          cluster,
                          recorder,
                          requeuer,
                          SyncerOptions{.now = [] { return at("2026-11-30T12:00:00Z"); }}};
};

std::vector<std::string> expected_actions(const json::object& c) {
  return strings_of(c.at("expected").at("actions"));
}

TEST(SyncScenarios, UpstreamSyncDeploymentCreatesReplicaSet) {
  const json::object& c = scenario("TestSyncDeploymentCreatesReplicaSet");
  Harness h;
  const json::object d = deployment_of(c.at("input").at("deployment").as_object());
  h.cluster.put_deployment(d);
  ASSERT_TRUE(h.sync().ok());
  EXPECT_EQ(h.cluster.actions, expected_actions(c));
  ASSERT_EQ(h.cluster.created_replica_sets.size(), 1u);
  const json::object& rs = h.cluster.created_replica_sets[0];
  EXPECT_EQ(rs.at("spec").at("replicas").as_int64(), 1);
  // The first status write carries the revision annotation; no deadline, so
  // no Progressing condition.
  ASSERT_EQ(h.cluster.status_writes.size(), 2u);
  EXPECT_EQ(annotations_of(h.cluster.status_writes[0]).at("deployment.kubernetes.io/revision"),
            "1");
  EXPECT_EQ(DeploymentStatus::from_json(h.cluster.status_writes[0].if_contains("status"))
                .conditions.size(),
            0u);
  EXPECT_EQ(h.recorder.events(),
            std::vector<std::string>{"Normal ScalingReplicaSet Scaled up replica set " +
                                     meta_string(rs, "name") + " from 0 to 1"});
}

TEST(SyncScenarios, UpstreamSyncDeploymentDontDoAnythingDuringDeletion) {
  const json::object& c = scenario("TestSyncDeploymentDontDoAnythingDuringDeletion");
  Harness h;
  h.cluster.put_deployment(deployment_of(c.at("input").at("deployment").as_object()));
  ASSERT_TRUE(h.sync().ok());
  EXPECT_EQ(h.cluster.actions, expected_actions(c));
  EXPECT_TRUE(h.cluster.created_replica_sets.empty());
  EXPECT_TRUE(h.recorder.events().empty());
}

TEST(SyncScenarios, UpstreamSyncDeploymentDeletionRace) {
  const json::object& c = scenario("TestSyncDeploymentDeletionRace");
  Harness h;
  const json::object& in = c.at("input").as_object();
  h.cluster.put_deployment(deployment_of(in.at("cachedDeployment").as_object()));
  h.cluster.live_deployment = deployment_of(in.at("liveDeployment").as_object());
  for (const json::value& r : in.at("replicaSets").as_array()) {
    json::object rs = replica_set_from_compact(r.as_object());
    rs["metadata"].as_object()["labels"] = r.at("labels");
    h.cluster.put_replica_set(rs);
  }
  const SyncResult r = h.sync();
  EXPECT_EQ(!r.ok(), c.at("expected").at("syncError").as_bool());
  EXPECT_EQ(h.cluster.actions, expected_actions(c));
  ASSERT_FALSE(r.ok());
  // Adoption is refused with the re-check's reason.
  EXPECT_EQ(r.error().message,
            "can't adopt ReplicaSet default/rs1 (uid-rs1): default/foo has just been deleted at "
            "2026-01-01 00:00:00 +0000 UTC");
}

TEST(SyncScenarios, UpstreamDontSyncDeploymentsWithEmptyPodSelector) {
  const json::object& c = scenario("TestDontSyncDeploymentsWithEmptyPodSelector");
  Harness h;
  h.cluster.put_deployment(deployment_of(c.at("input").at("deployment").as_object()));
  ASSERT_TRUE(h.sync().ok());
  EXPECT_EQ(h.cluster.actions, expected_actions(c));
  std::vector<std::string> want;
  for (const json::value& e : c.at("expected").at("eventsDerived").as_array()) {
    std::string s = str(e);
    s.replace(s.find(':'), 1, "");  // "Warning SelectingAll: msg" -> recorder's "type reason msg"
    want.push_back(s);
  }
  EXPECT_EQ(h.recorder.events(), want);
}

// The note of that case: a newer generation gets observedGeneration written.
TEST(SyncScenarios, EmptySelectorObservesTheGeneration) {
  Harness h;
  json::object d = deployment_of(json::object{{"selector", json::object{}}, {"generation", 3}});
  h.cluster.put_deployment(d);
  ASSERT_TRUE(h.sync().ok());
  EXPECT_EQ(h.cluster.actions, std::vector<std::string>{"update deployments/status"});
  ASSERT_EQ(h.cluster.status_writes.size(), 1u);
  EXPECT_EQ(h.cluster.status_writes[0].at("status").at("observedGeneration").as_int64(), 3);
  // A failed write is ignored.
  Harness failing;
  failing.cluster.put_deployment(d);
  failing.cluster.errors["update deployments/status"] = api::internal_error("boom");
  EXPECT_TRUE(failing.sync().ok());
}

TEST(SyncScenarios, UpstreamReentrantRollback) {
  const json::object& c = scenario("TestReentrantRollback");
  Harness h;
  const json::object d = deployment_of(c.at("input").at("deployment").as_object());
  h.cluster.put_deployment(d);
  for (const json::value& r : c.at("input").at("replicaSets").as_array()) {
    json::object rs = replica_set_from_compact(r.as_object());
    json::object& meta = rs["metadata"].as_object();
    meta["annotations"] = json::object{{"deployment.kubernetes.io/revision", r.at("revision")}};
    meta["labels"] = json::object{{"foo", "bar"}};
    meta["ownerReferences"] = json::array{json::object{{"apiVersion", "apps/v1"},
                                                       {"kind", "Deployment"},
                                                       {"name", "foo"},
                                                       {"uid", "uid-deployment"},
                                                       {"controller", true}}};
    json::value t = template_of(d);
    if (str(r.at("template")) != "same as deployment") {
      t.as_object()["spec"].as_object()["terminationGracePeriodSeconds"] = 1;
    }
    rs["spec"].as_object()["template"] = std::move(t);
    h.cluster.put_replica_set(rs);
  }
  ASSERT_TRUE(h.sync().ok());
  EXPECT_EQ(h.cluster.actions, expected_actions(c));
  ASSERT_EQ(h.cluster.updated_deployments.size(), 1u);
  const json::object& updated = h.cluster.updated_deployments[0];
  EXPECT_FALSE(annotations_of(updated).contains("deprecated.deployment.rollback.to"));
  EXPECT_EQ(
      updated.at("spec").at("template").at("spec").at("terminationGracePeriodSeconds").as_int64(),
      1);
  EXPECT_EQ(h.recorder.events(),
            std::vector<std::string>{
                "Normal DeploymentRollback Rolled back deployment \"foo\" to revision 1"});
}

}  // namespace
}  // namespace kcm::controllers::deployment
