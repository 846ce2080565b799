// kubectl describe (deployment, pod, namespace, node) and kubectl explain, for
// every bundled kubectl: the key lines upstream prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class DescribeTest : public ClientTest {};

std::string node_yaml(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels:\n    kubernetes.io/hostname: " + name +
         "\n    node-role.kubernetes.io/worker: \"\"\n"
         "status:\n"
         "  conditions:\n"
         "  - {type: Ready, status: \"True\", reason: KubeletReady, message: kubelet is posting "
         "ready status, lastHeartbeatTime: \"2024-01-01T00:00:00Z\", lastTransitionTime: "
         "\"2024-01-01T00:00:00Z\"}\n"
         "  addresses:\n  - {type: InternalIP, address: 10.0.0.9}\n"
         "  capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
         "  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
         "  nodeInfo: {kubeletVersion: v1.30.1, osImage: Debian GNU/Linux 12 (bookworm), "
         "kernelVersion: 6.1.0, containerRuntimeVersion: containerd://1.7.13, operatingSystem: "
         "linux, architecture: amd64, machineID: \"\", systemUUID: \"\", bootID: \"\", "
         "kubeProxyVersion: \"\"}\n";
}

TEST_P(DescribeTest, Deployment) {
  create(deployment_yaml("web"));
  const CommandResult r = ok({"describe", "deployment", "web"});
  EXPECT_EQ(r.err, "");
  const std::string& out = r.out;
  EXPECT_THAT(out, HasLine(R"(Name:\s+web)"));
  EXPECT_THAT(out, HasLine(R"(Namespace:\s+)" + ns()));
  EXPECT_THAT(
      out, HasLine(R"(CreationTimestamp:\s+\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4})"));
  EXPECT_THAT(out, HasLine(R"(Labels:\s+app=web)"));
  EXPECT_THAT(out, HasLine(R"(Annotations:\s+<none>)"));
  EXPECT_THAT(out, HasLine(R"(Selector:\s+app=web)"));
  EXPECT_THAT(
      out,
      HasLine(R"(Replicas:\s+3 desired \| 0 updated \| 0 total \| 0 available \| 0 unavailable)"));
  EXPECT_THAT(out, HasLine(R"(StrategyType:\s+RollingUpdate)"));
  EXPECT_THAT(out, HasLine(R"(MinReadySeconds:\s+0)"));
  EXPECT_THAT(out, HasLine(R"(RollingUpdateStrategy:\s+25% max unavailable, 25% max surge)"));
  EXPECT_THAT(out, HasLine(R"(Pod Template:)"));
  EXPECT_THAT(out, HasLine(R"(  Labels:\s+app=web)"));
  EXPECT_THAT(out, HasLine(R"(  Containers:)"));
  EXPECT_THAT(out, HasLine(R"(   nginx:)"));
  EXPECT_THAT(out, HasLine(R"(    Image:\s+nginx:1.25)"));
  EXPECT_THAT(out, HasLine(R"(    Port:\s+<none>)"));
  EXPECT_THAT(out, HasLine(R"(    Environment:\s+<none>)"));
  EXPECT_THAT(out, HasLine(R"(  Volumes:\s+<none>)"));
  // No ReplicaSets: kubectl leaves the Old/NewReplicaSet lines out.
  EXPECT_THAT(out, Not(HasLine(R"(NewReplicaSet:.*)")));
  EXPECT_THAT(out, HasLine(R"(Events:\s+<none>)"));

  // Status conditions and the ReplicaSets the deployment owns.
  const std::string uid = jsonpath("deploy/web", "{.metadata.uid}");
  create(
      "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-5d4f8c\n"
      "  labels: {app: web, pod-template-hash: 5d4f8c}\n"
      "  annotations: {deployment.kubernetes.io/revision: \"1\"}\n"
      "  ownerReferences:\n  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: " +
      uid +
      ", controller: true, blockOwnerDeletion: true}\n"
      "spec:\n  replicas: 3\n  selector: {matchLabels: {app: web, pod-template-hash: 5d4f8c}}\n"
      "  template:\n    metadata: {labels: {app: web, pod-template-hash: 5d4f8c}}\n"
      "    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\n");
  ok({"patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"observedGeneration":1,"replicas":3,"updatedReplicas":3,"readyReplicas":3,)"
      R"("availableReplicas":3,"conditions":[{"type":"Available","status":"True",)"
      R"("reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."},)"
      R"({"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable",)"
      R"("message":"ReplicaSet \"web-5d4f8c\" has successfully progressed."}]}})"});
  ok({"patch", "rs", "web-5d4f8c", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"replicas":3,"readyReplicas":3,"availableReplicas":3}})"});
  const std::string later = ok({"describe", "deploy", "web"}).out;
  EXPECT_THAT(
      later,
      HasLine(R"(Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable)"));
  EXPECT_THAT(later, HasLine(R"(Conditions:)"));
  EXPECT_THAT(later, HasLine(R"(  Type\s+Status\s+Reason)"));
  EXPECT_THAT(later, HasLine(R"(  Available\s+True\s+MinimumReplicasAvailable)"));
  EXPECT_THAT(later, HasLine(R"(  Progressing\s+True\s+NewReplicaSetAvailable)"));
  EXPECT_THAT(later, HasLine(R"(NewReplicaSet:\s+web-5d4f8c \(3/3 replicas created\))"));
}

