#include "controllers/deployment/rollback.h"

#include <gtest/gtest.h>

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/events.h"
#include "controllers/deployment/replica_sets.h"
#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

struct Fixture {
  json::object deployment;
  ReplicaSets rss;
  ReplicaSetList all;
};

// The deployment and RSs of TestReentrantRollback, in compact form.
void load_reentrant(Fixture& f, const json::object& c) {
  const json::object& in = c.at("input").as_object();
  f.deployment = deployment_from_compact(in.at("deployment").as_object());
  for (const json::value& r : in.at("replicaSets").as_array()) {
    json::object rs = replica_set_from_compact(r.as_object());
    rs["metadata"].as_object()["annotations"] =
        json::object{{"deployment.kubernetes.io/revision", r.at("revision")},
                     {"kubernetes.io/change-cause", "rev " + str(r.at("revision"))}};
    json::value t = template_of(f.deployment);
    if (str(r.at("template")) != "same as deployment") {
      t.as_object()["spec"].as_object()["terminationGracePeriodSeconds"] = 1;
    }
    t.as_object()["metadata"].as_object()["labels"].as_object()["pod-template-hash"] =
        "h" + str(r.at("revision"));
    rs["spec"].as_object()["template"] = std::move(t);
    f.all.push_back(f.rss.add(std::move(rs)));
  }
}

// TestReentrantRollback: rollback.to "0" goes to the last revision (1), whose
// template differs: the Deployment takes it, the annotation is cleared, one update.
TEST(Rollback, UpstreamReentrantRollback) {
  const json::object file = load_upstream_cases("deployment_sync_scenarios.json");
  const json::value* reentrant = nullptr;
  for (const json::value& c : cases_of(file)) {
    if (str(c.at("name")) == "TestReentrantRollback") reentrant = &c;
  }
  ASSERT_NE(reentrant, nullptr);
  Fixture f;
  load_reentrant(f, reentrant->as_object());
  const DeploymentView d = view_of(f.deployment);
  const std::optional<std::int64_t> to = rollback_to(d);
  ASSERT_EQ(to, 0);
  const RollbackPlan plan = plan_rollback(f.deployment, d, *to, f.all);
  EXPECT_TRUE(plan.rolled_back);
  EXPECT_EQ(plan.revision, 1);
  EXPECT_EQ(plan.event_type, kEventNormal);
  EXPECT_EQ(plan.event_reason, "DeploymentRollback");
  EXPECT_EQ(plan.event_message, "Rolled back deployment \"foo\" to revision 1");
  EXPECT_EQ(template_of(plan.deployment).at("spec").at("terminationGracePeriodSeconds").as_int64(),
            1);
  EXPECT_FALSE(template_of(plan.deployment)
                   .at("metadata")
                   .at("labels")
                   .as_object()
                   .contains("pod-template-hash"));
  EXPECT_EQ(annotations_of(plan.deployment),
            (Annotations{{"deployment.kubernetes.io/revision", "2"},
                         {"kubernetes.io/change-cause", "rev 1"}}));
}

TEST(Rollback, TemplateUnchangedAndRevisionNotFound) {
  const json::object file = load_upstream_cases("deployment_sync_scenarios.json");
  Fixture f;
  for (const json::value& c : cases_of(file)) {
    if (str(c.at("name")) == "TestReentrantRollback") load_reentrant(f, c.as_object());
  }
  ASSERT_EQ(f.all.size(), 2u);
  const DeploymentView d = view_of(f.deployment);

  RollbackPlan plan = plan_rollback(f.deployment, d, 2, f.all);
  EXPECT_FALSE(plan.rolled_back);
  EXPECT_EQ(plan.event_type, kEventWarning);
  EXPECT_EQ(plan.event_reason, "DeploymentRollbackTemplateUnchanged");
  EXPECT_EQ(plan.event_message,
            "The rollback revision contains the same template as current deployment \"foo\"");
  EXPECT_FALSE(annotations_of(plan.deployment).contains(std::string(kDeprecatedRollbackTo)));
  EXPECT_EQ(template_of(plan.deployment), template_of(f.deployment));

  plan = plan_rollback(f.deployment, d, 9, f.all);
  EXPECT_EQ(plan.event_reason, "DeploymentRollbackRevisionNotFound");
  EXPECT_EQ(plan.event_message, "Unable to find the revision to rollback to.");
  EXPECT_FALSE(annotations_of(plan.deployment).contains(std::string(kDeprecatedRollbackTo)));

  plan = plan_rollback(f.deployment, d, 0, {f.all[1]});  // only revision 2: no last revision
  EXPECT_EQ(plan.event_reason, "DeploymentRollbackRevisionNotFound");
  EXPECT_EQ(plan.event_message, "Unable to find last revision.");
}

TEST(Rollback, RollbackToAnnotation) {
  const auto to = [](const char* v) {
    json::object c{{"annotations", json::object{{"deprecated.deployment.rollback.to", v}}}};
    return rollback_to(deployment_view(c));
  };
  EXPECT_EQ(to("3"), 3);
  EXPECT_EQ(to("0"), 0);
  EXPECT_EQ(to(""), std::nullopt);
  EXPECT_EQ(to("x"), std::nullopt);
  EXPECT_EQ(rollback_to(deployment_view(json::object{})), std::nullopt);
}

}  // namespace
}  // namespace kcm::controllers::deployment
