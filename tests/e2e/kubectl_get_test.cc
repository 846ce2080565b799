// kubectl version, api-resources and get, for every bundled kubectl: the exact
// columns and cells upstream prints (server-side Tables), output formats,
// selectors, chunking, watches.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class GetTest : public ClientTest {};

// A ReplicaSet as the deployment controller would create it (none runs yet).
std::string replica_set_yaml(const std::string& deployment, const std::string& hash, int replicas) {
  const std::string name = deployment + "-" + hash;
  return "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: " + name +
         "\n  labels: {app: " + deployment + ", pod-template-hash: \"" + hash +
         "\"}\nspec:\n  replicas: " + std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: " + deployment + ", pod-template-hash: \"" + hash +
         "\"}}\n  template:\n    metadata: {labels: {app: " + deployment +
         ", pod-template-hash: \"" + hash +
         "\"}}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\n";
}

std::string lease_yaml(const std::string& name, const std::string& holder) {
  return "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: " + name +
         "\nspec:\n  holderIdentity: " + holder + "\n  leaseDurationSeconds: 40\n";
}

// A node as a kubelet registers it (status included: a create keeps node status).
std::string ready_node_yaml(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels:\n    kubernetes.io/hostname: " + name +
         "\n    node-role.kubernetes.io/control-plane: \"\"\n"
         "status:\n"
         "  conditions:\n"
         "  - {type: Ready, status: \"True\", reason: KubeletReady, message: kubelet is posting "
         "ready status, lastHeartbeatTime: \"2024-01-01T00:00:00Z\", lastTransitionTime: "
         "\"2024-01-01T00:00:00Z\"}\n"
         "  addresses:\n"
         "  - {type: InternalIP, address: 10.0.0.5}\n"
         "  - {type: Hostname, address: " +
         name +
         "}\n"
         "  capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
         "  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
         "  nodeInfo:\n"
         "    kubeletVersion: v1.30.1\n"
         "    osImage: Debian GNU/Linux 12 (bookworm)\n"
         "    kernelVersion: 6.1.0-18-amd64\n"
         "    containerRuntimeVersion: containerd://1.7.13\n"
         "    operatingSystem: linux\n"
         "    architecture: amd64\n"
         "    machineID: \"\"\n    systemUUID: \"\"\n    bootID: \"\"\n"
         "    kubeProxyVersion: \"\"\n";
}

TEST_P(GetTest, Version) {
  const CommandResult r = ok({"version"});
  if (minor() >= 28) {
    EXPECT_THAT(r.out, HasSubstr("Client Version: v1." + std::to_string(minor()) + "."));
    EXPECT_THAT(r.out, HasSubstr("\nServer Version: " + client().kube_version + "+kcm-local\n"));
    // Matching versions: no skew warning.
    EXPECT_EQ(r.err, "");
  } else {
    EXPECT_THAT(r.out, HasSubstr("Server Version: version.Info{Major:\"1\", Minor:\"" +
                                 std::to_string(minor()) + "\", GitVersion:\"" +
                                 client().kube_version + "+kcm-local\""));
  }
  const CommandResult json = ok({"version", "-o", "json"});
  const std::string server = json.out.substr(json.out.find("\"serverVersion\""));
  EXPECT_THAT(server, HasSubstr("\n    \"major\": \"1\",\n"));
  EXPECT_THAT(server, HasSubstr("\n    \"minor\": \"" + std::to_string(minor()) + "\",\n"));
  EXPECT_THAT(server,
              HasSubstr("\n    \"gitVersion\": \"" + client().kube_version + "+kcm-local\""));
}

