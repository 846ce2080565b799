// The Pod strategy: create preparation (status, QoS, generation, gated
// condition, affinity label keys), update rules and status updates.
#include <gtest/gtest.h>

#include "local/registry/pod_qos.h"
#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::has_message;
using testing::messages;
using testing::obj;

json::object created_pod(std::string_view spec_extra = "", std::string_view container_extra = "") {
  std::string text = R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"web-0","namespace":"default","labels":{"app":"web","tier":"fe"},
                "resourceVersion":"7"},
    "spec":{"containers":[{"name":"app","image":"nginx:1.25")";
  text += container_extra;
  text += "}]";
  text += spec_extra;
  text += "}}";
  json::object pod = obj(text);
  auto strategy = pod_strategy();
  strategy->apply_defaults(pod);
  strategy->prepare_for_create(pod);
  return pod;
}

json::object& pod_spec(json::object& pod) {
  return pod["spec"].as_object();
}

TEST(PodStrategy, CreateSetsStatusQosAndGeneration) {
  json::object pod = created_pod();
  EXPECT_EQ(pod["status"], obj(R"({"phase":"Pending","qosClass":"BestEffort"})"));
  EXPECT_EQ(pod["metadata"].as_object()["generation"], 1);
  EXPECT_TRUE(pod_strategy()->validate(pod).empty()) << messages(pod_strategy()->validate(pod));

  json::object guaranteed =
      created_pod("", R"(,"resources":{"limits":{"cpu":"1","memory":"1Gi"}})");
  EXPECT_EQ(guaranteed["status"].as_object()["qosClass"], "Guaranteed");
}

TEST(PodQos, Classes) {
  struct Case {
    const char* spec;
    const char* qos;
  };
  const Case cases[] = {
      {R"({"containers":[{"name":"a"}]})", "BestEffort"},
      {R"({"containers":[{"name":"a","resources":{"requests":{"cpu":"0"}}}]})", "BestEffort"},
      {R"({"containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]})", "Burstable"},
      {R"({"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},
          "requests":{"cpu":"1","memory":"1Gi"}}}]})",
       "Guaranteed"},
      {R"({"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},
          "requests":{"cpu":"500m","memory":"1Gi"}}}]})",
       "Burstable"},
      {R"({"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},
          "requests":{"cpu":"1","memory":"1Gi"}}},{"name":"b"}]})",
       "Burstable"},
      {R"({"containers":[{"name":"a","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}}]})",
       "Burstable"},
      {R"({"containers":[{"name":"a","resources":{"limits":{"example.com/gpu":"1"}}}]})",
       "BestEffort"},
      {R"({"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}},
          "containers":[{"name":"a"}]})",
       "Guaranteed"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(compute_pod_qos(obj(c.spec)), c.qos) << c.spec;
  }
}

TEST(PodStrategy, SchedulingGatedCondition) {
  json::object pod = created_pod(R"(,"schedulingGates":[{"name":"example.com/wait"}])");
  const auto& conditions = pod["status"].as_object()["conditions"].as_array();
  ASSERT_EQ(conditions.size(), 1u);
  const auto& c = conditions[0].as_object();
  EXPECT_EQ(c.at("type"), "PodScheduled");
  EXPECT_EQ(c.at("status"), "False");
  EXPECT_EQ(c.at("reason"), "SchedulingGated");
  EXPECT_EQ(c.at("message"), "Scheduling is blocked due to non-empty scheduling gates");
  EXPECT_TRUE(c.at("lastTransitionTime").is_string());
}

TEST(PodStrategy, AffinityLabelKeysBecomeExpressions) {
  json::object pod = created_pod(R"(,"affinity":{"podAntiAffinity":{
    "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone",
      "labelSelector":{"matchLabels":{"app":"web"}},
      "matchLabelKeys":["tier","missing"],"mismatchLabelKeys":["app"]}]}})");
  const auto& term = pod_spec(pod)["affinity"]
                         .at("podAntiAffinity")
                         .at("requiredDuringSchedulingIgnoredDuringExecution")
                         .as_array()[0];
  EXPECT_EQ(term.at("labelSelector"),
            json::parse(R"({"matchLabels":{"app":"web"},"matchExpressions":[
              {"key":"tier","operator":"In","values":["fe"]},
              {"key":"app","operator":"NotIn","values":["web"]}]})"));
  const auto errs = pod_strategy()->validate(pod);
  EXPECT_TRUE(errs.empty()) << messages(errs);
}

