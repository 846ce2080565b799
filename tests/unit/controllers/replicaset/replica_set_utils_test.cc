#include "controllers/replicaset/replica_set_utils.h"

#include <gtest/gtest.h>

#include "../../controller/upstream_cases.h"

namespace kcm::controllers::replicaset {
namespace {

using kcm::testing::cases_of;
using kcm::testing::load_upstream_cases;
using kcm::testing::str;

api::Time at(const char* s) {
  return *api::Time::parse(s);
}

ReplicaSetCondition condition_from_case(const json::object& c) {
  return ReplicaSetCondition::from_json(c);
}

std::vector<ReplicaSetCondition> conditions_from_case(const json::value* v) {
  std::vector<ReplicaSetCondition> out;
  if (v == nullptr) return out;
  for (const json::value& c : v->as_array())
    out.push_back(condition_from_case(c.as_object()));
  return out;
}

// Only the members a case lists are asserted (timestamps are ignored).
void expect_conditions(const std::vector<ReplicaSetCondition>& got, const json::array& want,
                       const std::string& name) {
  ASSERT_EQ(got.size(), want.size()) << name;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const json::object& w = want[i].as_object();
    EXPECT_EQ(got[i].type, str(w.at("type"))) << name;
    EXPECT_EQ(got[i].status, str(w.at("status"))) << name;
    // An absent reason or message is the empty string.
    const json::value* reason = w.if_contains("reason");
    EXPECT_EQ(got[i].reason, reason ? str(*reason) : "") << name;
    if (const json::value* message = w.if_contains("message")) {
      EXPECT_EQ(got[i].message, str(*message)) << name;
    }
  }
}

// TestCalculateStatus and TestCalculateStatusConditions.
TEST(ReplicaSetUtils, UpstreamCalculateStatus) {
  const json::object file = load_upstream_cases("replicaset_calculate_status.json");
  ASSERT_EQ(cases_of(file).size(), 12u);
  const api::Time now = at("2024-06-15T12:00:00Z");
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const json::object& rs_case = in.at("replicaSet").as_object();
    ReplicaSetView rs;
    rs.namespace_ = "default";
    rs.name = "rs";
    rs.spec_replicas = static_cast<std::int32_t>(rs_case.at("specReplicas").as_int64());
    if (const json::value* m = rs_case.if_contains("minReadySeconds")) {
      rs.min_ready_seconds = static_cast<std::int32_t>(m->as_int64());
    }
    rs.template_labels = api::labels::to_label_set(rs_case.at("templateLabels").as_object());
    rs.status.conditions = conditions_from_case(rs_case.if_contains("conditions"));

    std::vector<controller::CachedPod> pods;
    for (const json::value& p : in.at("activePods").as_array()) {
      pods.push_back(kcm::testing::cached_pod(kcm::testing::pod_from_compact(p.as_object())));
    }
    const std::vector<const controller::CachedPod*> active = controller::pointers_to(pods);
    std::optional<std::string> err;
    if (const json::value& e = in.at("manageReplicasErr"); e.is_string()) err = str(e);

    const ReplicaSetStatus got = calculate_status(rs, active, {}, err, now);
    const json::object& want = c.at("expected").as_object();
    if (want.contains("replicas")) {
      EXPECT_EQ(got.replicas, want.at("replicas").as_int64()) << name;
      EXPECT_EQ(got.fully_labeled_replicas, want.at("fullyLabeledReplicas").as_int64()) << name;
      EXPECT_EQ(got.ready_replicas, want.at("readyReplicas").as_int64()) << name;
      EXPECT_EQ(got.available_replicas, want.at("availableReplicas").as_int64()) << name;
      EXPECT_EQ(got.terminating_replicas, std::optional<std::int32_t>(0)) << name;
    }
    if (want.contains("conditions")) {
      expect_conditions(got.conditions, want.at("conditions").as_array(), name);
    }
    EXPECT_TRUE(validate_replica_set_status(got).empty()) << name;
  }
}

