// kcm-local as a cluster whose pods run: simulated nodes, the default
// scheduler and kubelets, driven by the real kubectl.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

LocalCluster::Options cluster_options() {
  LocalCluster::Options o;
  o.extra_args = {"--nodes=3", "--pod-ready-delay=500ms", "--pod-terminate-delay=500ms"};
  return o;
}

std::string annotated_pod_yaml(const std::string& name, const std::string& annotations = "",
                               const std::string& extra_spec = "") {
  std::string y = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n";
  if (!annotations.empty()) y += "  annotations:\n" + annotations;
  y += "spec:\n" + extra_spec + "  containers:\n  - name: web\n    image: nginx\n";
  return y;
}

class ClusterTest : public ::testing::Test {
 protected:
  LocalCluster cluster_{cluster_options()};
  Kubectl kubectl_{cluster_};

  std::string ok(const std::vector<std::string>& args, const std::string& input = {}) {
    CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }
  std::string jsonpath(const std::string& what, const std::string& path) {
    CommandResult r = kubectl_({"get", what, "-o", "jsonpath=" + path});
    return r.exit_code == 0 ? r.out : "<" + r.err + ">";
  }
};

TEST_F(ClusterTest, NodesAreReady) {
  const std::string out = ok({"get", "nodes"});
  EXPECT_THAT(out, ContainsRegex(R"(NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION)"));
  EXPECT_THAT(out, ContainsRegex(R"(kcm-local-node-1\s+Ready\s+control-plane\s+\S+\s+v1\.32\.4)"));
  EXPECT_THAT(out, ContainsRegex(R"(kcm-local-node-2\s+Ready\s+<none>\s+\S+\s+v1\.32\.4)"));
  EXPECT_THAT(out, ContainsRegex(R"(kcm-local-node-3\s+Ready\s+<none>)"));
  EXPECT_EQ(jsonpath("node/kcm-local-node-2", "{.metadata.labels.kubernetes\\.io/hostname}"),
            "kcm-local-node-2");
  EXPECT_EQ(
      jsonpath("node/kcm-local-node-2", "{.status.addresses[?(@.type==\"InternalIP\")].address}"),
      "172.18.0.3");
  const std::string leases = ok({"get", "leases", "-n", "kube-node-lease", "-o", "name"});
  EXPECT_EQ(
      leases,
      "lease.coordination.k8s.io/kcm-local-node-1\nlease.coordination.k8s.io/kcm-local-node-2\n"
      "lease.coordination.k8s.io/kcm-local-node-3\n");
  const std::string describe_node = ok({"describe", "node", "kcm-local-node-1"});
  EXPECT_THAT(describe_node,
              ContainsRegex(R"(Ready\s+True\s+.*KubeletReady\s+kubelet is posting ready status)"));
  EXPECT_THAT(describe_node, ContainsRegex(R"(MemoryPressure\s+False)"));
  EXPECT_THAT(describe_node, ContainsRegex(R"(HolderIdentity:\s+kcm-local-node-1)"));
}

TEST_F(ClusterTest, PodIsScheduledRunsAndBecomesReady) {
  ok({"create", "-f", "-"}, annotated_pod_yaml("web-1"));
  ok({"wait", "--for=condition=Ready", "pod/web-1", "--timeout=30s"});
  const std::string wide = ok({"get", "pod", "web-1", "-o", "wide"});
  EXPECT_THAT(
      wide,
      ContainsRegex(
          R"(web-1\s+1/1\s+Running\s+0\s+\S+\s+10\.244\.[0-9]+\.[0-9]+\s+kcm-local-node-[0-9])"));
  const std::string node = jsonpath("pod/web-1", "{.spec.nodeName}");
  const std::string describe = ok({"describe", "pod", "web-1"});
  EXPECT_THAT(describe, ContainsRegex(R"(Status:\s+Running)"));
  EXPECT_THAT(describe, ContainsRegex(R"(Node:\s+)" + node + "/172\\.18\\.0\\.[0-9]+"));
  EXPECT_THAT(
      describe,
      ContainsRegex(
          R"(Normal\s+Scheduled\s+\S+\s+default-scheduler.*\s+Successfully assigned default/web-1 to )" +
          node));
  EXPECT_THAT(describe,
              ContainsRegex(R"(Normal\s+Started\s+\S+\s+kubelet.*\s+Started container web)"));
  EXPECT_THAT(describe, ContainsRegex(R"(Ready\s+True)"));
  EXPECT_THAT(describe, ContainsRegex(R"(Container ID:\s+containerd://[0-9a-f]{64})"));
}

