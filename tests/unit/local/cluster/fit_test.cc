#include "local/cluster/fit.h"

#include <gtest/gtest.h>

namespace kcm::local::cluster {
namespace {

json::object parse(std::string_view text) {
  return json::parse(text).as_object();
}

NodeFacts node(std::string name, std::map<std::string, std::string> labels = {}) {
  NodeFacts n;
  n.name = std::move(name);
  n.labels = std::move(labels);
  n.allocatable = {4000, 8LL << 30, 0, 110};
  return n;
}

PodFacts pod(std::string_view spec) {
  return PodFacts::from(
      parse(std::string(R"({"metadata":{"namespace":"default","name":"p"},"spec":)") +
            std::string(spec) + "}"));
}

const char* kSmall = R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]})";
const char* kHuge = R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"64"}}}]})";

TEST(FilterNode, ResourcesFit) {
  EXPECT_EQ(filter_node(pod(kSmall), node("n")).code, FitCode::kFits);
  const FitResult r = filter_node(pod(kHuge), node("n"));
  EXPECT_EQ(r.code, FitCode::kUnschedulable);
  EXPECT_EQ(r.reasons, std::vector<std::string>{"Insufficient cpu"});
}

TEST(FilterNode, CountsRequestsOfPodsAlreadyOnTheNode) {
  NodeFacts n = node("n");
  n.requested = {3950, 0, 0, 1};
  EXPECT_EQ(filter_node(pod(kSmall), n).reasons, std::vector<std::string>{"Insufficient cpu"});
  n.requested = {3900, 0, 0, 1};
  EXPECT_EQ(filter_node(pod(kSmall), n).code, FitCode::kFits);
}

TEST(FilterNode, ReportsEveryShortResourceAndPodSlots) {
  NodeFacts n = node("n");
  n.requested = {0, 0, 0, 110};
  const FitResult r = filter_node(
      pod(R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"5","memory":"9Gi"}}}]})"),
      n);
  EXPECT_EQ(r.reasons,
            (std::vector<std::string>{"Too many pods", "Insufficient cpu", "Insufficient memory"}));
}

TEST(FilterNode, BestEffortPodsFitWhilePodSlotsRemain) {
  NodeFacts n = node("n");
  n.requested = {4000, 8LL << 30, 0, 3};
  EXPECT_EQ(filter_node(pod(R"({"containers":[{"name":"c"}]})"), n).code, FitCode::kFits);
}

TEST(FilterNode, NodeSelectorAndAffinity) {
  const NodeFacts n = node("kcm-local-node-2", {{"disk", "ssd"}, {"zone", "a"}, {"gen", "5"}});
  struct Case {
    std::string spec;
    bool fits;
  };
  const std::vector<Case> cases = {
      {R"({"nodeSelector":{"disk":"ssd"},"containers":[]})", true},
      {R"({"nodeSelector":{"disk":"hdd"},"containers":[]})", false},
      {R"({"nodeSelector":{"missing":"x"},"containers":[]})", false},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]},
          {"matchExpressions":[{"key":"zone","operator":"In","values":["a"]},{"key":"gen","operator":"Gt","values":["4"]}]}]}}},"containers":[]})",
       true},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"gen","operator":"Lt","values":["5"]}]}]}}},"containers":[]})",
       false},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"disk","operator":"NotIn","values":["hdd"]},{"key":"gpu","operator":"DoesNotExist"}]}]}}},"containers":[]})",
       true},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchFields":[{"key":"metadata.name","operator":"In","values":["kcm-local-node-2"]}]}]}}},"containers":[]})",
       true},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{}]}}},"containers":[]})",
       false},
  };
  for (const auto& c : cases) {
    const FitResult r = filter_node(pod(c.spec), n);
    EXPECT_EQ(r.code == FitCode::kFits, c.fits) << c.spec;
    if (!c.fits) {
      EXPECT_EQ(r.code, FitCode::kUnresolvable);
      EXPECT_EQ(r.reasons,
                std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
    }
  }
}

TEST(FilterNode, TaintsCordonAndReadiness) {
  NodeFacts tainted = node("n");
  tainted.taints.push_back({"dedicated", "gpu", "NoSchedule"});
  EXPECT_EQ(filter_node(pod(kSmall), tainted).reasons,
            std::vector<std::string>{"node(s) had untolerated taint {dedicated: gpu}"});
  EXPECT_EQ(filter_node(pod(R"({"tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu",
                                  "effect":"NoSchedule"}],"containers":[]})"),
                        tainted)
                .code,
            FitCode::kFits);
  EXPECT_EQ(
      filter_node(pod(R"({"tolerations":[{"operator":"Exists"}],"containers":[]})"), tainted).code,
      FitCode::kFits);
  NodeFacts soft = node("n");
  soft.taints.push_back({"x", "", "PreferNoSchedule"});
  EXPECT_EQ(filter_node(pod(kSmall), soft).code, FitCode::kFits);

  NodeFacts cordoned = node("n");
  cordoned.unschedulable = true;
  const FitResult r = filter_node(pod(kHuge), cordoned);  // the first failing filter decides
  EXPECT_EQ(r.code, FitCode::kUnresolvable);
  EXPECT_EQ(r.reasons, std::vector<std::string>{"node(s) were unschedulable"});

  const NodeFacts not_ready = NodeFacts::from(parse(
      R"({"metadata":{"name":"n"},"status":{"conditions":[{"type":"Ready","status":"False"}],
          "allocatable":{"cpu":"4","memory":"1Gi","pods":"10"}}})"));
  EXPECT_EQ(
      filter_node(pod(kSmall), not_ready).reasons,
      std::vector<std::string>{"node(s) had untolerated taint {node.kubernetes.io/not-ready: }"});
}