// TestGetCondition, TestSetCondition, TestRemoveCondition.
TEST(ReplicaSetUtils, UpstreamConditions) {
  const json::object file = load_upstream_cases("replicaset_conditions.json");
  ASSERT_EQ(cases_of(file).size(), 8u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const std::string op = str(c.at("op"));
    const json::object& in = c.at("input").as_object();
    ReplicaSetStatus status;
    status.conditions = conditions_from_case(in.if_contains("conditions"));
    const json::object& want = c.at("expected").as_object();
    if (op == "get") {
      EXPECT_EQ(get_condition(status, str(in.at("type"))) != nullptr, want.at("found").as_bool())
          << name;
      continue;
    }
    if (op == "set") {
      set_condition(status, condition_from_case(in.at("condition").as_object()));
    } else if (op == "remove") {
      remove_condition(status, str(in.at("type")));
    } else {
      ADD_FAILURE() << "unknown op " << op;
    }
    expect_conditions(status.conditions, want.at("conditions").as_array(), name);
  }
}

TEST(ReplicaSetUtils, SetConditionKeepsSameStatusAndReason) {
  ReplicaSetStatus s;
  set_condition(s, new_replica_set_condition(kReplicaFailure, "True", "FailedCreate", "first",
                                             at("2024-06-15T12:00:00Z")));
  set_condition(s, new_replica_set_condition(kReplicaFailure, "True", "FailedCreate", "second",
                                             at("2024-06-15T13:00:00Z")));
  ASSERT_EQ(s.conditions.size(), 1u);
  EXPECT_EQ(s.conditions[0].message, "first");
  EXPECT_EQ(s.conditions[0].last_transition_time, at("2024-06-15T12:00:00Z"));
}

TEST(ReplicaSetUtils, CalculateStatusDetails) {
  ReplicaSetView rs;
  rs.spec_replicas = 3;
  rs.min_ready_seconds = 10;
  rs.status.observed_generation = 4;
  const auto ready_long =
      kcm::testing::parse_cached_pod(R"({"status":{"conditions":[{"type":"Ready","status":"True",
      "lastTransitionTime":"2024-06-15T11:00:00Z"}]}})");
  const auto ready_new =
      kcm::testing::parse_cached_pod(R"({"status":{"conditions":[{"type":"Ready","status":"True",
      "lastTransitionTime":"2024-06-15T11:59:55Z"}]}})");
  const auto terminating = kcm::testing::parse_cached_pod(
      R"({"metadata":{"deletionTimestamp":"2024-06-15T11:00:00Z"}})");
  const api::Time now = at("2024-06-15T12:00:00Z");
  const ReplicaSetStatus s = calculate_status(rs, {&ready_long, &ready_new}, {&terminating},
                                              "pods \"x\" is forbidden", now);
  EXPECT_EQ(s.replicas, 2);
  EXPECT_EQ(s.fully_labeled_replicas, 2);  // no template labels: every pod matches
  EXPECT_EQ(s.ready_replicas, 2);
  EXPECT_EQ(s.available_replicas, 1);
  EXPECT_EQ(s.terminating_replicas, std::optional<std::int32_t>(1));
  EXPECT_EQ(s.observed_generation, 4);  // carried over; the write sets it
  ASSERT_EQ(s.conditions.size(), 1u);
  EXPECT_EQ(s.conditions[0].reason, "FailedCreate");
  EXPECT_EQ(s.conditions[0].message, "pods \"x\" is forbidden");
  EXPECT_EQ(s.conditions[0].last_transition_time, now);

  StatusOptions gate_off;
  gate_off.terminating_replicas = false;
  EXPECT_FALSE(calculate_status(rs, {}, {&terminating}, std::nullopt, now, gate_off)
                   .terminating_replicas.has_value());

  // diff == 0 with an error: the condition has an empty reason.
  rs.spec_replicas = 2;
  const ReplicaSetStatus even = calculate_status(rs, {&ready_long, &ready_new}, {}, "x", now);
  ASSERT_EQ(even.conditions.size(), 1u);
  EXPECT_EQ(even.conditions[0].reason, "");
}

