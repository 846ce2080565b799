// Namespace, Node, Event, Lease, ConfigMap and Secret strategies: defaults and validation.
#include <gtest/gtest.h>

#include "api/base64.h"
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

TEST(ConfigMapStrategy, Validation) {
  auto strategy = config_map_strategy();
  json::object cm = obj(R"({"metadata":{"name":"app","namespace":"default"},
    "data":{"app.properties":"a=1","LOG_LEVEL":"debug"},"binaryData":{"logo.png":"iVBORw=="}})");
  EXPECT_TRUE(strategy->validate(cm).empty()) << messages(strategy->validate(cm));

  json::object bad = obj(R"({"data":{"a b":"x","..":"y","same":"z"},
    "binaryData":{"same":"eg==","-ok_.1":"eg=="}})");
  const auto errs = strategy->validate(bad);
  for (const char* m :
       {"data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric "
        "characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex "
        "used for validation is '[-._a-zA-Z0-9]+')",
        "data[..]: Invalid value: \"..\": must not be '..'",
        "data[same]: Invalid value: \"same\": duplicate of key present in binaryData"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
  EXPECT_EQ(errs.size(), 3u) << messages(errs);

  // 1 MiB in all, binaryData counted decoded: 1,048,576 bytes pass, one more fails.
  json::object big = obj(R"({"data":{"a":""},"binaryData":{"b":"YWFh"}})");
  big["data"].as_object()["a"] = std::string(1024 * 1024 - 3, 'x');
  EXPECT_TRUE(strategy->validate(big).empty()) << messages(strategy->validate(big));
  big["data"].as_object()["a"] = std::string(1024 * 1024 - 2, 'x');
  EXPECT_TRUE(
      has_message(strategy->validate(big), ": Too long: may not be more than 1048576 bytes"))
      << messages(strategy->validate(big));
}

TEST(ConfigMapStrategy, ImmutableStaysAsItIs) {
  auto strategy = config_map_strategy();
  const json::object old = obj(R"({"metadata":{"name":"app"},"immutable":true,
    "data":{"a":"1"},"binaryData":{"b":"eg=="}})");
  EXPECT_TRUE(strategy->validate_update(old, old).empty());
  // Metadata may change.
  json::object relabelled = old;
  relabelled["metadata"].as_object()["labels"] = json::object{{"tier", "web"}};
  EXPECT_TRUE(strategy->validate_update(relabelled, old).empty());

  json::object changed = obj(R"({"metadata":{"name":"app"},"immutable":false,
    "data":{"a":"2"},"binaryData":{}})");
  const auto errs = strategy->validate_update(changed, old);
  for (const char* m : {"immutable: Forbidden: field is immutable when `immutable` is set",
                        "data: Forbidden: field is immutable when `immutable` is set",
                        "binaryData: Forbidden: field is immutable when `immutable` is set"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
  // Unset is as good as false; an empty map differs from none (reflect.DeepEqual).
  json::object unset = obj(R"({"metadata":{"name":"app"},"data":{"a":"1"},
    "binaryData":{"b":"eg=="}})");
  EXPECT_EQ(messages(strategy->validate_update(unset, old)),
            messages({api::forbidden("immutable", "field is immutable when `immutable` is set")}));
  const json::object plain_old = obj(R"({"metadata":{"name":"app"},"immutable":true})");
  json::object empty_data = obj(R"({"metadata":{"name":"app"},"immutable":true,"data":{}})");
  EXPECT_TRUE(has_message(strategy->validate_update(empty_data, plain_old),
                          "data: Forbidden: field is immutable when `immutable` is set"));
  // A mutable ConfigMap may change, and become immutable.
  const json::object mutable_old = obj(R"({"metadata":{"name":"app"},"data":{"a":"1"}})");
  EXPECT_TRUE(strategy->validate_update(old, mutable_old).empty());
}