TEST_P(GetTest, ApiResources) {
  const CommandResult r = ok({"api-resources"});
  const PrintedTable table = parse_table(r.out);
  EXPECT_TRUE(table.ok) << r.out;
  EXPECT_EQ(table.header,
            (std::vector<std::string>{"NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"}));
  const std::vector<std::string> rows = row_strings(table);
  for (const char* expected : {
           "namespaces|ns|v1|false|Namespace",
           "nodes|no|v1|false|Node",
           "pods|po|v1|true|Pod",
           "events|ev|v1|true|Event",
           "deployments|deploy|apps/v1|true|Deployment",
           "replicasets|rs|apps/v1|true|ReplicaSet",
           "leases||coordination.k8s.io/v1|true|Lease",
           "events|ev|events.k8s.io/v1|true|Event",
       }) {
    EXPECT_THAT(rows, ::testing::Contains(expected)) << r.out;
  }

  const CommandResult wide = ok({"api-resources", "-o", "wide"});
  const std::vector<std::string> wide_rows = row_strings(parse_table(wide.out));
  const std::string all_verbs = "create,delete,deletecollection,get,list,patch,update,watch";
  for (const std::string& expected : {
           "pods|po|v1|true|Pod|" + all_verbs + "|all",
           "deployments|deploy|apps/v1|true|Deployment|" + all_verbs + "|all",
           "replicasets|rs|apps/v1|true|ReplicaSet|" + all_verbs + "|all",
           std::string(
               "namespaces|ns|v1|false|Namespace|create,delete,get,list,patch,update,watch|"),
           "nodes|no|v1|false|Node|" + all_verbs + "|",
           "leases||coordination.k8s.io/v1|true|Lease|" + all_verbs + "|",
       }) {
    EXPECT_THAT(wide_rows, ::testing::Contains(expected)) << wide.out;
  }

  const CommandResult cluster_scoped = ok({"api-resources", "--namespaced=false", "-o", "name"});
  EXPECT_THAT(cluster_scoped.out, HasSubstr("namespaces\n"));
  EXPECT_THAT(cluster_scoped.out, HasSubstr("nodes\n"));
  EXPECT_THAT(cluster_scoped.out, Not(HasSubstr("pods")));
}

