#include "controllers/deployment/progress.h"

#include <gtest/gtest.h>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

DeploymentStatus status_of(const json::value& v) {
  return DeploymentStatus::from_json(&v);
}

// TestDeploymentComplete.
TEST(Progress, UpstreamDeploymentComplete) {
  const json::object file = load_upstream_cases("deployment_complete.json");
  ASSERT_EQ(cases_of(file).size(), 6u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    EXPECT_EQ(deployment_complete(d, status_of(in.at("newStatus"))),
              c.at("expected").at("complete").as_bool())
        << name;
  }
}

TEST(Progress, DeploymentCompleteNeedsObservedGeneration) {
  json::object c{{"replicas", 1}, {"generation", 2}};
  const DeploymentView d = deployment_view(c);
  DeploymentStatus s;
  s.replicas = s.updated_replicas = s.available_replicas = 1;
  s.observed_generation = 1;
  EXPECT_FALSE(deployment_complete(d, s));
  s.observed_generation = 2;
  EXPECT_TRUE(deployment_complete(d, s));
}

// TestDeploymentProgressing.
TEST(Progress, UpstreamDeploymentProgressing) {
  const json::object file = load_upstream_cases("deployment_progressing.json");
  ASSERT_EQ(cases_of(file).size(), 7u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d =
        deployment_view(json::object{{"replicas", 10}, {"status", in.at("oldStatus")}});
    EXPECT_EQ(deployment_progressing(d, status_of(in.at("newStatus"))),
              c.at("expected").at("progressing").as_bool())
        << name;
  }
}

// TestDeploymentTimedOut.
TEST(Progress, UpstreamDeploymentTimedOut) {
  const json::object file = load_upstream_cases("deployment_timed_out.json");
  ASSERT_EQ(cases_of(file).size(), 5u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    json::object compact{{"replicas", 1}};
    compact["progressDeadlineSeconds"] = in.at("progressDeadlineSeconds");
    const DeploymentView d = deployment_view(compact);
    json::object status;
    status["conditions"] = json::array{in.at("progressingCondition")};
    EXPECT_EQ(deployment_timed_out(d, status_of(status), at(str(in.at("now")))),
              c.at("expected").at("timedOut").as_bool())
        << name;
  }
}

TEST(Progress, TimedOutReasons) {
  const DeploymentView d = deployment_view(json::object{{"progressDeadlineSeconds", 10}});
  const api::Time now = at("2024-01-01T00:00:00Z");
  DeploymentStatus s;
  EXPECT_FALSE(deployment_timed_out(d, s, now));  // no condition: no base
  s.conditions.push_back(new_deployment_condition(kProgressing, "False", kTimedOutReason, "", now));
  EXPECT_TRUE(deployment_timed_out(d, s, now));
  s.conditions[0].reason = kNewRSAvailableReason;
  s.conditions[0].last_update_time = {};
  EXPECT_FALSE(deployment_timed_out(d, s, now));
  s.conditions[0].reason = kReplicaSetUpdatedReason;
  EXPECT_TRUE(deployment_timed_out(d, s, now));  // zero time: long past
  // Exactly at the deadline is not yet timed out (strictly before).
  s.conditions[0].last_update_time = at("2023-12-31T23:59:50Z");
  EXPECT_FALSE(deployment_timed_out(d, s, now));
}

// TestRequeueStuckDeployment.
TEST(Progress, UpstreamRequeueStuckDeployment) {
  const json::object file = load_upstream_cases("requeue_stuck_deployment.json");
  ASSERT_EQ(cases_of(file).size(), 11u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    const api::Time now =
        in.at("now").is_null() ? at("2017-02-15T18:49:00Z") : at(str(in.at("now")));
    const StuckRequeue got = requeue_stuck_deployment(d, status_of(in.at("newStatus")), now);
    const std::int64_t want = c.at("expected").at("returnedSeconds").as_int64();
    if (want < 0) {
      EXPECT_EQ(got.kind, StuckRequeue::Kind::kNone) << name;
    } else if (want == 0) {
      EXPECT_EQ(got.kind, StuckRequeue::Kind::kRateLimited) << name;
    } else {
      ASSERT_EQ(got.kind, StuckRequeue::Kind::kAfter) << name;
      EXPECT_EQ(got.after, std::chrono::seconds(want)) << name;
    }
  }
}

