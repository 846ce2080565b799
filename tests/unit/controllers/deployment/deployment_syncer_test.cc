// DeploymentSyncer against a fake API server whose writes reach the caches at
// once: rollouts followed sync by sync, with the ReplicaSet controller's part
// (status follows spec) played by the test.
#include "controllers/deployment/deployment_syncer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "controller/hash.h"
#include "controllers/deployment/annotations.h"
#include "controllers/deployment/replica_sets.h"
#include "deployment_cases.h"
#include "fake_cluster.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers
using std::chrono::seconds;

struct Spec {
  std::int32_t replicas = 10;
  std::string image = "nginx:1";
  std::string strategy = "RollingUpdate";
  json::value max_surge = 3;
  json::value max_unavailable = 2;
  std::optional<std::int32_t> progress_deadline = 600;
  std::optional<std::int32_t> revision_history_limit = 10;
  bool paused = false;
};

json::object web(const Spec& s) {
  json::object d;
  d["apiVersion"] = "apps/v1";
  d["kind"] = "Deployment";
  d["metadata"] = json::object{{"name", "web"},          {"namespace", "default"},
                               {"uid", "uid-web"},       {"generation", 1},
                               {"resourceVersion", "1"}, {"labels", json::object{{"app", "web"}}}};
  json::object spec;
  spec["replicas"] = s.replicas;
  spec["selector"] = json::object{{"matchLabels", json::object{{"app", "web"}}}};
  json::object strategy{{"type", s.strategy}};
  if (s.strategy == "RollingUpdate") {
    strategy["rollingUpdate"] =
        json::object{{"maxSurge", s.max_surge}, {"maxUnavailable", s.max_unavailable}};
  }
  spec["strategy"] = std::move(strategy);
  spec["template"] = json::object{
      {"metadata", json::object{{"labels", json::object{{"app", "web"}}}}},
      {"spec", json::object{{"containers",
                             json::array{json::object{{"name", "app"}, {"image", s.image}}}}}}};
  if (s.progress_deadline) spec["progressDeadlineSeconds"] = *s.progress_deadline;
  if (s.revision_history_limit) spec["revisionHistoryLimit"] = *s.revision_history_limit;
  if (s.paused) spec["paused"] = true;
  d["spec"] = std::move(spec);
  return d;
}

std::string image_of(const json::object& obj) {
  return std::string(
      obj.at("spec").at("template").at("spec").at("containers").at(0).at("image").as_string());
}

std::int64_t int_at(const json::value& v, std::initializer_list<std::string_view> path) {
  const json::value* x = api::find_path(v, path);
  return x != nullptr && x->is_number() ? x->to_number<std::int64_t>() : 0;
}

