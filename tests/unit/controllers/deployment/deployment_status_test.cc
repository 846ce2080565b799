#include "controllers/deployment/deployment_status.h"

#include <gtest/gtest.h>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

DeploymentStatus status_with(const json::value& conditions) {
  json::object s;
  s["conditions"] = conditions;
  const json::value v(s);
  return DeploymentStatus::from_json(&v);
}

void expect_conditions(const DeploymentStatus& got, const json::array& want,
                       const std::string& name) {
  ASSERT_EQ(got.conditions.size(), want.size()) << name;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const json::object& w = want[i].as_object();
    EXPECT_EQ(got.conditions[i].type, str(w.at("type"))) << name;
    EXPECT_EQ(got.conditions[i].status, str(w.at("status"))) << name;
    EXPECT_EQ(got.conditions[i].reason, str(w.at("reason"))) << name;
  }
}

// TestGetCondition, TestSetCondition, TestRemoveCondition.
TEST(DeploymentStatus, UpstreamConditions) {
  const json::object file = load_upstream_cases("deployment_conditions.json");
  ASSERT_EQ(cases_of(file).size(), 8u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const std::string op = str(c.at("op"));
    const json::object& in = c.at("input").as_object();
    DeploymentStatus status = status_with(in.at("conditions"));
    if (op == "get") {
      EXPECT_EQ(get_deployment_condition(status, str(in.at("type"))) != nullptr,
                c.at("expected").at("found").as_bool())
          << name;
    } else if (op == "set") {
      set_deployment_condition(status,
                               DeploymentCondition::from_json(in.at("condition").as_object()));
      expect_conditions(status, c.at("expected").at("conditions").as_array(), name);
    } else {
      ASSERT_EQ(op, "remove") << name;
      remove_deployment_condition(status, str(in.at("type")));
      expect_conditions(status, c.at("expected").at("conditions").as_array(), name);
    }
  }
}

TEST(DeploymentStatus, SetConditionKeepsTransitionTimeWhenOnlyReasonChanges) {
  const api::Time t1 = at("2024-01-01T00:00:00Z");
  const api::Time t2 = at("2024-01-02T00:00:00Z");
  DeploymentStatus s;
  set_deployment_condition(s, new_deployment_condition(kProgressing, "True", "A", "a", t1));
  set_deployment_condition(s, new_deployment_condition(kAvailable, "True", "X", "x", t1));
  // Same status and reason: nothing changes, not even the message.
  set_deployment_condition(s, new_deployment_condition(kProgressing, "True", "A", "other", t2));
  EXPECT_EQ(s.conditions[0].message, "a");
  // New reason, same status: moved to the end, transition time kept.
  set_deployment_condition(s, new_deployment_condition(kProgressing, "True", "B", "b", t2));
  ASSERT_EQ(s.conditions.size(), 2u);
  EXPECT_EQ(s.conditions[1].reason, "B");
  EXPECT_EQ(s.conditions[1].last_transition_time, t1);
  EXPECT_EQ(s.conditions[1].last_update_time, t2);
  // New status: both times new.
  set_deployment_condition(s, new_deployment_condition(kProgressing, "False", "C", "c", t2));
  EXPECT_EQ(s.conditions[1].last_transition_time, t2);
}

TEST(DeploymentStatus, JsonRoundTripKeepsUnknownMembers) {
  std::string error;
  const auto v = api::parse_json(
      R"({"observedGeneration":3,"replicas":2,"updatedReplicas":1,"readyReplicas":1,)"
      R"("availableReplicas":1,"unavailableReplicas":1,"terminatingReplicas":0,)"
      R"("conditions":[{"type":"Available","status":"True","lastUpdateTime":"2024-01-01T00:00:00Z",)"
      R"("lastTransitionTime":"2024-01-01T00:00:00Z","reason":"R","message":"M","extra":1}],)"
      R"("collisionCount":2,"future":true})",
      &error);
  ASSERT_TRUE(v.has_value()) << error;
  const DeploymentStatus s = DeploymentStatus::from_json(&*v);
  EXPECT_EQ(s.observed_generation, 3);
  EXPECT_EQ(s.terminating_replicas, 0);
  EXPECT_EQ(s.collision_count, 2);
  json::object out = v->as_object();
  s.write_to(out);
  EXPECT_EQ(json::value(out), *v);
  EXPECT_EQ(
      api::to_json_string(s.to_json()),
      R"({"observedGeneration":3,"replicas":2,"updatedReplicas":1,"readyReplicas":1,)"
      R"("availableReplicas":1,"unavailableReplicas":1,"terminatingReplicas":0,)"
      R"("conditions":[{"type":"Available","status":"True","lastUpdateTime":"2024-01-01T00:00:00Z",)"
      R"("lastTransitionTime":"2024-01-01T00:00:00Z","reason":"R","message":"M","extra":1}],)"
      R"("collisionCount":2})");
  // Zero counts are omitted; a zero condition time is null.
  DeploymentStatus empty;
  empty.conditions.push_back(DeploymentCondition{"Available", "False", {}, {}, "", "", {}});
  EXPECT_EQ(
      api::to_json_string(empty.to_json()),
      R"({"conditions":[{"type":"Available","status":"False","lastUpdateTime":null,"lastTransitionTime":null}]})");
}

}  // namespace
}  // namespace kcm::controllers::deployment