// TestSyncRolloutStatus: the Progressing condition after syncRolloutStatus.
TEST(Progress, UpstreamSyncRolloutStatus) {
  const json::object file = load_upstream_cases("sync_rollout_status.json");
  ASSERT_EQ(cases_of(file).size(), 11u);
  const api::Time now = at("2026-11-30T12:00:00Z");
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    ReplicaSets rss;
    ReplicaSetList all = rss.add_all(in.if_contains("oldRSs"));
    const ReplicaSetInfo* new_rs = rss.add_compact(in.at("newRS"));
    if (new_rs != nullptr) all.push_back(new_rs);
    const DeploymentStatus got = rollout_status(all, new_rs, d, now);
    const DeploymentCondition* cond = get_deployment_condition(got, kProgressing);
    const json::value& want = c.at("expected").at("progressing");
    if (want.is_null()) {
      EXPECT_EQ(cond, nullptr) << name;
      continue;
    }
    ASSERT_NE(cond, nullptr) << name;
    EXPECT_EQ(cond->status, str(want.at("status"))) << name;
    EXPECT_EQ(cond->reason, str(want.at("reason"))) << name;
    // The timestamp intent (upstream's own assertions are vacuous).
    const DeploymentCondition* before = get_deployment_condition(d.status, kProgressing);
    const std::string intent =
        c.at("expected").as_object().contains("intent") ? str(c.at("expected").at("intent")) : "";
    if (intent.find("lastTransitionTime unchanged") != std::string::npos) {
      ASSERT_NE(before, nullptr) << name;
      EXPECT_EQ(cond->last_transition_time, before->last_transition_time) << name;
    } else if (before == nullptr || before->status != cond->status) {
      EXPECT_EQ(cond->last_transition_time, now) << name;
    }
    if (intent.find("lastUpdateTime unchanged") != std::string::npos) {
      EXPECT_EQ(cond->last_update_time, before->last_update_time) << name;
    } else {
      EXPECT_EQ(cond->last_update_time, now) << name;
    }
  }
}

TEST(Progress, RolloutStatusMessages) {
  const api::Time now = at("2026-11-30T12:00:00Z");
  json::object c{{"name", "web"},
                 {"replicas", 2},
                 {"progressDeadlineSeconds", 600},
                 {"strategy", json::object{{"type", "Recreate"}}}};
  ReplicaSets rss;
  const ReplicaSetInfo* rs = rss.add_compact(json::object{
      {"name", "web-abc"},
      {"specReplicas", 2},
      {"status", json::object{{"replicas", 2}, {"readyReplicas", 2}, {"availableReplicas", 2}}}});
  DeploymentStatus s = rollout_status({rs}, rs, deployment_view(c), now);
  const DeploymentCondition* p = get_deployment_condition(s, kProgressing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->message, "ReplicaSet \"web-abc\" has successfully progressed.");
  const DeploymentCondition* a = get_deployment_condition(s, kAvailable);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->reason, kMinimumReplicasAvailable);
  EXPECT_EQ(a->message, "Deployment has minimum availability.");

  // Progress without a new RS names the Deployment.
  c["status"] = json::object{{"replicas", 3}, {"updatedReplicas", 0}};
  const ReplicaSetInfo* old = rss.add_compact(json::object{
      {"name", "web-old"}, {"specReplicas", 2}, {"status", json::object{{"replicas", 2}}}});
  s = rollout_status({old}, nullptr, deployment_view(c), now);
  p = get_deployment_condition(s, kProgressing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->reason, kReplicaSetUpdatedReason);
  EXPECT_EQ(p->message, "Deployment \"web\" is progressing.");
  EXPECT_EQ(get_deployment_condition(s, kAvailable)->message,
            "Deployment does not have minimum availability.");

  // Timed out.
  c["status"] = json::object{
      {"replicas", 2},
      {"conditions", json::array{json::object{{"type", "Progressing"},
                                              {"status", "True"},
                                              {"reason", "ReplicaSetUpdated"},
                                              {"lastUpdateTime", "2026-11-30T11:00:00Z"},
                                              {"lastTransitionTime", "2026-11-30T11:00:00Z"}}}}};
  s = rollout_status({old}, nullptr, deployment_view(c), now);
  p = get_deployment_condition(s, kProgressing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->status, "False");
  EXPECT_EQ(p->reason, kTimedOutReason);
  EXPECT_EQ(p->message, "Deployment \"web\" has timed out progressing.");
}