class SyncerTest : public ::testing::Test {
 protected:
  SyncResult sync() { return syncer_.sync_deployment("default/web"); }
  void sync_ok() {
    const SyncResult r = sync();
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  // A user's change to the Deployment's spec (a new generation).
  void edit(const std::function<void(json::object& spec)>& change) {
    json::object d = cluster_.deployment("default/web").value();
    change(d["spec"].as_object());
    json::object& meta = d["metadata"].as_object();
    meta["generation"] = meta.at("generation").to_number<std::int64_t>() + 1;
    meta["resourceVersion"] = "u" + std::to_string(++edits_);
    cluster_.put_deployment(d);
  }
  void set_image(const std::string& image) {
    edit([&](json::object& spec) {
      spec["template"]
          .as_object()["spec"]
          .as_object()["containers"]
          .as_array()[0]
          .as_object()["image"] = image;
    });
  }

  json::object deployment() { return cluster_.deployment("default/web").value(); }
  DeploymentStatus status() {
    return DeploymentStatus::from_json(deployment().if_contains("status"));
  }
  const DeploymentCondition* progressing(const DeploymentStatus& s) {
    return get_deployment_condition(s, kProgressing);
  }

  // The RS running `image` (nullopt when there is none).
  std::optional<json::object> rs_for(const std::string& image) {
    for (const json::object& rs : cluster_.replica_sets()) {
      if (image_of(rs) == image) return rs;
    }
    return std::nullopt;
  }
  std::string rs_key(const std::string& image) {
    auto rs = rs_for(image);
    EXPECT_TRUE(rs.has_value()) << image;
    return rs ? "default/" + meta_string(*rs, "name") : "";
  }
  std::int64_t spec_replicas(const std::string& image) {
    auto rs = rs_for(image);
    return rs ? int_at(*rs, {"spec", "replicas"}) : -1;
  }
  // The RS controller and the kubelets: every RS's pods as its spec says,
  // all available unless listed in `unavailable` (by image).
  void settle(const std::map<std::string, std::int32_t>& available = {}) {
    for (const json::object& rs : cluster_.replica_sets()) {
      const auto it = available.find(image_of(rs));
      cluster_.settle_replica_set(
          "default/" + meta_string(rs, "name"),
          it != available.end() ? std::optional<std::int32_t>(it->second) : std::nullopt);
    }
  }
  // Settles and syncs until a sync changes nothing (at most `limit` rounds).
  void converge(int limit = 30) {
    for (int i = 0; i < limit; ++i) {
      settle();
      const std::size_t before = cluster_.actions.size();
      sync_ok();
      if (cluster_.actions.size() == before) return;
    }
    ADD_FAILURE() << "no convergence";
  }
  std::vector<std::string> events_since(std::size_t n) {
    const std::vector<std::string> all = recorder_.events();
    return {all.begin() + static_cast<std::ptrdiff_t>(std::min(n, all.size())), all.end()};
  }

  FakeCluster cluster_;
  record::FakeRecorder recorder_;
  FakeRequeuer requeuer_;
  api::Time clock_ = at("2026-11-30T12:00:00Z");
  DeploymentSyncer syncer_{cluster_.deployments_lister(),
                           cluster_.replica_sets_lister(),
                           cluster_.pods_lister(),
                           cluster_,
                           recorder_,
                           requeuer_,
                           SyncerOptions{.now = [this] { return clock_; }}};
  int edits_ = 0;
};

TEST_F(SyncerTest, CreatesTheFirstReplicaSet) {
  const json::object d = web({});
  cluster_.put_deployment(d);
  sync_ok();
  // One create and two status writes, and no conflict between them.
  EXPECT_EQ(cluster_.actions,
            (std::vector<std::string>{"create replicasets", "update deployments/status",
                                      "update deployments/status"}));
  ASSERT_EQ(cluster_.replica_sets().size(), 1u);
  const json::object rs = cluster_.replica_sets()[0];
  const std::string hash = controller::compute_hash(template_of(d), std::nullopt);
  EXPECT_EQ(meta_string(rs, "name"), "web-" + hash);
  EXPECT_EQ(rs.at("metadata").at("labels"),
            (json::object{{"app", "web"}, {"pod-template-hash", hash}}));
  EXPECT_EQ(
      rs.at("spec").at("selector"),
      (json::object{{"matchLabels", json::object{{"app", "web"}, {"pod-template-hash", hash}}}}));
  EXPECT_EQ(rs.at("spec").at("template").at("metadata").at("labels"),
            (json::object{{"app", "web"}, {"pod-template-hash", hash}}));
  EXPECT_EQ(rs.at("metadata").at("ownerReferences"),
            (json::array{json::object{{"apiVersion", "apps/v1"},
                                      {"kind", "Deployment"},
                                      {"name", "web"},
                                      {"uid", "uid-web"},
                                      {"controller", true},
                                      {"blockOwnerDeletion", true}}}));
  // No old RS: the whole size at once.
  EXPECT_EQ(int_at(rs, {"spec", "replicas"}), 10);
  EXPECT_EQ(annotations_of(rs), (Annotations{{"deployment.kubernetes.io/desired-replicas", "10"},
                                             {"deployment.kubernetes.io/max-replicas", "13"},
                                             {"deployment.kubernetes.io/revision", "1"}}));
  EXPECT_EQ(annotations_of(deployment()).at("deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(recorder_.events(), std::vector<std::string>{"Normal ScalingReplicaSet Scaled up "
                                                         "replica set web-" +
                                                         hash + " from 0 to 10"});
  // The event is about the Deployment.
  ASSERT_EQ(recorder_.objects().size(), 1u);
  EXPECT_EQ(recorder_.objects()[0].kind, "Deployment");
  EXPECT_EQ(recorder_.objects()[0].name, "web");
  EXPECT_EQ(recorder_.objects()[0].api_version, "apps/v1");

  DeploymentStatus s = status();
  EXPECT_EQ(s.observed_generation, 1);
  EXPECT_EQ(s.unavailable_replicas, 10);
  ASSERT_NE(progressing(s), nullptr);
  EXPECT_EQ(progressing(s)->reason, "NewReplicaSetCreated");
  EXPECT_EQ(progressing(s)->status, "True");
  EXPECT_EQ(progressing(s)->message, "Created new replica set \"web-" + hash + "\"");
  const DeploymentCondition* available = get_deployment_condition(s, kAvailable);
  ASSERT_NE(available, nullptr);
  EXPECT_EQ(available->reason, "MinimumReplicasUnavailable");

  // The pods come up: the rollout is complete.
  settle();
  sync_ok();
  s = status();
  EXPECT_EQ(s.replicas, 10);
  EXPECT_EQ(s.updated_replicas, 10);
  EXPECT_EQ(s.available_replicas, 10);
  EXPECT_EQ(progressing(s)->reason, "NewReplicaSetAvailable");
  EXPECT_EQ(progressing(s)->message,
            "ReplicaSet \"web-" + hash + "\" has successfully progressed.");
  EXPECT_EQ(get_deployment_condition(s, kAvailable)->reason, "MinimumReplicasAvailable");

  // Nothing left to do: no writes, no requeue.
  const std::size_t before = cluster_.actions.size();
  sync_ok();
  EXPECT_EQ(cluster_.actions.size(), before);
  EXPECT_TRUE(requeuer_.calls.empty());
}

// spec §2.7's worked example: 10 replicas, maxSurge 3, maxUnavailable 2, new
// pods that never become available.
TEST_F(SyncerTest, RollingUpdateWithinSurgeAndUnavailability) {
  cluster_.put_deployment(web({}));
  converge();
  const std::string old_rs = rs_key("nginx:1");
  const std::size_t events = recorder_.events().size();

  set_image("nginx:2");
  sync_ok();
  const std::string new_rs = rs_key("nginx:2");
  const std::string new_name = new_rs.substr(8);
  const std::string old_name = old_rs.substr(8);
  EXPECT_EQ(spec_replicas("nginx:2"), 3);  // min(13 - 10, 10)
  EXPECT_EQ(spec_replicas("nginx:1"), 8);  // 10 available - (10 - 2)
  EXPECT_EQ(events_since(events),
            (std::vector<std::string>{
                "Normal ScalingReplicaSet Scaled up replica set " + new_name + " from 0 to 3",
                "Normal ScalingReplicaSet Scaled down replica set " + old_name + " from 10 to 8"}));
  EXPECT_EQ(annotations_of(*rs_for("nginx:2")).at("deployment.kubernetes.io/revision"), "2");
  EXPECT_EQ(annotations_of(deployment()).at("deployment.kubernetes.io/revision"), "2");
  EXPECT_EQ(progressing(status())->reason, "NewReplicaSetCreated");

  settle({{"nginx:2", 0}});
  sync_ok();
  EXPECT_EQ(spec_replicas("nginx:2"), 5);
  EXPECT_EQ(spec_replicas("nginx:1"), 8);
  EXPECT_EQ(events_since(events).back(),
            "Normal ScalingReplicaSet Scaled up replica set " + new_name + " from 3 to 5");
  EXPECT_EQ(progressing(status())->reason, "ReplicaSetUpdated");
  EXPECT_EQ(progressing(status())->message, "ReplicaSet \"" + new_name + "\" is progressing.");

  // Stuck at 13 - 8 - 5 = 0: nothing more is scaled.
  settle({{"nginx:2", 0}});
  sync_ok();
  settle({{"nginx:2", 0}});
  sync_ok();
  EXPECT_EQ(spec_replicas("nginx:2"), 5);
  EXPECT_EQ(spec_replicas("nginx:1"), 8);

  // Once they are available the rollout completes; the old RS stays, empty.
  converge();
  EXPECT_EQ(spec_replicas("nginx:2"), 10);
  EXPECT_EQ(spec_replicas("nginx:1"), 0);
  const DeploymentStatus s = status();
  EXPECT_EQ(s.updated_replicas, 10);
  EXPECT_EQ(s.replicas, 10);
  EXPECT_EQ(progressing(s)->reason, "NewReplicaSetAvailable");
  EXPECT_EQ(cluster_.replica_sets().size(), 2u);
  // Every write of the rollout went through: no conflicts.
  EXPECT_TRUE(std::none_of(requeuer_.calls.begin(), requeuer_.calls.end(),
                           [](const std::string& c) { return c.starts_with("rate-limited"); }));
}

TEST_F(SyncerTest, RecreateWaitsForTheOldPods) {
  Spec spec;
  spec.replicas = 3;
  spec.strategy = "Recreate";
  cluster_.put_deployment(web(spec));
  converge();
  const json::object old_rs = *rs_for("nginx:1");
  for (int i = 0; i < 3; ++i) {
    cluster_.put_pod(json::object{
        {"metadata",
         json::object{{"name", "old-" + std::to_string(i)},
                      {"namespace", "default"},
                      {"uid", "pod-" + std::to_string(i)},
                      {"labels", old_rs.at("spec").at("template").at("metadata").at("labels")},
                      {"ownerReferences",
                       json::array{json::object{{"apiVersion", "apps/v1"},
                                                {"kind", "ReplicaSet"},
                                                {"name", old_rs.at("metadata").at("name")},
                                                {"uid", old_rs.at("metadata").at("uid")},
                                                {"controller", true}}}}}},
        {"status", json::object{{"phase", "Running"}}}});
  }
  const std::size_t events = recorder_.events().size();
  set_image("nginx:2");
  sync_ok();
  // Old RS down first; no new RS yet.
  EXPECT_EQ(spec_replicas("nginx:1"), 0);
  EXPECT_FALSE(rs_for("nginx:2").has_value());
  EXPECT_EQ(events_since(events),
            std::vector<std::string>{"Normal ScalingReplicaSet Scaled down replica set " +
                                     meta_string(old_rs, "name") + " from 3 to 0"});

  // The RS reports no pods, but pods still run: wait.
  settle();
  sync_ok();
  EXPECT_FALSE(rs_for("nginx:2").has_value());

  // Terminal pods do not count; pods being gone neither.
  cluster_.remove_pod("default/old-0");
  cluster_.remove_pod("default/old-1");
  json::object last = cluster_.pods_lister().get("default/old-2").value()->object().as_object();
  last["status"].as_object()["phase"] = "Succeeded";
  cluster_.put_pod(last);
  sync_ok();
  ASSERT_TRUE(rs_for("nginx:2").has_value());
  EXPECT_EQ(spec_replicas("nginx:2"), 3);  // all at once
  EXPECT_EQ(events_since(events).back(), "Normal ScalingReplicaSet Scaled up replica set " +
                                             meta_string(*rs_for("nginx:2"), "name") +
                                             " from 0 to 3");
  converge();
  EXPECT_EQ(progressing(status())->reason, "NewReplicaSetAvailable");
}

TEST_F(SyncerTest, PausedDeploymentsScaleButDoNotRollOut) {
  cluster_.put_deployment(web({}));
  converge();
  edit([](json::object& spec) { spec["paused"] = true; });
  sync_ok();
  DeploymentStatus s = status();
  EXPECT_EQ(progressing(s)->reason, "DeploymentPaused");
  EXPECT_EQ(progressing(s)->status, "Unknown");
  EXPECT_EQ(progressing(s)->message, "Deployment is paused");

  // A new template is ignored while paused.
  set_image("nginx:2");
  converge();
  EXPECT_FALSE(rs_for("nginx:2").has_value());
  // A paused Deployment never times out.
  clock_ = api::Time(clock_.time_point() + seconds(3600));
  sync_ok();
  EXPECT_EQ(progressing(status())->reason, "DeploymentPaused");

  // Scaling still applies.
  const std::size_t events = recorder_.events().size();
  edit([](json::object& spec) { spec["replicas"] = 12; });
  sync_ok();
  EXPECT_EQ(spec_replicas("nginx:1"), 12);
  EXPECT_EQ(events_since(events),
            std::vector<std::string>{"Normal ScalingReplicaSet Scaled up replica set " +
                                     rs_key("nginx:1").substr(8) + " from 10 to 12"});
  EXPECT_EQ(annotations_of(*rs_for("nginx:1")).at("deployment.kubernetes.io/desired-replicas"),
            "12");

  // Resumed: the condition says so and the rollout starts.
  edit([](json::object& spec) { spec.erase("paused"); });
  sync_ok();
  ASSERT_TRUE(rs_for("nginx:2").has_value());
  converge();
  EXPECT_EQ(spec_replicas("nginx:2"), 12);
  EXPECT_EQ(progressing(status())->reason, "NewReplicaSetAvailable");
}

TEST_F(SyncerTest, ResumeRecordsTheCondition) {
  Spec spec;
  spec.paused = true;
  cluster_.put_deployment(web(spec));
  sync_ok();
  EXPECT_TRUE(cluster_.replica_sets().empty());
  EXPECT_EQ(progressing(status())->reason, "DeploymentPaused");
  edit([](json::object& spec) { spec.erase("paused"); });
  cluster_.errors["create replicasets"] = api::internal_error("later");
  EXPECT_FALSE(sync().ok());
  const DeploymentStatus s = status();
  // Resumed was written first, then the failed creation replaced it.
  EXPECT_EQ(progressing(s)->reason, "ReplicaSetCreateError");
  ASSERT_GE(cluster_.status_writes.size(), 2u);
  const DeploymentStatus resumed = DeploymentStatus::from_json(
      cluster_.status_writes[cluster_.status_writes.size() - 2].if_contains("status"));
  EXPECT_EQ(progressing(resumed)->reason, "DeploymentResumed");
  EXPECT_EQ(progressing(resumed)->message, "Deployment is resumed");
}

TEST_F(SyncerTest, ProportionalScalingDuringARollout) {
  cluster_.put_deployment(web({}));
  converge();
  set_image("nginx:2");
  sync_ok();
  settle({{"nginx:2", 0}});
  // 8 old + 3 new; scaling 10 -> 20 spreads 20 + 3 - 11 = 12 by size.
  const std::size_t events = recorder_.events().size();
  edit([](json::object& spec) { spec["replicas"] = 20; });
  sync_ok();
  // old: round(8 * 23 / 13) = 14, new: round(3 * 23 / 13) = 5; the leftover
  // 12 - 8 goes to the largest.
  EXPECT_EQ(spec_replicas("nginx:1"), 18);
  EXPECT_EQ(spec_replicas("nginx:2"), 5);
  EXPECT_EQ(events_since(events).size(), 2u);
  for (const json::object& rs : cluster_.replica_sets()) {
    EXPECT_EQ(annotations_of(rs).at("deployment.kubernetes.io/desired-replicas"), "20");
    EXPECT_EQ(annotations_of(rs).at("deployment.kubernetes.io/max-replicas"), "23");
  }
}

TEST_F(SyncerTest, RevertingTheTemplateReusesTheOldReplicaSet) {
  cluster_.put_deployment(web({}));
  converge();
  const std::string first = rs_key("nginx:1");
  set_image("nginx:2");
  converge();
  EXPECT_EQ(annotations_of(deployment()).at("deployment.kubernetes.io/revision"), "2");
  const std::size_t created = cluster_.created_replica_sets.size();

  // `kubectl rollout undo` writes the old template back.
  set_image("nginx:1");
  sync_ok();
  EXPECT_EQ(cluster_.created_replica_sets.size(), created);
  EXPECT_EQ(rs_key("nginx:1"), first);
  const Annotations a = annotations_of(*rs_for("nginx:1"));
  EXPECT_EQ(a.at("deployment.kubernetes.io/revision"), "3");
  EXPECT_EQ(a.at("deployment.kubernetes.io/revision-history"), "1");
  // The same sync moved the Deployment's revision and started scaling.
  EXPECT_EQ(annotations_of(deployment()).at("deployment.kubernetes.io/revision"), "3");
  EXPECT_GT(spec_replicas("nginx:1"), 0);
  converge();
  EXPECT_EQ(spec_replicas("nginx:1"), 10);
  EXPECT_EQ(spec_replicas("nginx:2"), 0);
  EXPECT_EQ(progressing(status())->reason, "NewReplicaSetAvailable");
}

// A new RS whose revision is not a number: SetNewReplicaSetAnnotations gives
// up after copying the Deployment's annotations into upstream's copy, and
// the sync goes on with that copy: the scale update carries them.
TEST_F(SyncerTest, ANonNumericRevisionStillCarriesTheCopiedAnnotations) {
  cluster_.put_deployment(web({.replicas = 2}));
  converge();
  json::object rs = *rs_for("nginx:1");
  rs["metadata"].as_object()["annotations"].as_object()["deployment.kubernetes.io/revision"] = "x";
  cluster_.put_replica_set(rs);
  json::object d = deployment();
  d["metadata"].as_object()["annotations"].as_object()["kubernetes.io/change-cause"] = "scaled";
  d["spec"].as_object()["replicas"] = 4;
  cluster_.put_deployment(d);

  const std::size_t updates = cluster_.updated_replica_sets.size();
  sync_ok();
  ASSERT_EQ(cluster_.updated_replica_sets.size(), updates + 1);
  const json::object& put = cluster_.updated_replica_sets.back();
  EXPECT_EQ(int_at(put, {"spec", "replicas"}), 4);
  const Annotations a = annotations_of(put);
  EXPECT_EQ(a.at("kubernetes.io/change-cause"), "scaled");
  EXPECT_EQ(a.at("deployment.kubernetes.io/revision"), "x");
}

TEST_F(SyncerTest, DeprecatedRollbackAnnotation) {
  cluster_.put_deployment(web({}));
  converge();
  set_image("nginx:2");
  converge();
  std::size_t events = recorder_.events().size();
  const auto annotate = [&](const std::string& to) {
    json::object d = deployment();
    api::ensure_object(d["metadata"].as_object(),
                       "annotations")["deprecated.deployment.rollback.to"] = to;
    cluster_.put_deployment(d);
  };

  annotate("7");
  sync_ok();
  EXPECT_EQ(events_since(events),
            std::vector<std::string>{
                "Warning DeploymentRollbackRevisionNotFound Unable to find the revision to "
                "rollback to."});
  EXPECT_FALSE(annotations_of(deployment()).contains("deprecated.deployment.rollback.to"));

  events = recorder_.events().size();
  annotate("2");
  sync_ok();
  EXPECT_EQ(events_since(events),
            std::vector<std::string>{"Warning DeploymentRollbackTemplateUnchanged The rollback "
                                     "revision contains the same template as current deployment "
                                     "\"web\""});

  events = recorder_.events().size();
  annotate("0");
  sync_ok();
  EXPECT_EQ(events_since(events),
            std::vector<std::string>{
                "Normal DeploymentRollback Rolled back deployment \"web\" to revision 1"});
  EXPECT_EQ(image_of(deployment()), "nginx:1");
  EXPECT_FALSE(annotations_of(deployment()).contains("deprecated.deployment.rollback.to"));
  converge();
  EXPECT_EQ(annotations_of(deployment()).at("deployment.kubernetes.io/revision"), "3");
  EXPECT_EQ(spec_replicas("nginx:1"), 10);
}

TEST_F(SyncerTest, RevisionHistoryLimitCleansUpOldReplicaSets) {
  Spec spec;
  spec.revision_history_limit = 1;
  cluster_.put_deployment(web(spec));
  converge();
  const std::string first = rs_key("nginx:1");
  set_image("nginx:2");
  converge();
  set_image("nginx:3");
  converge();
  // Two old RSs, limit 1: the oldest revision goes (one sync after completion).
  const auto names = [&] {
    std::vector<std::string> out;
    for (const json::object& rs : cluster_.replica_sets())
      out.push_back(image_of(rs));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(names(), (std::vector<std::string>{"nginx:2", "nginx:3"}));
  EXPECT_EQ(cluster_.deleted_replica_sets, std::vector<std::string>{first.substr(8)});
}

TEST_F(SyncerTest, ProgressDeadlineExceededAndItsRequeue) {
  Spec spec;
  spec.progress_deadline = 30;
  cluster_.put_deployment(web(spec));
  converge();
  set_image("nginx:2");
  sync_ok();
  settle({{"nginx:2", 0}});
  sync_ok();  // new RS to 5
  settle({{"nginx:2", 0}});
  sync_ok();  // ReplicaSetUpdated (progress: fewer old replicas)
  settle({{"nginx:2", 0}});
  requeuer_.calls.clear();
  clock_ = api::Time(clock_.time_point() + seconds(10));
  sync_ok();
  // Nothing changed: look again once the deadline has passed (+1s).
  EXPECT_EQ(requeuer_.calls, std::vector<std::string>{"after default/web 21s"});
  EXPECT_NE(progressing(status())->reason, "ProgressDeadlineExceeded");

  clock_ = api::Time(clock_.time_point() + seconds(21));
  sync_ok();
  const DeploymentStatus s = status();
  EXPECT_EQ(progressing(s)->reason, "ProgressDeadlineExceeded");
  EXPECT_EQ(progressing(s)->status, "False");
  EXPECT_EQ(progressing(s)->message,
            "ReplicaSet \"" + rs_key("nginx:2").substr(8) + "\" has timed out progressing.");
  // Timed out is not requeued again; pausing does not overwrite it.
  requeuer_.calls.clear();
  sync_ok();
  EXPECT_TRUE(requeuer_.calls.empty());
  edit([](json::object& spec) { spec["paused"] = true; });
  sync_ok();
  EXPECT_EQ(progressing(status())->reason, "ProgressDeadlineExceeded");
  // Progress afterwards flips it back.
  edit([](json::object& spec) { spec.erase("paused"); });
  converge();
  EXPECT_EQ(progressing(status())->reason, "NewReplicaSetAvailable");
}

TEST_F(SyncerTest, HashCollisionBumpsCollisionCount) {
  const json::object d = web({});
  cluster_.put_deployment(d);
  // Someone else's RS already has the name the template hashes to.
  const std::string hash = controller::compute_hash(template_of(d), std::nullopt);
  json::object other = web({.image = "other"});
  json::object squatter{
      {"apiVersion", "apps/v1"},
      {"kind", "ReplicaSet"},
      {"metadata", json::object{{"name", "web-" + hash},
                                {"namespace", "default"},
                                {"uid", "uid-squatter"},
                                {"labels", json::object{{"app", "other"}}}}},
      {"spec", json::object{{"replicas", 1}, {"template", other.at("spec").at("template")}}}};
  cluster_.put_replica_set(squatter);
  const SyncResult r = sync();
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().is(api::reason::kAlreadyExists));
  EXPECT_EQ(status().collision_count, 1);

  // The next sync hashes with the count: another name.
  sync_ok();
  const std::string next = controller::compute_hash(template_of(d), 1);
  EXPECT_NE(next, hash);
  EXPECT_TRUE(cluster_.replica_set("default/web-" + next).has_value());
  EXPECT_EQ(status().collision_count, 1);
}

TEST_F(SyncerTest, AnExistingOwnReplicaSetIsNoCollision) {
  const json::object d = web({});
  cluster_.put_deployment(d);
  sync_ok();
  const json::object rs = cluster_.replica_sets()[0];
  // The cache has the RS but not in the Deployment's claim (a stale list):
  // creating again answers AlreadyExists and the RS is taken as created.
  cluster_.actions.clear();
  json::object orphaned = d;
  orphaned["status"] = json::object{};
  cluster_.put_deployment(orphaned);
  cluster_.apply_writes = false;
  cluster_.errors["create replicasets"] =
      api::already_exists({"apps", "replicasets"}, meta_string(rs, "name"));
  // Hide it from the claim by changing its labels in the cache only.
  json::object hidden = rs;
  hidden["metadata"].as_object()["labels"] = json::object{{"app", "elsewhere"}};
  cluster_.put_replica_set(hidden);
  const SyncResult r = sync();
  // Hidden RS: released first (it is ours but no longer matches)...
  EXPECT_EQ(cluster_.actions.front(), "patch replicasets");
  EXPECT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(status().collision_count, std::nullopt);
}

TEST_F(SyncerTest, CreateErrorsAreReported) {
  cluster_.put_deployment(web({}));
  cluster_.errors["create replicasets"] = api::internal_error("boom");
  const SyncResult r = sync();
  ASSERT_FALSE(r.ok());
  const std::string name = "web-" + controller::compute_hash(template_of(web({})), std::nullopt);
  const std::string message =
      "Failed to create new replica set \"" + name + "\": Internal error occurred: boom";
  EXPECT_EQ(recorder_.events(),
            std::vector<std::string>{"Warning ReplicaSetCreateError " + message});
  const DeploymentStatus s = status();
  ASSERT_NE(progressing(s), nullptr);
  EXPECT_EQ(progressing(s)->reason, "ReplicaSetCreateError");
  EXPECT_EQ(progressing(s)->status, "False");
  EXPECT_EQ(progressing(s)->message, message);
}

TEST_F(SyncerTest, NamespaceTerminatingIsNotReported) {
  cluster_.put_deployment(web({}));
  api::Status terminating;
  terminating.reason = "Forbidden";
  terminating.code = 403;
  terminating.message =
      "replicasets \"web-x\" is forbidden: unable to create new content in namespace default "
      "because it is being terminated";
  terminating.details = api::StatusDetails{};
  terminating.details->causes.push_back(
      {std::string(kNamespaceTerminatingCause), "namespace default is being terminated", ""});
  cluster_.errors["create replicasets"] = terminating;
  const SyncResult r = sync();
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has_status_cause(r.error(), kNamespaceTerminatingCause));
  EXPECT_TRUE(recorder_.events().empty());
  EXPECT_TRUE(cluster_.status_writes.empty());
}