TEST(ReplicaSetUtils, StatusNeedsUpdate) {
  ReplicaSetView rs;
  rs.generation = 2;
  rs.status.replicas = 1;
  rs.status.observed_generation = 2;
  rs.status.terminating_replicas = 0;
  ReplicaSetStatus same = rs.status;
  EXPECT_FALSE(status_needs_update(rs, same));
  rs.generation = 3;  // a new generation must be observed
  EXPECT_TRUE(status_needs_update(rs, same));
  rs.generation = 2;
  ReplicaSetStatus changed = same;
  changed.ready_replicas = 1;
  EXPECT_TRUE(status_needs_update(rs, changed));
  changed = same;
  changed.terminating_replicas.reset();
  EXPECT_TRUE(status_needs_update(rs, changed));
  changed = same;
  changed.conditions.push_back(new_replica_set_condition(kReplicaFailure, "True", "", "m", {}));
  EXPECT_TRUE(status_needs_update(rs, changed));
  // observedGeneration itself is not compared (the write sets it).
  changed = same;
  changed.observed_generation = 99;
  EXPECT_FALSE(status_needs_update(rs, changed));
}

TEST(ReplicaSetUtils, ValidateStatus) {
  ReplicaSetStatus s;
  s.replicas = 2;
  s.fully_labeled_replicas = 3;
  s.ready_replicas = 1;
  s.available_replicas = 2;
  s.terminating_replicas = -1;
  s.observed_generation = -1;
  const api::FieldErrors errs = validate_replica_set_status(s);
  std::vector<std::string> messages;
  for (const api::FieldError& e : errs)
    messages.push_back(e.message());
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                "status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0",
                "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
                "status.fullyLabeledReplicas: Invalid value: 3: cannot be greater than "
                "status.replicas",
                "status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas",
            }));
  ReplicaSetStatus negative;
  negative.replicas = -1;
  // The zero counts are then also "greater than status.replicas", as upstream reports.
  const api::FieldErrors neg = validate_replica_set_status(negative);
  ASSERT_EQ(neg.size(), 4u);
  EXPECT_EQ(neg[0].field, "status.replicas");
  EXPECT_EQ(neg[1].field, "status.fullyLabeledReplicas");
  EXPECT_TRUE(validate_replica_set_status(ReplicaSetStatus{}).empty());
}

TEST(ReplicaSetUtils, StatusJsonRoundTripKeepsUnknownMembers) {
  const json::value in = json::parse(R"({"replicas":2,"readyReplicas":1,"observedGeneration":3,
      "futureField":"x","conditions":[{"type":"ReplicaFailure","status":"True",
      "lastTransitionTime":"2024-06-15T12:00:00Z","reason":"FailedCreate","message":"m","extra":1}]})");
  ReplicaSetStatus s = ReplicaSetStatus::from_json(&in);
  EXPECT_EQ(s.replicas, 2);
  EXPECT_EQ(s.ready_replicas, 1);
  EXPECT_FALSE(s.terminating_replicas);
  ASSERT_EQ(s.conditions.size(), 1u);
  s.ready_replicas = 0;
  s.terminating_replicas = 0;
  json::object out = in.as_object();
  s.write_to(out);
  EXPECT_EQ(
      json::serialize(out),
      R"({"replicas":2,"terminatingReplicas":0,"observedGeneration":3,"conditions":[)"
      R"({"type":"ReplicaFailure","status":"True","lastTransitionTime":"2024-06-15T12:00:00Z",)"
      R"("reason":"FailedCreate","message":"m","extra":1}],"futureField":"x"})");
  EXPECT_EQ(ReplicaSetStatus::from_json(nullptr), ReplicaSetStatus{});
}