TEST(Progress, RolloutStatusReplicaFailure) {
  const api::Time now = at("2026-11-30T12:00:00Z");
  const DeploymentView d = deployment_view(json::object{{"replicas", 2}});
  const auto failure = [](const char* message) {
    return json::object{
        {"conditions", json::array{json::object{{"type", "ReplicaFailure"},
                                                {"status", "True"},
                                                {"reason", "FailedCreate"},
                                                {"message", message},
                                                {"lastTransitionTime", "2026-11-30T10:00:00Z"}}}}};
  };
  ReplicaSets rss;
  const ReplicaSetInfo* old = rss.add_compact(
      json::object{{"name", "old"}, {"specReplicas", 1}, {"status", failure("old quota")}});
  const ReplicaSetInfo* fresh = rss.add_compact(
      json::object{{"name", "new"}, {"specReplicas", 1}, {"status", failure("new quota")}});
  const ReplicaSetInfo* healthy =
      rss.add_compact(json::object{{"name", "ok"}, {"specReplicas", 1}});
  DeploymentStatus s = rollout_status({old, fresh}, fresh, d, now);
  const DeploymentCondition* f = get_deployment_condition(s, kReplicaFailure);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->message, "new quota");
  EXPECT_EQ(f->last_update_time, at("2026-11-30T10:00:00Z"));
  s = rollout_status({old, healthy}, healthy, d, now);
  ASSERT_NE(get_deployment_condition(s, kReplicaFailure), nullptr);
  EXPECT_EQ(get_deployment_condition(s, kReplicaFailure)->message, "old quota");
  // No failure anywhere: an old ReplicaFailure condition is removed.
  json::object c{
      {"replicas", 2},
      {"status", json::object{{"conditions", json::array{json::object{{"type", "ReplicaFailure"},
                                                                      {"status", "True"}}}}}}};
  s = rollout_status({healthy}, healthy, deployment_view(c), now);
  EXPECT_EQ(get_deployment_condition(s, kReplicaFailure), nullptr);
}