TEST_F(SyncerTest, AdoptsAMatchingOrphanAsTheNewReplicaSet) {
  const json::object d = web({.replicas = 2});
  cluster_.put_deployment(d);
  json::value t = template_of(d);
  t.as_object()["metadata"].as_object()["labels"].as_object()["pod-template-hash"] = "abc";
  cluster_.put_replica_set(json::object{
      {"apiVersion", "apps/v1"},
      {"kind", "ReplicaSet"},
      {"metadata",
       json::object{{"name", "web-abc"},
                    {"namespace", "default"},
                    {"uid", "uid-orphan"},
                    {"generation", 1},
                    {"resourceVersion", "5"},
                    {"creationTimestamp", "2026-01-01T00:00:00Z"},
                    {"labels", json::object{{"app", "web"}, {"pod-template-hash", "abc"}}}}},
      {"spec", json::object{{"replicas", 2}, {"template", t}}}});
  // As upstream: the claim hands on the RS as listed, so the revision update
  // that follows the adoption patch conflicts; the next sync succeeds.
  const SyncResult first = sync();
  ASSERT_FALSE(first.ok());
  EXPECT_TRUE(first.error().is(api::reason::kConflict));
  sync_ok();
  ASSERT_FALSE(cluster_.patches.empty());
  EXPECT_EQ(
      cluster_.patches[0],
      R"({"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"uid-web","controller":true,"blockOwnerDeletion":true}],"uid":"uid-orphan"}})");
  // Before adopting, the Deployment was read live.
  EXPECT_EQ(cluster_.actions[0], "get deployments");
  EXPECT_TRUE(cluster_.created_replica_sets.empty());
  const Annotations a = annotations_of(*cluster_.replica_set("default/web-abc"));
  EXPECT_EQ(a.at("deployment.kubernetes.io/revision"), "1");
}