TEST(PodStrategy, UpdateRules) {
  const json::object old = created_pod(R"(,"activeDeadlineSeconds":100,
    "tolerations":[{"key":"a","operator":"Exists","effect":"NoExecute","tolerationSeconds":10}])");
  auto strategy = pod_strategy();

  json::object ok = old;
  pod_spec(ok)["containers"].as_array()[0].as_object()["image"] = "nginx:1.26";
  pod_spec(ok)["activeDeadlineSeconds"] = 50;
  pod_spec(ok)["tolerations"].as_array()[0].as_object()["tolerationSeconds"] = 20;
  pod_spec(ok)["tolerations"].as_array().emplace_back(
      json::object{{"key", "b"}, {"operator", "Exists"}});
  strategy->prepare_for_update(ok, old);
  EXPECT_TRUE(strategy->validate_update(ok, old).empty())
      << messages(strategy->validate_update(ok, old));
  // Spec changes bump the generation.
  EXPECT_EQ(ok["metadata"].as_object()["generation"], 2);

  struct Case {
    std::function<void(json::object&)> mutate;
    const char* message;  // prefix of one error
  };
  const std::vector<Case> cases = {
      {[](json::object& p) { pod_spec(p)["restartPolicy"] = "Never"; },
       "spec: Forbidden: pod updates may not change fields other than "
       "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
       "`spec.tolerations` (only additions to existing tolerations),"
       "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously "
       "negative)\n"},
      {[](json::object& p) {
         pod_spec(p)["containers"].as_array().emplace_back(
             json::object{{"name", "b"}, {"image", "i"}});
       },
       "spec.containers: Forbidden: pod updates may not add or remove containers"},
      {[](json::object& p) { pod_spec(p)["activeDeadlineSeconds"] = 200; },
       "spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous "
       "value"},
      {[](json::object& p) { pod_spec(p).erase("activeDeadlineSeconds"); },
       "spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer "
       "to nil value"},
      {[](json::object& p) { pod_spec(p)["tolerations"] = json::array(); },
       "spec.tolerations: Forbidden: existing toleration can not be modified except its "
       "tolerationSeconds"},
      {[](json::object& p) {
         pod_spec(p)["schedulingGates"] = json::array{json::object{{"name", "late"}}};
       },
       "spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new "
       "scheduling gate 'late'"},
      {[](json::object& p) { pod_spec(p)["containers"].as_array()[0].as_object()["image"] = ""; },
       "spec.containers[0].image: Required value"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    json::object pod = old;
    c.mutate(pod);
    strategy->apply_defaults(pod);
    strategy->prepare_for_update(pod, old);
    const auto errs = strategy->validate_update(pod, old);
    bool found = false;
    for (const auto& e : errs)
      found = found || e.message().starts_with(c.message);
    EXPECT_TRUE(found) << messages(errs);
  }
}

// Specs compare as the decoded Go structs: a map entry with an empty value
// and a pointer set to zero are changes (forbidden, and a new generation);
// a plain field set to its zero value is not.
TEST(PodStrategy, UpdatesCompareSpecsAsTheGoStructs) {
  const json::object old =
      created_pod(R"(,"nodeSelector":{"disk":"ssd"},"securityContext":{"runAsNonRoot":true})");
  auto strategy = pod_strategy();
  const std::function<void(json::object&)> changes[] = {
      [](json::object& p) { pod_spec(p)["nodeSelector"].as_object()["zone"] = ""; },
      [](json::object& p) { pod_spec(p)["securityContext"].as_object()["runAsUser"] = 0; },
  };
  for (const auto& change : changes) {
    json::object pod = old;
    change(pod);
    strategy->prepare_for_update(pod, old);
    const auto errs = strategy->validate_update(pod, old);
    ASSERT_EQ(errs.size(), 1u) << messages(errs);
    EXPECT_TRUE(errs[0].message().starts_with(
        "spec: Forbidden: pod updates may not change fields other than "))
        << messages(errs);
    EXPECT_EQ(pod["metadata"].as_object()["generation"], 2);
  }
  json::object same = old;
  pod_spec(same)["hostNetwork"] = false;
  strategy->prepare_for_update(same, old);
  EXPECT_TRUE(strategy->validate_update(same, old).empty())
      << messages(strategy->validate_update(same, old));
  EXPECT_EQ(same["metadata"].as_object()["generation"], 1);
}

TEST(PodStrategy, GatedPodsMayAddNodeSelectors) {
  const json::object old = created_pod(R"(,"schedulingGates":[{"name":"wait"}],
    "nodeSelector":{"disk":"ssd"})");
  auto strategy = pod_strategy();
  json::object added = old;
  pod_spec(added)["nodeSelector"].as_object()["zone"] = "a";
  EXPECT_TRUE(strategy->validate_update(added, old).empty())
      << messages(strategy->validate_update(added, old));
  json::object changed = old;
  pod_spec(changed)["nodeSelector"].as_object()["disk"] = "hdd";
  EXPECT_TRUE(has_message(strategy->validate_update(changed, old),
                          "spec.nodeSelector: Invalid value: map[string]string{\"disk\":\"hdd\"}: "
                          "only additions to spec.nodeSelector are allowed (no mutations or "
                          "deletions)"))
      << messages(strategy->validate_update(changed, old));
}

TEST(PodStrategy, StatusUpdates) {
  json::object old = created_pod(R"(,"nodeName":"node-1","restartPolicy":"Never")");
  old["metadata"].as_object()["ownerReferences"] = json::parse(
      R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u1","controller":true}])");
  old["status"].as_object()["observedGeneration"] = 1;
  old["status"].as_object()["containerStatuses"] =
      json::parse(R"([{"name":"app","state":{"terminated":{"exitCode":0}}}])");
  auto strategy = pod_strategy();

  json::object update = old;
  update["metadata"].as_object().erase("ownerReferences");
  pod_spec(update)["nodeName"] = "elsewhere";
  update["status"] = obj(R"({"phase":"Running","podIP":"10.1.0.4",
    "containerStatuses":[{"name":"app","state":{"running":{}}}]})");
  strategy->apply_defaults(update);
  strategy->prepare_for_status_update(update, old);
  // Spec and owner references come from the stored pod; qosClass and
  // observedGeneration are kept; podIPs mirrors podIP.
  EXPECT_EQ(pod_spec(update)["nodeName"], "node-1");
  EXPECT_TRUE(update["metadata"].as_object().contains("ownerReferences"));
  EXPECT_EQ(update["status"].as_object()["qosClass"], "BestEffort");
  EXPECT_EQ(update["status"].as_object()["observedGeneration"], 1);
  EXPECT_EQ(update["status"].as_object()["podIPs"], json::parse(R"([{"ip":"10.1.0.4"}])"));
  const auto errs = strategy->validate_status_update(update, old);
  EXPECT_TRUE(has_message(errs,
                          "status.containerStatuses[0].state: Forbidden: may not be "
                          "transitioned to non-terminated state"))
      << messages(errs);

  json::object bad = old;
  bad["status"] = obj(R"({"phase":"Running","qosClass":"Guaranteed",
    "podIPs":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],
    "conditions":[{"type":"bad type!","status":"True"}]})");
  const auto bad_errs = strategy->validate_status_update(bad, old);
  for (const char* m :
       {"status.qosClass: Invalid value: \"Guaranteed\": field is immutable",
        "status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:\"10.0.0.1\"}, "
        "core.PodIP{IP:\"10.0.0.2\"}}: may specify no more than one IP for each IP family"}) {
    EXPECT_TRUE(has_message(bad_errs, m)) << m << "\n" << messages(bad_errs);
  }
  bool condition_error = false;
  for (const auto& e : bad_errs)
    condition_error = condition_error || e.field == "metadata.conditions[0].Type";
  EXPECT_TRUE(condition_error) << messages(bad_errs);
}

TEST(PodStrategy, GracefulDeletePeriod) {
  auto strategy = pod_strategy();
  json::object pod = created_pod(R"(,"nodeName":"n")");
  EXPECT_EQ(strategy->graceful_delete_period(pod, std::nullopt), 30);
  EXPECT_EQ(strategy->graceful_delete_period(pod, 5), 5);
  EXPECT_EQ(strategy->graceful_delete_period(pod, -3), 1);
  json::object unscheduled = created_pod();
  EXPECT_EQ(strategy->graceful_delete_period(unscheduled, 10), 0);
}

}  // namespace
}  // namespace kcm::local::registry