TEST_P(GetTest, DeploymentTable) {
  create(deployment_yaml("web") + "---\n" + deployment_yaml("api", "registry.k8s.io/pause:3.9", 1));
  expect_table(ok({"get", "deployments"}).out, {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"},
               {"api|0/1|0|0|<age>", "web|0/3|0|0|<age>"});
  expect_table(ok({"get", "deploy", "web"}).out,
               {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, {"web|0/3|0|0|<age>"});
  expect_table(
      ok({"get", "deploy", "-o", "wide"}).out,
      {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"},
      {"api|0/1|0|0|<age>|nginx|registry.k8s.io/pause:3.9|app=api",
       "web|0/3|0|0|<age>|nginx|nginx:1.25|app=web"});
  // Status as a controller would write it.
  ok({"patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"replicas":3,"updatedReplicas":2,"readyReplicas":1,"availableReplicas":1}})"});
  expect_table(ok({"get", "deploy", "web"}).out,
               {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, {"web|1/3|2|1|<age>"});
}

TEST_P(GetTest, PodTable) {
  create(pod_yaml("p1") + "---\n" + pod_yaml("p2", "app: web", "  nodeName: node-x\n"));
  expect_table(ok({"get", "pods"}).out, {"NAME", "READY", "STATUS", "RESTARTS", "AGE"},
               {"p1|0/1|Pending|0|<age>", "p2|0/1|Pending|0|<age>"});
  expect_table(ok({"get", "pods", "-o", "wide"}).out,
               {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE",
                "READINESS GATES"},
               {"p1|0/1|Pending|0|<age>|<none>|<none>|<none>|<none>",
                "p2|0/1|Pending|0|<age>|<none>|node-x|<none>|<none>"});
  // Status as a kubelet would write it: running, ready, one restart.
  ok({"patch", "pod", "p2", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"phase":"Running","podIP":"10.244.0.7","podIPs":[{"ip":"10.244.0.7"}],)"
      R"("conditions":[{"type":"Ready","status":"True"}],)"
      R"("containerStatuses":[{"name":"c","ready":true,"restartCount":1,"image":"busybox",)"
      R"("imageID":"","started":true,"state":{"running":{"startedAt":"2024-01-01T00:00:00Z"}}}]}})"});
  expect_table(ok({"get", "pod", "p2", "-o", "wide"}).out,
               {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE",
                "READINESS GATES"},
               {"p2|1/1|Running|1|<age>|10.244.0.7|node-x|<none>|<none>"});
  // A waiting container's reason is the pod's STATUS.
  ok({"patch", "pod", "p1", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"phase":"Pending","containerStatuses":[{"name":"c","ready":false,)"
      R"("restartCount":0,"image":"busybox","imageID":"",)"
      R"("state":{"waiting":{"reason":"ContainerCreating"}}}]}})"});
  expect_table(ok({"get", "pod", "p1"}).out, {"NAME", "READY", "STATUS", "RESTARTS", "AGE"},
               {"p1|0/1|ContainerCreating|0|<age>"});
}

TEST_P(GetTest, NamespaceReplicaSetAndLeaseTables) {
  expect_table(ok({"get", "namespace", ns()}).out, {"NAME", "STATUS", "AGE"},
               {ns() + "|Active|<age>"});
  create(replica_set_yaml("web", "5d4f8c", 2) + "---\n" + lease_yaml("controller", "node-a_1234"));
  expect_table(ok({"get", "rs"}).out, {"NAME", "DESIRED", "CURRENT", "READY", "AGE"},
               {"web-5d4f8c|2|0|0|<age>"});
  expect_table(ok({"get", "replicasets", "-o", "wide"}).out,
               {"NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"},
               {"web-5d4f8c|2|0|0|<age>|nginx|nginx:1.25|app=web,pod-template-hash=5d4f8c"});
  expect_table(ok({"get", "leases"}).out, {"NAME", "HOLDER", "AGE"},
               {"controller|node-a_1234|<age>"});
}

TEST_P(GetTest, NodeTable) {
  const std::string ready = ns() + "-ready";
  const std::string bare = ns() + "-bare";
  create(ready_node_yaml(ready) + "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + bare +
         "\nspec:\n  unschedulable: true\n");
  expect_table(ok({"get", "nodes", ready, bare}).out, {"NAME", "STATUS", "ROLES", "AGE", "VERSION"},
               {ready + "|Ready|control-plane|<age>|v1.30.1",
                bare + "|Unknown,SchedulingDisabled|<none>|<age>|"});
  expect_table(ok({"get", "nodes", ready, bare, "-o", "wide"}).out,
               {"NAME", "STATUS", "ROLES", "AGE", "VERSION", "INTERNAL-IP", "EXTERNAL-IP",
                "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"},
               {ready + "|Ready|control-plane|<age>|v1.30.1|10.0.0.5|<none>|Debian GNU/Linux 12 "
                        "(bookworm)|6.1.0-18-amd64|containerd://1.7.13",
                bare + "|Unknown,SchedulingDisabled|<none>|<age>||<none>|<none>|<unknown>|"
                       "<unknown>|<unknown>"});
  ok({"delete", "node", ready, bare});
}

TEST_P(GetTest, EventTables) {
  // Legacy core/v1 Events as components record them.
  create(
      "apiVersion: v1\nkind: Event\nmetadata:\n  name: web.17a1\ninvolvedObject:\n"
      "  apiVersion: apps/v1\n  kind: Deployment\n  name: web\n  namespace: " +
      ns() +
      "\nreason: ScalingReplicaSet\nmessage: Scaled up replica set web-5d4f8c to 3\n"
      "type: Normal\nsource: {component: deployment-controller}\ncount: 3\n"
      "firstTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(24 * 20)) + "\"\nlastTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(10)) + "\"\n" +
      "---\napiVersion: v1\nkind: Event\nmetadata:\n  name: p.17a2\ninvolvedObject:\n"
      "  apiVersion: v1\n  kind: Pod\n  name: p\n  namespace: " +
      ns() +
      "\n  fieldPath: spec.containers{c}\nreason: BackOff\n"
      "message: Back-off restarting failed container\ntype: Warning\n"
      "source: {component: kubelet, host: node-a}\ncount: 1\nfirstTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(9)) + "\"\nlastTimestamp: \"" +
      rfc3339_ago(std::chrono::hours(9)) + "\"\n");
  expect_table(
      ok({"get", "events"}).out, {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"},
      {"9h|Warning|BackOff|pod/p|Back-off restarting failed container",
       "10h|Normal|ScalingReplicaSet|deployment/web|Scaled up replica set web-5d4f8c to 3"},
      /*mask=*/false);
  expect_table(ok({"get", "ev", "-o", "wide"}).out,
               {"LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "SOURCE", "MESSAGE",
                "FIRST SEEN", "COUNT", "NAME"},
               {"9h|Warning|BackOff|pod/p|spec.containers{c}|kubelet, node-a|Back-off "
                "restarting failed container|9h|1|p.17a2",
                "10h|Normal|ScalingReplicaSet|deployment/web||deployment-controller|Scaled up "
                "replica set web-5d4f8c to 3|20d|3|web.17a1"},
               /*mask=*/false);
  // kubectl events prints client-side, oldest first.
  expect_table(ok({"events"}).out, {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"},
               {"10h (x3 over 20d)|Normal|ScalingReplicaSet|Deployment/web|Scaled up replica "
                "set web-5d4f8c to 3",
                "9h|Warning|BackOff|Pod/p|Back-off restarting failed container"},
               /*mask=*/false);
  expect_table(ok({"events", "--for", "pod/p"}).out,
               {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"},
               {"9h|Warning|BackOff|Pod/p|Back-off restarting failed container"},
               /*mask=*/false);
  expect_table(ok({"events", "--types=Normal"}).out,
               {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"},
               {"10h (x3 over 20d)|Normal|ScalingReplicaSet|Deployment/web|Scaled up replica "
                "set web-5d4f8c to 3"},
               /*mask=*/false);
  // events.k8s.io/v1 serves the same objects.
  EXPECT_EQ(ok({"get", "events.v1.events.k8s.io", "-o",
                "jsonpath={range .items[*]}{.kind}/{.metadata.name}: {.regarding.kind}/"
                "{.regarding.name} {.type} {.reason} \"{.note}\" {.deprecatedCount} "
                "{.deprecatedSource.component};{end}"})
                .out,
            "Event/p.17a2: Pod/p Warning BackOff \"Back-off restarting failed container\" 1 "
            "kubelet;Event/web.17a1: Deployment/web Normal ScalingReplicaSet \"Scaled up replica "
            "set web-5d4f8c to 3\" 3 deployment-controller;");
}

TEST_P(GetTest, OutputFormats) {
  create(deployment_yaml("web") + "---\n" + deployment_yaml("api", "nginx:1.26", 1));
  EXPECT_EQ(ok({"get", "deploy", "-o", "name"}).out, "deployment.apps/api\ndeployment.apps/web\n");

  const CommandResult yaml = ok({"get", "deploy", "web", "-o", "yaml"});
  EXPECT_THAT(yaml.out, StartsWith("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n  name: web\n  namespace: " + ns() + "\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n  generation: 1\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n  replicas: 3\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n  revisionHistoryLimit: 10\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n  progressDeadlineSeconds: 600\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n        imagePullPolicy: IfNotPresent\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n        terminationMessagePath: /dev/termination-log\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n      restartPolicy: Always\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n      schedulerName: default-scheduler\n"));
  EXPECT_THAT(yaml.out, HasSubstr("\n      maxSurge: 25%\n      maxUnavailable: 25%\n"));
  EXPECT_THAT(yaml.out, Not(HasSubstr("managedFields")));
  // (kcm-local does not track managedFields yet: they come with server-side apply.)

  const CommandResult json = ok({"get", "deploy", "web", "-o", "json"});
  EXPECT_THAT(json.out,
              StartsWith("{\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\",\n"));
  EXPECT_THAT(json.out, HasSubstr("\"uid\": \""));

  const CommandResult list_yaml = ok({"get", "deploy", "-o", "yaml"});
  EXPECT_THAT(list_yaml.out,
              StartsWith("apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n"));
  EXPECT_THAT(list_yaml.out, HasSubstr("\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"));

  EXPECT_EQ(ok({"get", "deploy", "-o",
                "jsonpath={range .items[*]}{.metadata.name}:{.spec.replicas}:{.spec.template.spec."
                "containers[0].image}{\"\\n\"}{end}"})
                .out,
            "api:1:nginx:1.26\nweb:3:nginx:1.25\n");
  expect_table(ok({"get", "deploy", "-o",
                   "custom-columns=NAME:.metadata.name,IMAGE:.spec.template.spec.containers[0]."
                   "image,REPLICAS:.spec.replicas,MISSING:.status.readyReplicas"})
                   .out,
               {"NAME", "IMAGE", "REPLICAS", "MISSING"},
               {"api|nginx:1.26|1|<none>", "web|nginx:1.25|3|<none>"});
}

TEST_P(GetTest, LabelAndFieldSelectors) {
  create(pod_yaml("a", "app: web, tier: fe") + "---\n" +
         pod_yaml("b", "app: web, tier: be", "  nodeName: node-1\n") + "---\n" +
         pod_yaml("c", "app: db"));
  EXPECT_EQ(ok({"get", "pods", "-l", "app==web,tier!=fe", "-o", "name"}).out, "pod/b\n");
  EXPECT_EQ(ok({"get", "pods", "-l", "app in (web,db),tier notin (fe)", "-o", "name"}).out,
            "pod/b\npod/c\n");
  EXPECT_EQ(ok({"get", "pods", "-l", "!tier", "-o", "name"}).out, "pod/c\n");
  EXPECT_EQ(ok({"get", "pods", "-l", "tier", "-o", "name"}).out, "pod/a\npod/b\n");
  const CommandResult none = ok({"get", "pods", "-l", "app=nothing"});
  EXPECT_EQ(none.out, "");
  EXPECT_EQ(none.err, "No resources found in " + ns() + " namespace.\n");

  EXPECT_EQ(ok({"get", "pods", "--field-selector", "metadata.name!=a", "-o", "name"}).out,
            "pod/b\npod/c\n");
  EXPECT_EQ(ok({"get", "pods", "--field-selector", "spec.nodeName=", "-o", "name"}).out,
            "pod/a\npod/c\n");
  EXPECT_EQ(
      ok({"get", "pods", "--field-selector", "status.phase==Pending,metadata.name=c", "-o", "name"})
          .out,
      "pod/c\n");
  EXPECT_EQ(
      ok({"get", "pods", "-l", "app=web", "--field-selector", "metadata.name!=b", "-o", "name"})
          .out,
      "pod/a\n");
}

TEST_P(GetTest, AllNamespacesAndChunks) {
  const std::string other = ns() + "-other";
  create(namespace_yaml(other) + "---\n" + pod_yaml("p1", "suite: " + ns()) + "---\n" +
         pod_yaml("p2", "suite: " + ns()) + "---\n" + pod_yaml("p3", "suite: " + ns()));
  ok({"create", "-f", "-", "--validate=false", "-n", other}, pod_yaml("q1", "suite: " + ns()));
  const std::string selector = "suite=" + ns();
  // In storage key order: "<ns>-other/q1" sorts before "<ns>/p1" ('-' < '/').
  expect_table(ok({"get", "pods", "-A", "-l", selector}).out,
               {"NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"},
               {other + "|q1|0/1|Pending|0|<age>", ns() + "|p1|0/1|Pending|0|<age>",
                ns() + "|p2|0/1|Pending|0|<age>", ns() + "|p3|0/1|Pending|0|<age>"});
  EXPECT_EQ(ok({"get", "pods", "--all-namespaces", "-l", selector, "-o", "name"}).out,
            "pod/q1\npod/p1\npod/p2\npod/p3\n");

  // --chunk-size pages with limit/continue; the output is the same.
  const CommandResult chunked = ok({"get", "pods", "--chunk-size=1", "-v=6"});
  expect_table(chunked.out, {"NAME", "READY", "STATUS", "RESTARTS", "AGE"},
               {"p1|0/1|Pending|0|<age>", "p2|0/1|Pending|0|<age>", "p3|0/1|Pending|0|<age>"});
  EXPECT_THAT(chunked.err, HasSubstr("limit=1"));
  EXPECT_THAT(chunked.err, HasSubstr("continue="));
  const CommandResult chunked_names = ok({"get", "pods", "--chunk-size=2", "-o", "name"});
  EXPECT_EQ(chunked_names.out, "pod/p1\npod/p2\npod/p3\n");
}

TEST_P(GetTest, ShowLabelsColumnsAndSort) {
  create(pod_yaml("zeta", "app: web, tier: fe") + "---\n" + pod_yaml("alpha", "app: db") + "---\n" +
         pod_yaml("mid", "tier: be, app: web") + "---\n" +
         deployment_yaml("small", "nginx:1.25", 1) + "---\n" +
         deployment_yaml("big", "nginx:1.25", 5) + "---\n" +
         deployment_yaml("medium", "nginx:1.25", 2));
  expect_table(ok({"get", "pods", "--show-labels"}).out,
               {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "LABELS"},
               {"alpha|0/1|Pending|0|<age>|app=db", "mid|0/1|Pending|0|<age>|app=web,tier=be",
                "zeta|0/1|Pending|0|<age>|app=web,tier=fe"});
  expect_table(
      ok({"get", "pods", "-L", "tier"}).out, {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "TIER"},
      {"alpha|0/1|Pending|0|<age>|", "mid|0/1|Pending|0|<age>|be", "zeta|0/1|Pending|0|<age>|fe"});
  expect_table(ok({"get", "pods", "-L", "app,tier", "-l", "app=web"}).out,
               {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "APP", "TIER"},
               {"mid|0/1|Pending|0|<age>|web|be", "zeta|0/1|Pending|0|<age>|web|fe"});

  expect_table(ok({"get", "deploy", "--sort-by=.spec.replicas"}).out,
               {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"},
               {"small|0/1|0|0|<age>", "medium|0/2|0|0|<age>", "big|0/5|0|0|<age>"});
  expect_table(ok({"get", "pods", "--sort-by=.metadata.name", "--show-labels"}).out,
               {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "LABELS"},
               {"alpha|0/1|Pending|0|<age>|app=db", "mid|0/1|Pending|0|<age>|app=web,tier=be",
                "zeta|0/1|Pending|0|<age>|app=web,tier=fe"});
  EXPECT_EQ(ok({"get", "deploy", "--sort-by={.metadata.name}", "-o", "name"}).out,
            "deployment.apps/big\ndeployment.apps/medium\ndeployment.apps/small\n");
}

TEST_P(GetTest, GetAll) {
  create(pod_yaml("p") + "---\n" + deployment_yaml("web") + "---\n" +
         replica_set_yaml("web", "5d4f8c", 2));
  const CommandResult r = ok({"get", "all"});
  const std::vector<PrintedTable> tables = parse_tables(r.out);
  ASSERT_EQ(tables.size(), 3u) << r.out;
  EXPECT_EQ(tables[0].header,
            (std::vector<std::string>{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}));
  EXPECT_EQ(row_strings(mask_ages(tables[0])),
            (std::vector<std::string>{"pod/p|0/1|Pending|0|<age>"}));
  EXPECT_EQ(tables[1].header,
            (std::vector<std::string>{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}));
  EXPECT_EQ(row_strings(mask_ages(tables[1])),
            (std::vector<std::string>{"deployment.apps/web|0/3|0|0|<age>"}));
  EXPECT_EQ(tables[2].header,
            (std::vector<std::string>{"NAME", "DESIRED", "CURRENT", "READY", "AGE"}));
  EXPECT_EQ(row_strings(mask_ages(tables[2])),
            (std::vector<std::string>{"replicaset.apps/web-5d4f8c|2|0|0|<age>"}));
  EXPECT_EQ(ok({"get", "all", "-o", "name"}).out,
            "pod/p\ndeployment.apps/web\nreplicaset.apps/web-5d4f8c\n");
}

TEST_P(GetTest, WatchListWithEvents) {
  create(deployment_yaml("web"));
  auto watch = background({"get", "deploy", "-w", "--output-watch-events"});
  ASSERT_TRUE(watch->wait_for("ADDED")) << watch->output();
  ok({"scale", "deploy", "web", "--replicas=5"});
  ASSERT_TRUE(watch->wait_for("MODIFIED")) << watch->output();
  create(deployment_yaml("api", "nginx:1.25", 1));
  ok({"delete", "deploy", "web"});
  ASSERT_TRUE(watch->wait_for("DELETED")) << watch->output();
  watch->stop();
  const std::string out = watch->output();
  EXPECT_THAT(split_cells(out.substr(0, out.find('\n'))),
              ::testing::ElementsAre("EVENT", "NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"))
      << out;
  EXPECT_THAT(find_row(out, {"ADDED", "web"}), StartsWith("ADDED|web|0/3|0|0|")) << out;
  EXPECT_THAT(find_row(out, {"MODIFIED", "web"}), StartsWith("MODIFIED|web|0/5|0|0|")) << out;
  EXPECT_THAT(find_row(out, {"ADDED", "api"}), StartsWith("ADDED|api|0/1|0|0|")) << out;
  EXPECT_THAT(find_row(out, {"DELETED", "web"}), StartsWith("DELETED|web|0/5|0|0|")) << out;
  // Exactly: header, the listed object, then the three changes.
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 5) << out;
}

TEST_P(GetTest, WatchSingleObject) {
  create(pod_yaml("p"));
  auto watch =
      background({"get", "pod", "p", "-w", "-o", "jsonpath={.metadata.labels.step}{\"\\n\"}"});
  ASSERT_TRUE(watch->wait_for("\n")) << watch->output();
  ok({"label", "pod", "p", "step=one"});
  ASSERT_TRUE(watch->wait_for("one\n")) << watch->output();
  ok({"label", "pod", "p", "step=two", "--overwrite"});
  ASSERT_TRUE(watch->wait_for("two\n")) << watch->output();
  watch->stop();
  EXPECT_EQ(watch->output(), "\none\ntwo\n");

  // --watch-only prints changes only; a pod created later appears as a Table row.
  // (-v=6 logs the watch request once its response has started.)
  auto only = background({"get", "pods", "--watch-only", "-v=6"});
  ASSERT_TRUE(only->wait_for("watch=true")) << only->output();
  create(pod_yaml("q"));
  ASSERT_TRUE(only->wait_for("\nq ")) << only->output();
  only->stop();
  const std::string out = drop_klog_lines(only->output());
  EXPECT_THAT(split_cells(out.substr(0, out.find('\n'))),
              ::testing::ElementsAre("NAME", "READY", "STATUS", "RESTARTS", "AGE"))
      << out;
  EXPECT_THAT(find_row(out, {"q"}), StartsWith("q|0/1|Pending|0|")) << out;
  EXPECT_EQ(find_row(out, {"p"}), "") << out;
}

INSTANTIATE_TEST_SUITE_P(Kubectl, GetTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GetTest);

}  // namespace
}  // namespace kcm::e2e