TEST(SecretStrategy, DecodingDefaultsTypeAndFoldsStringData) {
  auto strategy = secret_strategy();
  json::object secret = obj(R"({"metadata":{"name":"s"},"data":{"a":"MQ==","b":"Mg=="},
    "stringData":{"b":"two","c":"three"}})");
  strategy->apply_defaults(secret);
  EXPECT_EQ(json::value(secret), json::parse(R"({"metadata":{"name":"s"},"type":"Opaque",
    "data":{"a":"MQ==","b":"dHdv","c":"dGhyZWU="}})"));
  json::object typed = obj(R"({"type":"kubernetes.io/tls","stringData":{}})");
  strategy->apply_defaults(typed);
  EXPECT_EQ(json::value(typed), json::parse(R"({"type":"kubernetes.io/tls"})"));
  std::vector<std::string> values;
  strategy->field_values(typed, values);
  EXPECT_EQ(values, std::vector<std::string>{"kubernetes.io/tls"});
}

TEST(SecretStrategy, ValidationByType) {
  auto strategy = secret_strategy();
  struct Case {
    const char* secret;
    std::vector<std::string> errors;
  };
  const std::vector<Case> cases = {
      {R"({"type":"Opaque","data":{"ok":"eA=="}})", {}},
      {R"({"type":"example.com/custom"})", {}},
      {R"({"type":"Opaque","data":{"a b":"eA=="}})",
       {"data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric "
        "characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex "
        "used for validation is '[-._a-zA-Z0-9]+')"}},
      {R"({"type":"kubernetes.io/tls","data":{"tls.crt":""}})", {"data[tls.key]: Required value"}},
      {R"({"type":"kubernetes.io/service-account-token"})",
       {"metadata.annotations[kubernetes.io/service-account.name]: Required value"}},
      {R"({"type":"kubernetes.io/service-account-token","metadata":{"annotations":
         {"kubernetes.io/service-account.name":"default"}}})",
       {}},
      {R"({"type":"kubernetes.io/basic-auth","data":{"password":""}})", {}},
      {R"({"type":"kubernetes.io/basic-auth"})",
       {"data[username]: Required value", "data[password]: Required value"}},
      {R"({"type":"kubernetes.io/ssh-auth","data":{"ssh-privatekey":""}})",
       {"data[ssh-privatekey]: Required value"}},
      {R"({"type":"kubernetes.io/dockerconfigjson"})", {"data[.dockerconfigjson]: Required value"}},
      // base64 of {"auths":{}}, of [1] and of {
      {R"({"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"eyJhdXRocyI6e319"}})",
       {}},
      {R"({"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"WzFd"}})",
       {"data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": json: cannot "
        "unmarshal array into Go value of type map[string]interface {}"}},
      {R"({"type":"kubernetes.io/dockercfg","data":{".dockercfg":"ew=="}})",
       {"data[.dockercfg]: Invalid value: \"<secret contents redacted>\": unexpected end of "
        "JSON input"}},
  };
  for (const Case& c : cases) {
    const auto errs = strategy->validate(obj(c.secret));
    std::vector<std::string> got;
    for (const auto& e : errs)
      got.push_back(e.message());
    EXPECT_EQ(got, c.errors) << c.secret;
  }
  json::object big = obj(R"({"type":"Opaque","data":{}})");
  big["data"].as_object()["a"] = api::base64_encode(std::string(1024 * 1024 + 1, 'x'));
  EXPECT_TRUE(
      has_message(strategy->validate(big), "data: Too long: may not be more than 1048576 bytes"))
      << messages(strategy->validate(big));
}

TEST(SecretStrategy, Updates) {
  auto strategy = secret_strategy();
  const json::object old = obj(R"({"type":"Opaque","immutable":true,"data":{"a":"MQ=="}})");
  EXPECT_TRUE(strategy->validate_update(old, old).empty());
  const json::object changed =
      obj(R"({"type":"example.com/other","immutable":false,"data":{"a":"Mg=="}})");
  const auto errs = strategy->validate_update(changed, old);
  for (const char* m : {"type: Invalid value: \"example.com/other\": field is immutable",
                        "immutable: Forbidden: field is immutable when `immutable` is set",
                        "data: Forbidden: field is immutable when `immutable` is set"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
  EXPECT_EQ(errs.size(), 3u) << messages(errs);
}

}  // namespace
}  // namespace kcm::local::registry