TEST(NodeFacts, ReadsLabelsSpecAndAllocatable) {
  const NodeFacts n = NodeFacts::from(parse(
      R"({"metadata":{"name":"a","labels":{"k":"v"}},
          "spec":{"unschedulable":true,"taints":[{"key":"t","value":"1","effect":"NoExecute"}]},
          "status":{"conditions":[{"type":"Ready","status":"True"}],
                    "allocatable":{"cpu":"2","memory":"1Gi","pods":"5"}}})"));
  EXPECT_EQ(n.name, "a");
  EXPECT_EQ(n.labels.at("k"), "v");
  EXPECT_TRUE(n.unschedulable);
  ASSERT_EQ(n.taints.size(), 1u);
  EXPECT_EQ(n.taints[0].effect, "NoExecute");
  EXPECT_EQ(n.allocatable.milli_cpu, 2000);
  EXPECT_EQ(n.allocatable.pods, 5);
}

TEST(SchedulePod, SpreadsToTheLeastAllocatedNode) {
  std::vector<NodeFacts> nodes = {node("kcm-local-node-1"), node("kcm-local-node-2"),
                                  node("kcm-local-node-3")};
  const PodFacts p = pod(R"({"containers":[{"name":"c"}]})");
  std::vector<std::string> chosen;
  for (int i = 0; i < 3; ++i) {
    const Decision d = schedule_pod(p, nodes);
    ASSERT_FALSE(d.node.empty()) << d.message;
    chosen.push_back(d.node);
    for (auto& n : nodes) {
      if (n.name == d.node) n.add_pod(p);
    }
  }
  EXPECT_EQ(chosen,
            (std::vector<std::string>{"kcm-local-node-1", "kcm-local-node-2", "kcm-local-node-3"}));
  // A busier node loses to an idle one.
  nodes[0].requested = nodes[0].non_zero_requested = {3000, 0, 0, 1};
  nodes[1].requested = nodes[1].non_zero_requested = {0, 0, 0, 0};
  EXPECT_EQ(schedule_pod(p, nodes).node, "kcm-local-node-2");
}

TEST(SchedulePod, HonoursTheNodeSelector) {
  const std::vector<NodeFacts> nodes = {node("a", {{"role", "web"}}), node("b", {{"role", "db"}})};
  EXPECT_EQ(schedule_pod(pod(R"({"nodeSelector":{"role":"db"},"containers":[]})"), nodes).node,
            "b");
}

TEST(SchedulePod, ExplainsWhyNothingFits) {
  const std::vector<NodeFacts> three = {node("a"), node("b"), node("c")};
  Decision d = schedule_pod(pod(kHuge), three);
  EXPECT_EQ(d.node, "");
  EXPECT_EQ(
      d.message,
      "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No "
      "preemption victims found for incoming pod.");
  d = schedule_pod(pod(R"({"nodeSelector":{"disk":"nowhere"},"containers":[]})"), three);
  EXPECT_EQ(d.message,
            "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. "
            "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
  EXPECT_EQ(schedule_pod(pod(kSmall), {}).message, "no nodes available to schedule pods");
}

TEST(FitErrorMessage, HistogramIsSortedAsStrings) {
  std::vector<FitResult> results;
  for (int i = 0; i < 10; ++i)
    results.push_back({FitCode::kUnschedulable, {"Insufficient memory"}});
  results.push_back({FitCode::kUnresolvable, {"node(s) were unschedulable"}});
  results.push_back({FitCode::kUnschedulable, {"Insufficient cpu", "Insufficient memory"}});
  EXPECT_EQ(fit_error_message(results, false),
            "0/12 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable, 11 "
            "Insufficient memory. preemption: 0/12 nodes are available: 1 Preemption is not "
            "helpful for scheduling, 11 No preemption victims found for incoming pod.");
  EXPECT_EQ(fit_error_message({{FitCode::kUnschedulable, {"Insufficient cpu"}}}, true),
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

TEST(Toleration, MatchesAsUpstream) {
  const Taint t{"k", "v", "NoSchedule"};
  EXPECT_TRUE((Toleration{"k", "Equal", "v", "NoSchedule"}.tolerates(t)));
  EXPECT_TRUE((Toleration{"k", "", "v", ""}.tolerates(t)));
  EXPECT_TRUE((Toleration{"k", "Exists", "", ""}.tolerates(t)));
  EXPECT_TRUE((Toleration{"", "Exists", "", ""}.tolerates(t)));
  EXPECT_FALSE((Toleration{"k", "Equal", "w", ""}.tolerates(t)));
  EXPECT_FALSE((Toleration{"k", "Exists", "", "NoExecute"}.tolerates(t)));
  EXPECT_FALSE((Toleration{"other", "Exists", "", ""}.tolerates(t)));
}

}  // namespace
}  // namespace kcm::local::cluster
