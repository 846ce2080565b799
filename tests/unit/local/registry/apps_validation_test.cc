// Deployment and ReplicaSet validation: upstream's exact messages, including
// bad values printed as Go values.
#include <gtest/gtest.h>

#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::has_message;
using testing::messages;
using testing::obj;

json::object deployment(std::string_view spec_extra = "") {
  std::string text = R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","namespace":"default","resourceVersion":"3"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}})";
  text += spec_extra;
  text += "}}";
  json::object d = obj(text);
  deployment_strategy()->apply_defaults(d);
  return d;
}

json::object& spec_of(json::object& o) {
  return o["spec"].as_object();
}

struct Case {
  const char* name;
  std::function<void(json::object&)> mutate;
  const char* message;  // one of the errors, exactly
};

TEST(AppsValidation, ValidDeploymentHasNoErrors) {
  const json::object d = deployment();
  const auto errs = deployment_strategy()->validate(d);
  EXPECT_TRUE(errs.empty()) << messages(errs);
}

TEST(AppsValidation, DeploymentMessages) {
  const std::vector<Case> cases = {
      {"both zero",
       [](json::object& d) {
         auto& ru = spec_of(d)["strategy"].as_object()["rollingUpdate"].as_object();
         ru["maxSurge"] = 0;
         ru["maxUnavailable"] = 0;
       },
       "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, "
       "IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"},
      {"percent over 100",
       [](json::object& d) {
         spec_of(d)["strategy"].as_object()["rollingUpdate"].as_object()["maxUnavailable"] = "101%";
       },
       "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, "
       "IntVal:0, StrVal:\"101%\"}: must not be greater than 100%"},
      {"malformed percent",
       [](json::object& d) {
         spec_of(d)["strategy"].as_object()["rollingUpdate"].as_object()["maxSurge"] = "5.5%";
       },
       "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, "
       "StrVal:\"5.5%\"}: a valid percent string must be a numeric string followed by an ending "
       "'%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"},
      {"negative surge",
       [](json::object& d) {
         spec_of(d)["strategy"].as_object()["rollingUpdate"].as_object()["maxSurge"] = -1;
       },
       "spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal "
       "to 0"},
      {"empty selector", [](json::object& d) { spec_of(d)["selector"] = json::object(); },
       "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), "
       "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for "
       "deployment"},
      {"empty matchLabels",
       [](json::object& d) {
         spec_of(d)["selector"] = json::object{{"matchLabels", json::object()}};
       },
       "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, "
       "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for "
       "deployment"},
      {"missing selector also reports the template",
       [](json::object& d) { spec_of(d).erase("selector"); },
       "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
       "`selector` does not match template `labels`"},
      {"selector mismatch",
       [](json::object& d) {
         spec_of(d)["selector"] = json::object{{"matchLabels", json::object{{"app", "db"}}}};
       },
       "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
       "`selector` does not match template `labels`"},
      {"recreate with rollingUpdate",
       [](json::object& d) { spec_of(d)["strategy"].as_object()["type"] = "Recreate"; },
       "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is "
       "'Recreate'"},
      {"unknown strategy",
       [](json::object& d) {
         spec_of(d)["strategy"] = json::object{{"type", "BlueGreen"}};
       },
       "spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:\"BlueGreen\", "
       "RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: \"Recreate\", "
       "\"RollingUpdate\""},
      {"restart policy",
       [](json::object& d) {
         spec_of(d)["template"].as_object()["spec"].as_object()["restartPolicy"] = "Never";
       },
       "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: "
       "\"Always\""},
      {"active deadline",
       [](json::object& d) {
         spec_of(d)["template"].as_object()["spec"].as_object()["activeDeadlineSeconds"] = 5;
       },
       "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet "
       "is not Supported"},
      {"progress deadline", [](json::object& d) { spec_of(d)["minReadySeconds"] = 700; },
       "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"},
      {"negative replicas", [](json::object& d) { spec_of(d)["replicas"] = -2; },
       "spec.replicas: Invalid value: -2: must be greater than or equal to 0"},
      {"template labels report on spec.template.labels",
       [](json::object& d) {
         spec_of(d)["template"].as_object()["metadata"].as_object()["labels"] =
             json::object{{"app", "web"}, {"bad key!", "x"}};
       },
       "spec.template.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
       "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"container in template",
       [](json::object& d) {
         spec_of(d)["template"].as_object()["spec"].as_object()["containers"] = json::array();
       },
       "spec.template.spec.containers: Required value"},
      {"bad finalizer",
       [](json::object& d) { d["metadata"].as_object()["finalizers"] = json::array{"custom"}; },
       "metadata.finalizers[0]: Invalid value: \"custom\": name is neither a standard finalizer "
       "name nor is it fully qualified"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    json::object d = deployment();
    c.mutate(d);
    const auto errs = deployment_strategy()->validate(d);
    EXPECT_TRUE(has_message(errs, c.message)) << messages(errs);
  }
}

TEST(AppsValidation, SelectorIsImmutable) {
  const json::object old = deployment();
  json::object d = deployment();
  spec_of(d)["selector"] =
      json::object{{"matchLabels", json::object{{"app", "web"}, {"tier", "x"}}}};
  spec_of(d)["template"].as_object()["metadata"].as_object()["labels"] =
      json::object{{"app", "web"}, {"tier", "x"}};
  const auto errs = deployment_strategy()->validate_update(d, old);
  ASSERT_EQ(errs.size(), 1u) << messages(errs);
  EXPECT_EQ(
      errs[0].message(),
      "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"
      "\"app\":\"web\", \"tier\":\"x\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: "
      "field is immutable");
  // An equivalent selector ({} vs absent members) is not a change.
  json::object same = deployment();
  spec_of(same)["selector"].as_object()["matchExpressions"] = json::array();
  EXPECT_TRUE(deployment_strategy()->validate_update(same, old).empty());
}

TEST(AppsValidation, DeploymentStatus) {
  const json::object old = deployment();
  struct StatusCase {
    const char* status;
    const char* old_status;
    const char* message;
  };
  const std::vector<StatusCase> cases = {
      {R"({"replicas":1,"updatedReplicas":2})", "{}",
       "status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas"},
      {R"({"replicas":3,"readyReplicas":1,"availableReplicas":2})", "{}",
       "status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas"},
      {R"({"replicas":-1})", "{}",
       "status.replicas: Invalid value: -1: must be greater than or equal to 0"},
      {R"({"collisionCount":1})", R"({"collisionCount":2})",
       "status.collisionCount: Invalid value: 1: cannot be decremented"},
      {R"({})", R"({"collisionCount":2})",
       "status.collisionCount: Invalid value: 0: cannot be decremented"},
      {R"({"terminatingReplicas":-1})", "{}",
       "status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.status);
    json::object d = deployment();
    d["status"] = obj(c.status);
    json::object o = old;
    o["status"] = obj(c.old_status);
    const auto errs = deployment_strategy()->validate_status_update(d, o);
    EXPECT_TRUE(has_message(errs, c.message)) << messages(errs);
  }
  json::object good = deployment();
  good["status"] = obj(R"({"replicas":3,"updatedReplicas":3,"readyReplicas":3,
                           "availableReplicas":2,"collisionCount":1})");
  EXPECT_TRUE(deployment_strategy()->validate_status_update(good, old).empty());
}

TEST(AppsValidation, ReplicaSet) {
  json::object rs = obj(R"({"apiVersion":"apps/v1","kind":"ReplicaSet",
    "metadata":{"name":"web-abc","namespace":"default"},
    "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}})");
  replica_set_strategy()->apply_defaults(rs);
  EXPECT_TRUE(replica_set_strategy()->validate(rs).empty())
      << messages(replica_set_strategy()->validate(rs));

  json::object bad = rs;
  bad["spec"].as_object()["minReadySeconds"] = -1;
  bad["spec"].as_object()["selector"] =
      json::object{{"matchExpressions",
                    json::array{json::object{
                        {"key", "app"}, {"operator", "Foo"}, {"values", json::array{"web"}}}}}};
  const auto errs = replica_set_strategy()->validate(bad);
  EXPECT_TRUE(has_message(errs,
                          "spec.minReadySeconds: Invalid value: -1: must be greater than or "
                          "equal to 0"))
      << messages(errs);
  EXPECT_TRUE(has_message(errs,
                          "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]"
                          "string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1."
                          "LabelSelectorRequirement{Key:\"app\", Operator:\"Foo\", Values:[]string{"
                          "\"web\"}}}}: invalid label selector"))
      << messages(errs);

  json::object status = rs;
  status["status"] = obj(R"({"replicas":1,"fullyLabeledReplicas":2})");
  const auto status_errs = replica_set_strategy()->validate_status_update(status, rs);
  EXPECT_TRUE(has_message(status_errs,
                          "status.fullyLabeledReplicas: Invalid value: 2: cannot be "
                          "greater than status.replicas"))
      << messages(status_errs);
}

TEST(AppsStrategies, GenerationAndStatusRules) {
  auto strategy = deployment_strategy();
  json::object d = deployment();
  d["status"] = obj(R"({"replicas":5})");
  strategy->prepare_for_create(d);
  EXPECT_EQ(d["status"], json::object());
  EXPECT_EQ(d["metadata"].as_object()["generation"], 1);

  json::object updated = d;
  updated["spec"].as_object()["replicas"] = 4;
  strategy->prepare_for_update(updated, d);
  EXPECT_EQ(updated["metadata"].as_object()["generation"], 2);
}

}  // namespace
}  // namespace kcm::local::registry

namespace kcm::local::registry {
namespace {

// What `kubectl create deployment web --image=nginx` sends, and what a real
// cluster stores for it.
TEST(AppsStrategies, KubectlCreateDeploymentBody) {
  json::object d = testing::obj(R"({"kind":"Deployment","apiVersion":"apps/v1",
    "metadata":{"name":"web","creationTimestamp":null,"labels":{"app":"web"}},
    "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx","resources":{}}]}},
      "strategy":{}},"status":{}})");
  d["metadata"].as_object()["namespace"] = "default";
  auto strategy = deployment_strategy();
  strategy->apply_defaults(d);
  strategy->prepare_for_create(d);
  EXPECT_TRUE(strategy->validate(d).empty()) << testing::messages(strategy->validate(d));
  EXPECT_EQ(d["spec"], testing::obj(R"({"replicas":1,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"nginx","image":"nginx","resources":{},
        "imagePullPolicy":"Always","terminationMessagePath":"/dev/termination-log",
        "terminationMessagePolicy":"File"}],
        "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
        "securityContext":{},"schedulerName":"default-scheduler"}},
    "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
    "revisionHistoryLimit":10,"progressDeadlineSeconds":600})"));
}

}  // namespace
}  // namespace kcm::local::registry