TEST_F(SyncerTest, ReleasesReplicaSetsThatNoLongerMatch) {
  cluster_.put_deployment(web({}));
  converge();
  json::object rs = cluster_.replica_sets()[0];
  rs["metadata"].as_object()["labels"].as_object()["app"] = "moved";
  cluster_.put_replica_set(rs);
  cluster_.patches.clear();
  // Released; its name is the one the template hashes to, and it is no
  // longer ours: a hash collision.
  const SyncResult r = sync();
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().is(api::reason::kAlreadyExists));
  EXPECT_EQ(status().collision_count, 1);
  ASSERT_FALSE(cluster_.patches.empty());
  EXPECT_EQ(cluster_.patches[0],
            R"({"metadata":{"uid":")" + meta_string(rs, "uid") +
                R"(","ownerReferences":[{"$patch":"delete","uid":"uid-web"}]}})");
}

TEST_F(SyncerTest, DeletedDeploymentsOnlyGetStatus) {
  cluster_.put_deployment(web({}));
  converge();
  set_image("nginx:2");
  json::object d = deployment();
  d["metadata"].as_object()["deletionTimestamp"] = "2026-11-30T12:00:00Z";
  cluster_.put_deployment(d);
  cluster_.actions.clear();
  sync_ok();
  EXPECT_EQ(cluster_.actions, std::vector<std::string>{"update deployments/status"});
  EXPECT_FALSE(rs_for("nginx:2").has_value());
  // Nothing to do when it is gone from the cache.
  EXPECT_TRUE(syncer_.sync_deployment("default/gone").ok());
  EXPECT_FALSE(syncer_.sync_deployment("a/b/c").ok());
}

TEST_F(SyncerTest, UnknownStrategyIsAnError) {
  cluster_.put_deployment(web({.strategy = "BlueGreen"}));
  const SyncResult r = sync();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "unexpected deployment strategy type: BlueGreen");
}

TEST_F(SyncerTest, FailedScaleDownOfOldReplicaSetsStillWritesStatus) {
  cluster_.put_deployment(web({}));
  converge();
  set_image("nginx:2");
  cluster_.errors["update replicasets"] = api::internal_error("nope");
  // Create (3), the old RS scale-down fails: swallowed, the status is written.
  const SyncResult r = sync();
  EXPECT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(spec_replicas("nginx:1"), 10);
  EXPECT_EQ(cluster_.actions.back(), "update deployments/status");
}

TEST_F(SyncerTest, StatusWithoutProgressDeadline) {
  cluster_.put_deployment(web({.progress_deadline = std::nullopt}));
  converge();
  const DeploymentStatus s = status();
  EXPECT_EQ(progressing(s), nullptr);
  EXPECT_EQ(get_deployment_condition(s, kAvailable)->status, "True");
}

}  // namespace
}  // namespace kcm::controllers::deployment