TEST_P(DescribeTest, PodWithEvents) {
  create(pod_yaml("p", "app: web, tier: fe"));
  const std::string uid = jsonpath("pod/p", "{.metadata.uid}");
  create(
      "apiVersion: v1\nkind: Event\nmetadata:\n  name: p.1\ninvolvedObject:\n"
      "  apiVersion: v1\n  kind: Pod\n  name: p\n  namespace: " +
      ns() + "\n  uid: " + uid +
      "\nreason: FailedScheduling\nmessage: 0/1 nodes are available.\ntype: Warning\n"
      "source: {component: default-scheduler}\ncount: 4\nfirstTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(30)) + "\"\nlastTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(10)) + "\"\n");
  const CommandResult r = ok({"describe", "pod", "p"});
  const std::string& out = r.out;
  EXPECT_THAT(out, HasLine(R"(Name:\s+p)"));
  EXPECT_THAT(out, HasLine(R"(Namespace:\s+)" + ns()));
  EXPECT_THAT(out, HasLine(R"(Priority:\s+0)"));
  EXPECT_THAT(out, HasLine(R"(Node:\s+<none>)"));
  EXPECT_THAT(out, HasLine(R"(Labels:\s+app=web)"));
  EXPECT_THAT(out, HasLine(R"(\s+tier=fe)"));
  EXPECT_THAT(out, HasLine(R"(Status:\s+Pending)"));
  EXPECT_THAT(out, HasLine(R"(IP:\s*)"));
  EXPECT_THAT(out, HasLine(R"(Containers:)"));
  EXPECT_THAT(out, HasLine(R"(  c:)"));
  EXPECT_THAT(out, HasLine(R"(    Image:\s+busybox)"));
  EXPECT_THAT(out, HasLine(R"(QoS Class:\s+BestEffort)"));
  // Admission defaults every pod gets: priority 0 (Priority) and the
  // not-ready/unreachable tolerations (DefaultTolerationSeconds).
  EXPECT_THAT(
      out, HasLine(R"(Tolerations:\s+node.kubernetes.io/not-ready:NoExecute op=Exists for 300s)"));
  EXPECT_THAT(out, HasLine(R"(\s+node.kubernetes.io/unreachable:NoExecute op=Exists for 300s)"));
  EXPECT_THAT(out, HasLine(R"(Events:)"));
  EXPECT_THAT(out, HasLine(R"(  Type\s+Reason\s+Age\s+From\s+Message)"));
  EXPECT_THAT(
      out,
      HasLine(
          R"(  Warning\s+FailedScheduling\s+10h \(x4 over 30h\)\s+default-scheduler\s+0/1 nodes are available\.)"));
}

TEST_P(DescribeTest, Namespace) {
  const CommandResult r = ok({"describe", "namespace", ns()});
  EXPECT_THAT(r.out, HasLine(R"(Name:\s+)" + ns()));
  EXPECT_THAT(r.out, HasLine(R"(Labels:\s+kubernetes.io/metadata.name=)" + ns()));
  EXPECT_THAT(r.out, HasLine(R"(Annotations:\s+<none>)"));
  EXPECT_THAT(r.out, HasLine(R"(Status:\s+Active)"));
  EXPECT_THAT(r.out, HasLine(R"(No resource quota\.)"));
  EXPECT_THAT(r.out, HasLine(R"(No LimitRange resource\.)"));
}