TEST(Progress, CalculateStatusCounts) {
  const api::Time now = at("2026-11-30T12:00:00Z");
  json::object c{
      {"replicas", 4},
      {"generation", 7},
      {"strategy",
       json::object{{"type", "RollingUpdate"}, {"maxSurge", "25%"}, {"maxUnavailable", "25%"}}},
      {"status", json::object{{"collisionCount", 2}}}};
  const DeploymentView d = deployment_view(c);
  ReplicaSets rss;
  const ReplicaSetInfo* old =
      rss.add_compact(json::object{{"name", "old"},
                                   {"specReplicas", 1},
                                   {"status", json::object{{"replicas", 2},
                                                           {"readyReplicas", 2},
                                                           {"availableReplicas", 2},
                                                           {"observedGeneration", 1},
                                                           {"terminatingReplicas", 1}}}});
  const ReplicaSetInfo* fresh = rss.add_compact(json::object{
      {"name", "new"},
      {"specReplicas", 4},
      {"status", json::object{{"replicas", 3}, {"readyReplicas", 2}, {"availableReplicas", 1}}}});
  const DeploymentStatus s = calculate_status({old, fresh}, fresh, d, now);
  EXPECT_EQ(s.observed_generation, 7);
  EXPECT_EQ(s.replicas, 5);
  EXPECT_EQ(s.updated_replicas, 3);
  EXPECT_EQ(s.ready_replicas, 4);
  EXPECT_EQ(s.available_replicas, 3);
  EXPECT_EQ(s.unavailable_replicas, 2);  // spec 5 - available 3
  EXPECT_EQ(s.terminating_replicas, 1);  // the new RS never synced: 0
  EXPECT_EQ(s.collision_count, 2);
  // 3 available >= 4 - 1: Available (the threshold is replicas - maxUnavailable).
  ASSERT_NE(get_deployment_condition(s, kAvailable), nullptr);
  EXPECT_EQ(get_deployment_condition(s, kAvailable)->status, "True");
  // Gate off: no terminating count. More available than spec: unavailable 0.
  const DeploymentStatus off =
      calculate_status({old}, nullptr, d, now, StatusOptions{.terminating_replicas = false});
  EXPECT_FALSE(off.terminating_replicas.has_value());
  EXPECT_EQ(off.unavailable_replicas, 0);
  EXPECT_EQ(off.updated_replicas, 0);
}

TEST(Progress, PausedConditions) {
  const api::Time now = at("2026-11-30T12:00:00Z");
  json::object c{{"replicas", 1}, {"paused", true}, {"progressDeadlineSeconds", 600}};
  auto s = paused_conditions_status(deployment_view(c), now);
  ASSERT_TRUE(s.has_value());
  const DeploymentCondition* p = get_deployment_condition(*s, kProgressing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->status, "Unknown");
  EXPECT_EQ(p->reason, kPausedDeployReason);
  EXPECT_EQ(p->message, "Deployment is paused");
  // Already paused: nothing to do.
  c["status"] = s->to_json();
  EXPECT_FALSE(paused_conditions_status(deployment_view(c), now).has_value());
  // Resumed.
  c["paused"] = false;
  s = paused_conditions_status(deployment_view(c), now);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(get_deployment_condition(*s, kProgressing)->reason, kResumedDeployReason);
  EXPECT_EQ(get_deployment_condition(*s, kProgressing)->message, "Deployment is resumed");
  // A timeout is never overwritten; no deadline, no conditions.
  c["paused"] = true;
  c["status"] = json::object{
      {"conditions",
       json::array{json::object{
           {"type", "Progressing"}, {"status", "False"}, {"reason", "ProgressDeadlineExceeded"}}}}};
  EXPECT_FALSE(paused_conditions_status(deployment_view(c), now).has_value());
  c["progressDeadlineSeconds"] = 2147483647;
  c.erase("status");
  EXPECT_FALSE(paused_conditions_status(deployment_view(c), now).has_value());
}

TEST(Progress, DeadlineAndHistoryLimitPresence) {
  EXPECT_FALSE(has_progress_deadline(deployment_view(json::object{})));
  EXPECT_TRUE(has_progress_deadline(deployment_view(json::object{{"progressDeadlineSeconds", 0}})));
  EXPECT_FALSE(has_progress_deadline(
      deployment_view(json::object{{"progressDeadlineSeconds", 2147483647}})));
  EXPECT_TRUE(
      has_revision_history_limit(deployment_view(json::object{{"revisionHistoryLimit", 0}})));
  EXPECT_FALSE(has_revision_history_limit(
      deployment_view(json::object{{"revisionHistoryLimit", 2147483647}})));
}

}  // namespace
}  // namespace kcm::controllers::deployment
