// POST pods/NAME/binding, as upstream's BindingREST.Create.
#include "local/apiserver/pod_binding.h"

#include <gtest/gtest.h>

namespace kcm::local::apiserver {
namespace {

json::object parse(std::string_view text) {
  return json::parse(text).as_object();
}

const json::object kPod = parse(R"({"metadata":{"name":"web","namespace":"default","uid":"u1",
    "resourceVersion":"7"},"spec":{"containers":[{"name":"c","image":"nginx"}]},
    "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
    "reason":"Unschedulable","message":"0/1 nodes are available","lastProbeTime":null,
    "lastTransitionTime":"2026-01-01T00:00:00Z"}]}})");

json::object binding(std::string_view extra_meta = "", std::string_view target = "node-1") {
  return parse(std::string(R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":"web")") +
               std::string(extra_meta) + R"(},"target":{"kind":"Node","name":")" +
               std::string(target) + R"("}})");
}

TEST(CheckPodBinding, ValidatesAsUpstream) {
  EXPECT_TRUE(check_pod_binding("default", "web", binding()));
  struct Case {
    std::string ns, name;
    json::object binding;
    int code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"default", "other", binding(), 400, "name in URL does not match name in Binding object"},
      {"default", "web", binding(R"(,"namespace":"kube-system")"), 400,
       "the namespace of the provided object does not match the namespace sent on the request"},
      {"default", "web", binding("", ""), 500, "target.name: Required value"},
      {"default", "web", parse(R"({"metadata":{"name":"web"},"target":{"kind":"Pod"}})"), 500,
       "[target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", "
       "target.name: Required value]"},
  };
  for (const auto& c : cases) {
    auto r = check_pod_binding(c.ns, c.name, c.binding);
    ASSERT_FALSE(r) << c.message;
    EXPECT_EQ(r.error().code, c.code) << c.message;
    EXPECT_EQ(r.error().message, c.message);
  }
}

TEST(BindPod, SetsNodeNameAnnotationsAndPodScheduled) {
  auto r = bind_pod(kPod, binding(R"(,"annotations":{"a":"b"})"), "2026-02-02T00:00:00Z");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("spec").at("nodeName"), "node-1");
  EXPECT_EQ(r->at("metadata").at("annotations").at("a"), "b");
  const json::array& conditions = r->at("status").at("conditions").as_array();
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0], json::parse(R"({"type":"PodScheduled","status":"True",
      "lastProbeTime":null,"lastTransitionTime":"2026-02-02T00:00:00Z"})"));
}

TEST(BindPod, ConflictsAsUpstream) {
  json::object bound = kPod;
  bound["spec"].as_object()["nodeName"] = "node-2";
  json::object deleting = kPod;
  deleting["metadata"].as_object()["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  json::object gated = kPod;
  gated["spec"].as_object()["schedulingGates"] = json::parse(R"([{"name":"g"}])");
  const std::vector<std::tuple<json::object, json::object, std::string>> cases = {
      {bound, binding(),
       "Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to "
       "node \"node-2\""},
      {deleting, binding(),
       "Operation cannot be fulfilled on pods/binding \"web\": pod web is being deleted, cannot "
       "be assigned to a host"},
      {gated, binding(),
       "Operation cannot be fulfilled on pods/binding \"web\": pod web has non-empty "
       ".spec.schedulingGates"},
      {kPod, binding(R"(,"uid":"u2")"),
       "Operation cannot be fulfilled on pods \"web\": Precondition failed: UID in precondition: "
       "u2, UID in object meta: u1"},
      {kPod, binding(R"(,"resourceVersion":"6")"),
       "Operation cannot be fulfilled on pods \"web\": Precondition failed: ResourceVersion in "
       "precondition: 6, ResourceVersion in object meta: 7"},
  };
  for (const auto& [pod, b, message] : cases) {
    auto r = bind_pod(pod, b, "2026-02-02T00:00:00Z");
    ASSERT_FALSE(r) << message;
    EXPECT_EQ(r.error().code, 409);
    EXPECT_EQ(r.error().message, message);
  }
}

}  // namespace
}  // namespace kcm::local::apiserver