TEST_P(DescribeTest, Node) {
  const std::string node = ns() + "-node";
  create(node_yaml(node) + "---\n" +
         "apiVersion: v1\nkind: Pod\nmetadata:\n  name: on-node\nspec:\n  nodeName: " + node +
         "\n  containers:\n  - name: c\n    image: busybox\n    resources:\n"
         "      requests: {cpu: 500m, memory: 1Gi}\n      limits: {cpu: \"1\", memory: 1Gi}\n");
  const CommandResult r = ok({"describe", "node", node});
  const std::string& out = r.out;
  EXPECT_THAT(out, HasLine(R"(Name:\s+)" + node));
  EXPECT_THAT(out, HasLine(R"(Roles:\s+worker)"));
  EXPECT_THAT(out, HasLine(R"(Labels:\s+kubernetes.io/hostname=)" + node));
  EXPECT_THAT(out, HasLine(R"(\s+node-role.kubernetes.io/worker=)"));
  EXPECT_THAT(out, HasLine(R"(Unschedulable:\s+false)"));
  EXPECT_THAT(out, HasLine(R"(Conditions:)"));
  EXPECT_THAT(out, HasLine(R"(  Ready\s+True\s+.*KubeletReady\s+kubelet is posting ready status)"));
  EXPECT_THAT(out, HasLine(R"(Addresses:)"));
  EXPECT_THAT(out, HasLine(R"(  InternalIP:\s+10.0.0.9)"));
  EXPECT_THAT(out, HasLine(R"(Capacity:)"));
  EXPECT_THAT(out, HasLine(R"(  cpu:\s+4)"));
  EXPECT_THAT(out, HasLine(R"(  memory:\s+8Gi)"));
  EXPECT_THAT(out, HasLine(R"(  pods:\s+110)"));
  EXPECT_THAT(out, HasLine(R"(Allocatable:)"));
  EXPECT_THAT(out, HasLine(R"(System Info:)"));
  EXPECT_THAT(out, HasLine(R"(  Kubelet Version:\s+v1.30.1)"));
  EXPECT_THAT(out, HasLine(R"(  OS Image:\s+Debian GNU/Linux 12 \(bookworm\))"));
  EXPECT_THAT(out, HasLine(R"(Non-terminated Pods:\s+\(1 in total\))"));
  EXPECT_THAT(
      out, HasLine(R"(  )" + ns() +
                   R"(\s+on-node\s+500m \(12%\)\s+1 \(25%\)\s+1Gi \(12%\)\s+1Gi \(12%\)\s+\S+)"));
  EXPECT_THAT(out, HasLine(R"(Allocated resources:)"));
  EXPECT_THAT(out, HasLine(R"(  cpu\s+500m \(12%\)\s+1 \(25%\))"));
  EXPECT_THAT(out, HasLine(R"(  memory\s+1Gi \(12%\)\s+1Gi \(12%\))"));
  EXPECT_THAT(out, HasLine(R"(Events:\s+<none>)"));
  ok({"delete", "pod", "on-node", "--grace-period=0", "--force"});
  ok({"delete", "node", node});
}

TEST_P(DescribeTest, NotFound) {
  const CommandResult r = run({"describe", "deployment", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
}

TEST_P(DescribeTest, ExplainFields) {
  const CommandResult strategy = ok({"explain", "deployment.spec.strategy"});
  EXPECT_THAT(strategy.out, HasLine(R"(GROUP:\s+apps)"));
  EXPECT_THAT(strategy.out, HasLine(R"(KIND:\s+Deployment)"));
  EXPECT_THAT(strategy.out, HasLine(R"(VERSION:\s+v1)"));
  EXPECT_THAT(strategy.out, HasLine(R"(FIELD:\s+strategy <DeploymentStrategy>)"));
  // A described field (our own wording; upstream's prose is not copied).
  EXPECT_THAT(strategy.out, ::testing::ContainsRegex("\nDESCRIPTION:\n    [A-Za-z]"));
  EXPECT_THAT(strategy.out, HasLine(R"(  rollingUpdate\t<RollingUpdateDeployment>)"));
  EXPECT_THAT(strategy.out, HasLine(R"(  type\t<string>)"));

  const CommandResult ports = ok({"explain", "pod.spec.containers.ports"});
  EXPECT_THAT(ports.out, HasLine(R"(KIND:\s+Pod)"));
  EXPECT_THAT(ports.out, HasLine(R"(VERSION:\s+v1)"));
  EXPECT_THAT(ports.out, HasLine(R"(FIELD:\s+ports <\[\]ContainerPort>)"));
  EXPECT_THAT(ports.out, ::testing::ContainsRegex("\nDESCRIPTION:\n    [A-Za-z]"));
  EXPECT_THAT(ports.out, HasLine(R"(  containerPort\t<integer> -required-)"));
  EXPECT_THAT(ports.out, HasLine(R"(  protocol\t<string>)"));
  EXPECT_THAT(ports.out, HasLine(R"(  hostPort\t<integer>)"));
  EXPECT_THAT(ports.out, Not(HasLine(R"(GROUP:.*)")));

  const CommandResult unknown = run({"explain", "deployment.spec.nope"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("field \"nope\" does not exist"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, DescribeTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DescribeTest);

}  // namespace
}  // namespace kcm::e2e
