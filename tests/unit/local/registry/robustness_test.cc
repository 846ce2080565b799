// Defaulting and validation take whatever JSON a request carries: members of
// the wrong type, nulls and odd shapes must neither crash nor throw.
#include <gtest/gtest.h>

#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::obj;

// Replaces every member of `v` (recursively), one at a time, by each of a few
// values of other types, and runs `fn` on each variant.
void for_each_variant(const json::value& root, const std::function<void(const json::value&)>& fn) {
  const json::value replacements[] = {
      nullptr, 1, -7, "x", true, json::array{1, "a"}, json::object{{"k", nullptr}}};
  std::function<void(json::value&, json::value&)> walk = [&](json::value& node, json::value& doc) {
    if (json::object* o = node.if_object()) {
      for (auto& kv : *o) {
        const json::value saved = kv.value();
        for (const auto& r : replacements) {
          kv.value() = r;
          fn(doc);
        }
        kv.value() = saved;
        walk(kv.value(), doc);
      }
    } else if (json::array* a = node.if_array()) {
      for (auto& item : *a) {
        const json::value saved = item;
        for (const auto& r : replacements) {
          item = r;
          fn(doc);
        }
        item = saved;
        walk(item, doc);
      }
    }
  };
  json::value doc = root;
  walk(doc, doc);
}

void exercise(const std::shared_ptr<const Strategy>& strategy, const json::value& v) {
  if (!v.is_object()) return;
  json::object o = v.as_object();
  strategy->apply_defaults(o);
  json::object created = o;
  strategy->prepare_for_create(created);
  (void)strategy->validate(created);
  json::object updated = o;
  strategy->prepare_for_update(updated, created);
  (void)strategy->validate_update(updated, created);
  json::object status = o;
  strategy->prepare_for_status_update(status, created);
  (void)strategy->validate_status_update(status, created);
  std::vector<std::string> fields;
  strategy->field_values(o, fields);
}

TEST(RegistryRobustness, WrongTypesEverywhere) {
  const std::pair<std::shared_ptr<const Strategy>, const char*> inputs[] = {
      {pod_strategy(), R"({"metadata":{"name":"p","namespace":"d","labels":{"a":"b"},
        "annotations":{"controller.kubernetes.io/pod-deletion-cost":"1"}},
        "spec":{"volumes":[{"name":"v","projected":{"sources":[{"configMap":{"name":"c",
          "items":[{"key":"k","path":"p"}]}}]}}],
        "containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],
          "env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
          "resources":{"limits":{"cpu":"1"}},"volumeMounts":[{"name":"v","mountPath":"/v"}],
          "livenessProbe":{"httpGet":{"port":80}},"securityContext":{"runAsUser":1}}],
        "affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
          {"topologyKey":"z","labelSelector":{"matchLabels":{"a":"b"}},"matchLabelKeys":["a"]}]}},
        "tolerations":[{"key":"k","operator":"Exists"}],"schedulingGates":[{"name":"g"}]},
        "status":{"podIPs":[{"ip":"10.0.0.1"}],"conditions":[{"type":"Ready"}]}})"},
      {deployment_strategy(), R"({"metadata":{"name":"d","namespace":"n"},
        "spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"},"matchExpressions":[
          {"key":"k","operator":"In","values":["v"]}]},
          "strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":"10%"}},
          "template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c",
            "image":"i"}]}}},"status":{"replicas":1,"collisionCount":1}})"},
      {replica_set_strategy(), R"({"metadata":{"name":"r","namespace":"n"},
        "spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},
          "spec":{"containers":[{"name":"c","image":"i"}]}}},"status":{"replicas":1}})"},
      {namespace_strategy(), R"({"metadata":{"name":"n"},"spec":{"finalizers":["kubernetes"]},
        "status":{"phase":"Active"}})"},
      {node_strategy(), R"({"metadata":{"name":"n"},"spec":{"taints":[{"key":"k",
        "effect":"NoSchedule"}],"podCIDRs":["10.0.0.0/24"]},"status":{"capacity":{"cpu":"1"},
        "addresses":[{"type":"InternalIP","address":"1.2.3.4"}]}})"},
      {core_event_strategy(), R"({"metadata":{"name":"e","namespace":"n"},
        "involvedObject":{"namespace":"n"},"eventTime":"2026-01-01T00:00:00.000000Z",
        "source":{"component":"c"},"series":{"count":2}})"},
      {events_event_strategy(), R"({"metadata":{"name":"e","namespace":"n"},
        "regarding":{"namespace":"n"},"eventTime":"2026-01-01T00:00:00.000000Z",
        "series":{"count":2,"lastObservedTime":"2026-01-01T00:00:00.000000Z"}})"},
      {lease_strategy(), R"({"metadata":{"name":"l","namespace":"n"},
        "spec":{"leaseDurationSeconds":1,"strategy":"a/b","preferredHolder":"h"}})"},
  };
  for (const auto& input : inputs) {
    const auto& strategy = input.first;  // clang 14 cannot capture structured bindings
    const json::object base = obj(input.second);
    exercise(strategy, base);
    for_each_variant(base, [&](const json::value& v) { exercise(strategy, v); });
  }
}

}  // namespace
}  // namespace kcm::local::registry