TEST_F(ClusterTest, PodThatFitsNowhereStaysPending) {
  ok({"create", "-f", "-"}, annotated_pod_yaml("nowhere", "", "  nodeSelector:\n    disk: none\n"));
  const std::string message =
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. "
      "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  EXPECT_TRUE(eventually([&] {
    return jsonpath("pod/nowhere", "{.status.conditions[?(@.type==\"PodScheduled\")].message}") ==
           message;
  })) << jsonpath("pod/nowhere", "{.status}");
  EXPECT_EQ(jsonpath("pod/nowhere", "{.status.conditions[?(@.type==\"PodScheduled\")].reason}"),
            "Unschedulable");
  EXPECT_EQ(jsonpath("pod/nowhere", "{.status.phase}"), "Pending");
  std::string describe;
  EXPECT_TRUE(eventually([&] {
    describe = ok({"describe", "pod", "nowhere"});
    return describe.find("FailedScheduling") != std::string::npos;
  })) << describe;
  EXPECT_THAT(describe,
              ContainsRegex(R"(Warning\s+FailedScheduling\s+.*default-scheduler.*\s+)" +
                            std::regex_replace(message, std::regex(R"([.()/])"), R"(\$&)")));
  // Labelling a node to match lets it schedule there.
  ok({"label", "node", "kcm-local-node-3", "disk=none"});
  EXPECT_TRUE(eventually(
      [&] { return jsonpath("pod/nowhere", "{.spec.nodeName}") == "kcm-local-node-3"; }));
}

TEST_F(ClusterTest, CrashAnnotationGivesCrashLoopBackOff) {
  ok({"create", "-f", "-"},
     annotated_pod_yaml(
         "crasher", "    local.kcm.dev/crash: \"true\"\n    local.kcm.dev/crash-backoff: 300ms\n"));
  bool saw_backoff = false;
  EXPECT_TRUE(eventually(
      [&] {
        const std::string row = ok({"get", "pod", "crasher", "--no-headers"});
        saw_backoff = saw_backoff || row.find("CrashLoopBackOff") != std::string::npos;
        return saw_backoff &&
               std::stoi(jsonpath("pod/crasher", "{.status.containerStatuses[0].restartCount}")) >=
                   2;
      },
      std::chrono::seconds(30)));
  EXPECT_EQ(jsonpath("pod/crasher", "{.status.containerStatuses[0].lastState.terminated.exitCode}"),
            "1");
  EXPECT_EQ(jsonpath("pod/crasher", "{.status.containerStatuses[0].lastState.terminated.reason}"),
            "Error");
  EXPECT_THAT(
      ok({"describe", "pod", "crasher"}),
      ContainsRegex(
          R"(Warning\s+BackOff\s+.*kubelet.*Back-off restarting failed container web in pod crasher_default)"));
}

TEST_F(ClusterTest, NeverReadyPodRunsButIsNotReady) {
  ok({"create", "-f", "-"},
     annotated_pod_yaml("lazy", "    local.kcm.dev/never-ready: \"true\"\n"));
  EXPECT_TRUE(eventually([&] { return jsonpath("pod/lazy", "{.status.phase}") == "Running"; }));
  const CommandResult wait =
      kubectl_({"wait", "--for=condition=Ready", "pod/lazy", "--timeout=2s"});
  EXPECT_NE(wait.exit_code, 0) << describe(wait);
  EXPECT_THAT(ok({"get", "pod", "lazy", "--no-headers"}), ContainsRegex(R"(lazy\s+0/1\s+Running)"));
  EXPECT_EQ(jsonpath("pod/lazy", "{.status.conditions[?(@.type==\"Ready\")].reason}"),
            "ContainersNotReady");
}

TEST_F(ClusterTest, DeletedPodTerminatesGracefully) {
  ok({"create", "-f", "-"}, annotated_pod_yaml("doomed"));
  ok({"wait", "--for=condition=Ready", "pod/doomed", "--timeout=30s"});
  // kubectl delete waits until the kubelet has finished the pod.
  const CommandResult r = kubectl_({"delete", "pod", "doomed", "--timeout=30s"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "pod \"doomed\" deleted\n");
  EXPECT_NE(kubectl_({"get", "pod", "doomed"}).exit_code, 0);
  // The kubelet said so.
  EXPECT_THAT(ok({"get", "events", "--field-selector", "involvedObject.name=doomed,reason=Killing",
                  "-o", "jsonpath={.items[*].message}"}),
              HasSubstr("Stopping container web"));
}

TEST_F(ClusterTest, RestartKeepsNodes) {
  const std::string before = ok({"get", "nodes", "-o", "jsonpath={.items[*].metadata.uid}"});
  ok({"label", "node", "kcm-local-node-2", "team=blue"});
  EXPECT_EQ(cluster_.stop(), 0);
  cluster_.start();
  EXPECT_EQ(ok({"get", "nodes", "-o", "jsonpath={.items[*].metadata.uid}"}), before);
  EXPECT_EQ(jsonpath("node/kcm-local-node-2", "{.metadata.labels.team}"), "blue");
  ok({"wait", "--for=condition=Ready", "node/kcm-local-node-1", "--timeout=10s"});
}

}  // namespace
}  // namespace kcm::e2e