TEST(ReplicaSetUtils, ViewFromJson) {
  const json::object rs = json::parse(R"({"metadata":{"name":"web","namespace":"ns","uid":"u",
      "generation":5,"deletionTimestamp":"2024-06-15T12:00:00Z"},
      "spec":{"replicas":0,"minReadySeconds":7,"selector":{"matchLabels":{"app":"web"}},
              "template":{"metadata":{"labels":{"app":"web","tier":"fe"}}}},
      "status":{"replicas":1}})")
                              .as_object();
  const auto v = ReplicaSetView::from_json(rs);
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->key(), "ns/web");
  EXPECT_EQ(v->uid, "u");
  EXPECT_EQ(v->generation, 5);
  EXPECT_TRUE(v->being_deleted);
  EXPECT_EQ(v->spec_replicas, 0);
  EXPECT_EQ(v->min_ready_seconds, 7);
  ASSERT_TRUE(v->selector);
  EXPECT_EQ(v->template_labels.size(), 2u);
  EXPECT_EQ(v->status.replicas, 1);
  EXPECT_EQ(ReplicaSetView::from_json(json::object{})->spec_replicas, 1);
  const auto bad = ReplicaSetView::from_json(
      json::parse(R"({"spec":{"selector":{"matchLabels":{"a":1}}}})").as_object());
  EXPECT_FALSE(bad.ok());
}

TEST(ReplicaSetUtils, FilterClaimedPods) {
  const auto mine = kcm::testing::parse_cached_pod(R"({"metadata":{"labels":{"app":"web"},
      "ownerReferences":[{"uid":"rs","controller":true}]}})");
  const auto mine_relabeled = kcm::testing::parse_cached_pod(R"({"metadata":{"labels":{"app":"db"},
      "ownerReferences":[{"uid":"rs","controller":true}]}})");
  const auto not_controller = kcm::testing::parse_cached_pod(R"({"metadata":{"labels":{"app":"web"},
      "ownerReferences":[{"uid":"rs"}]}})");
  const auto other = kcm::testing::parse_cached_pod(R"({"metadata":{"labels":{"app":"web"},
      "ownerReferences":[{"uid":"x","controller":true}]}})");
  const auto sel = *api::labels::parse("app=web");
  EXPECT_EQ(filter_claimed_pods("rs", sel, {&mine, &mine_relabeled, &not_controller, &other}),
            (std::vector<const controller::CachedPod*>{&mine}));
}

TEST(ReplicaSetUtils, AvailabilityRequeue) {
  const auto ready_at = [](const char* t) {
    json::object p;
    p["status"] = {
        {"conditions",
         json::array{{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", t}}}}};
    return kcm::testing::cached_pod(p);
  };
  const auto a = ready_at("2024-06-15T12:00:00Z");
  const auto b = ready_at("2024-06-15T12:00:04Z");
  const std::vector<const controller::CachedPod*> pods = {&a, &b};
  ReplicaSetStatus s;
  s.ready_replicas = 2;
  s.available_replicas = 0;
  const api::Time now = at("2024-06-15T12:00:05Z");
  using std::chrono::seconds;
  // a becomes available at :10, b at :14.
  EXPECT_EQ(availability_requeue_after(10, s, pods, now, now), seconds(5));
  EXPECT_EQ(availability_requeue_after(10, s, pods, now, at("2024-06-15T12:00:07Z")), seconds(3));
  EXPECT_EQ(availability_requeue_after(10, s, pods, now, at("2024-06-15T12:00:11Z")), seconds(0));
  // Nothing pending (all deadlines passed): fall back to minReadySeconds.
  EXPECT_EQ(availability_requeue_after(1, s, pods, now, now), seconds(1));
  s.available_replicas = 2;
  EXPECT_FALSE(availability_requeue_after(10, s, pods, now, now));
  s.available_replicas = 0;
  EXPECT_FALSE(availability_requeue_after(0, s, pods, now, now));
}

}  // namespace
}  // namespace kcm::controllers::replicaset
