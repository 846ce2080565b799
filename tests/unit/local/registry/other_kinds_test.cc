// Namespace, Node, Event and Lease strategies: defaults and validation.
#include <gtest/gtest.h>

#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::has_message;
using testing::messages;
using testing::obj;

TEST(NamespaceStrategy, CreateKeepsUserFinalizersAndAddsKubernetes) {
  auto strategy = namespace_strategy();
  json::object ns = obj(R"({"metadata":{"name":"team"},"spec":{"finalizers":["example.com/x"]}})");
  strategy->apply_defaults(ns);
  strategy->prepare_for_create(ns);
  EXPECT_EQ(ns["spec"].as_object()["finalizers"], json::parse(R"(["example.com/x","kubernetes"])"));
  EXPECT_EQ(ns["metadata"].as_object()["labels"],
            json::parse(R"({"kubernetes.io/metadata.name":"team"})"));
  EXPECT_TRUE(strategy->validate(ns).empty());

  json::object bad = obj(R"({"metadata":{"name":"team"},"spec":{"finalizers":["custom"]}})");
  strategy->prepare_for_create(bad);
  EXPECT_TRUE(has_message(strategy->validate(bad),
                          "spec.finalizers: Invalid value: \"custom\": name is neither a standard "
                          "finalizer name nor is it fully qualified"))
      << messages(strategy->validate(bad));
  EXPECT_TRUE(has_message(strategy->validate_update(bad, bad),
                          "spec.finalizers[0]: Invalid value: \"custom\": name is neither a "
                          "standard finalizer name nor is it fully qualified"));
}

TEST(NamespaceStrategy, StatusPhase) {
  auto strategy = namespace_strategy();
  json::object ns = obj(R"({"metadata":{"name":"team"},"status":{"phase":"Terminating"}})");
  EXPECT_TRUE(has_message(strategy->validate_status_update(ns, ns),
                          "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if "
                          "`deletionTimestamp` is empty"));
  ns["metadata"].as_object()["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  EXPECT_TRUE(strategy->validate_status_update(ns, ns).empty());
  ns["status"].as_object()["phase"] = "Active";
  EXPECT_TRUE(has_message(strategy->validate_status_update(ns, ns),
                          "status.Phase: Invalid value: \"Active\": may only be 'Terminating' if "
                          "`deletionTimestamp` is not empty"));
}

TEST(NodeStrategy, DefaultsAndValidation) {
  auto strategy = node_strategy();
  json::object node = obj(R"({"metadata":{"name":"n1"},
    "spec":{"podCIDRs":["10.244.1.0/24"],"providerID":"kcm://n1",
            "taints":[{"key":"dedicated","value":"db","effect":"NoSchedule"}]},
    "status":{"capacity":{"cpu":4,"memory":"8192Mi","pods":"110"}}})");
  strategy->apply_defaults(node);
  EXPECT_EQ(node["status"].as_object()["capacity"],
            json::parse(R"({"cpu":"4","memory":"8Gi","pods":"110"})"));
  EXPECT_EQ(node["status"].as_object()["allocatable"], node["status"].as_object()["capacity"]);
  EXPECT_TRUE(strategy->validate(node).empty()) << messages(strategy->validate(node));

  json::object bad = node;
  bad["spec"].as_object()["taints"] = json::parse(
      R"([{"key":"a","effect":"NoSchedule"},{"key":"a","effect":"NoSchedule"},{"key":"b"}])");
  bad["spec"].as_object()["podCIDRs"] = json::parse(R"(["10.0.0.0/8","10.1.0.0/16"])");
  bad["status"].as_object()["capacity"].as_object()["pods"] = "1.5";
  const auto errs = strategy->validate(bad);
  for (const char* m :
       {"metadata.taints[1]: Duplicate value: core.Taint{Key:\"a\", Value:\"\", "
        "Effect:\"NoSchedule\", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and "
        "effect pair",
        "metadata.taints[2].effect: Required value",
        "spec.podCIDRs: Invalid value: []string{\"10.0.0.0/8\", \"10.1.0.0/16\"}: may specify no "
        "more than one CIDR for each IP family",
        "status.capacity.pods: Invalid value: \"1500m\": must be an integer"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }

  json::object changed = node;
  changed["spec"].as_object()["podCIDRs"] = json::parse(R"(["10.244.2.0/24"])");
  changed["spec"].as_object()["providerID"] = "kcm://other";
  const auto update_errs = strategy->validate_update(changed, node);
  EXPECT_TRUE(has_message(update_errs,
                          "spec.podCIDRs: Forbidden: node updates may not change "
                          "podCIDR except from \"\" to valid"));
  EXPECT_TRUE(has_message(update_errs,
                          "spec.providerID: Forbidden: node updates may not change "
                          "providerID except from \"\" to valid"));
}

TEST(EventStrategies, CoreV1LegacyRules) {
  auto strategy = core_event_strategy();
  json::object ev = obj(R"({"metadata":{"name":"web.1","namespace":"default"},
    "involvedObject":{"kind":"Pod","namespace":"default","name":"web"},
    "reason":"Started","message":"ok","type":"Normal","count":1})");
  EXPECT_TRUE(strategy->validate(ev).empty()) << messages(strategy->validate(ev));

  json::object other = ev;
  other["involvedObject"].as_object()["namespace"] = "prod";
  EXPECT_TRUE(has_message(strategy->validate(other),
                          "involvedObject.namespace: Invalid value: \"prod\": does not match "
                          "event.namespace"));

  // With eventTime set the new-style rules apply.
  json::object modern = ev;
  modern["eventTime"] = "2026-01-01T00:00:00.000000Z";
  modern["reason"] = std::string(129, 'r');
  const auto errs = strategy->validate(modern);
  for (const char* m :
       {"reportingController: Required value", "reportingInstance: Required value",
        "action: Required value", "reason: Invalid value: \"\": can have at most 128 characters"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
}

TEST(EventStrategies, EventsV1StrictRules) {
  auto strategy = events_event_strategy();
  json::object ev = obj(R"({"metadata":{"name":"web.1","namespace":"default"},
    "regarding":{"kind":"Pod","namespace":"default","name":"web"},
    "eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"kcm.io/deployment",
    "reportingInstance":"kcm-1","action":"Scaling","reason":"ScalingReplicaSet",
    "note":"scaled","type":"Normal"})");
  EXPECT_TRUE(strategy->validate(ev).empty()) << messages(strategy->validate(ev));

  json::object bad = ev;
  bad["type"] = "Info";
  bad["deprecatedCount"] = 3;
  bad["series"] = json::parse(R"({"count":1})");
  bad.erase("eventTime");
  const auto errs = strategy->validate(bad);
  for (const char* m : {"type: Invalid value: \"\": has invalid value: Info",
                        "count: Invalid value: \"\": needs to be unset",
                        "series.count: Invalid value: \"\": should be at least 2",
                        "series.lastObservedTime: Required value", "eventTime: Required value"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }

  json::object changed = ev;
  changed["note"] = "different";
  changed["reason"] = "Other";
  const auto update_errs = strategy->validate_update(changed, ev);
  EXPECT_TRUE(
      has_message(update_errs, "message: Invalid value: \"different\": field is immutable"));
  int reason_errors = 0;
  for (const auto& e : update_errs)
    reason_errors += e.field == "reason";
  EXPECT_EQ(reason_errors, 2) << messages(update_errs);  // upstream checks reason twice
}

TEST(LeaseStrategy, Validation) {
  auto strategy = lease_strategy();
  json::object lease = obj(R"({"metadata":{"name":"kcm","namespace":"kube-system"},
    "spec":{"holderIdentity":"a","leaseDurationSeconds":15,"leaseTransitions":0}})");
  EXPECT_TRUE(strategy->validate(lease).empty());
  json::object bad = obj(R"({"metadata":{"name":"kcm","namespace":"kube-system"},
    "spec":{"leaseDurationSeconds":0,"leaseTransitions":-1,"strategy":"Newest",
            "preferredHolder":"b"}})");
  const auto errs = strategy->validate(bad);
  for (const char* m :
       {"spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
        "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
        "spec.strategy.strategy: Unsupported value: \"Newest\": supported values: "
        "\"OldestEmulationVersion\""}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
  json::object holder_only = obj(R"({"spec":{"preferredHolder":"b"}})");
  EXPECT_TRUE(has_message(strategy->validate(holder_only),
                          "spec.preferredHolder: Forbidden: may only be specified if `strategy` is "
                          "defined"));
  // Updates run the same checks.
  EXPECT_EQ(strategy->validate_update(bad, lease).size(), errs.size());
}

}  // namespace
}  // namespace kcm::local::registry
