// kubectl against kcm-local: the everyday commands and their output, as on a
// real cluster (../shared/spec/kubectl-contract.md §3).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
)";

std::string pod_manifest(const std::string& name, const std::string& labels = "app: web") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  labels: {" + labels +
         "}\nspec:\n  containers:\n  - name: c\n    image: busybox\n";
}

class KubectlTest : public ::testing::Test {
 protected:
  LocalCluster cluster_;
  Kubectl kubectl_{cluster_};

  CommandResult ok(const std::vector<std::string>& args, const std::string& input = {}) {
    CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r;
  }
};

TEST_F(KubectlTest, VersionReportsTheServer) {
  CommandResult r = ok({"version"});
  EXPECT_THAT(r.out, HasSubstr("Server Version: v1.32.4+kcm-local"));
}

TEST_F(KubectlTest, ApiResourcesListsServedKinds) {
  CommandResult r = ok({"api-resources"});
  for (const char* line : {"deployments", "deploy", "apps/v1", "replicasets", "namespaces",
                           "leases", "coordination.k8s.io/v1", "events.k8s.io/v1"}) {
    EXPECT_THAT(r.out, HasSubstr(line));
  }
  CommandResult namespaced = ok({"api-resources", "--namespaced=false", "-o", "name"});
  EXPECT_THAT(namespaced.out, HasSubstr("namespaces"));
  EXPECT_THAT(namespaced.out, HasSubstr("nodes"));
  EXPECT_THAT(namespaced.out, Not(HasSubstr("pods")));
}

TEST_F(KubectlTest, DefaultNamespacesExist) {
  CommandResult r = ok({"get", "namespaces", "-o", "name"});
  EXPECT_EQ(r.out,
            "namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\n"
            "namespace/kube-system\n");
}

TEST_F(KubectlTest, CreateGetAndOutputFormats) {
  EXPECT_EQ(ok({"create", "-f", "-"}, kDeployment).out, "deployment.apps/web created\n");
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "name"}).out, "deployment.apps/web\n");
  CommandResult yaml = ok({"get", "deployment", "web", "-o", "yaml"});
  EXPECT_THAT(yaml.out, HasSubstr("kind: Deployment"));
  EXPECT_THAT(yaml.out, HasSubstr("generation: 1"));
  EXPECT_THAT(yaml.out, HasSubstr("uid: "));
  CommandResult json = ok({"get", "deploy", "web", "-o", "json"});
  EXPECT_THAT(json.out, HasSubstr("\"creationTimestamp\": \""));
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"}).out, "3");
  // apps/v1 defaults are applied by the server.
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.spec.strategy.type}"}).out,
            "RollingUpdate");
}

TEST_F(KubectlTest, GetMissingObjectIsNotFound) {
  CommandResult r = kubectl_({"get", "deploy", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
}

TEST_F(KubectlTest, EmptyListSaysNoResources) {
  CommandResult r = ok({"get", "pods"});
  EXPECT_EQ(r.err, "No resources found in default namespace.\n");
}

TEST_F(KubectlTest, CreateExistingIsAlreadyExists) {
  ok({"create", "-f", "-"}, kDeployment);
  CommandResult r = kubectl_({"create", "-f", "-"}, kDeployment);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("Error from server (AlreadyExists): error when creating \"STDIN\": "
                               "deployments.apps \"web\" already exists"));
}

TEST_F(KubectlTest, CreateInMissingNamespaceIsNotFound) {
  CommandResult r = kubectl_({"create", "-f", "-", "-n", "nowhere"}, kDeployment);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("namespaces \"nowhere\" not found"));
}

TEST_F(KubectlTest, InvalidObjectIs422WithFieldPaths) {
  std::string bad = kDeployment;
  bad.replace(bad.find("replicas: 3"), 11, "replicas: -1");
  CommandResult r = kubectl_({"create", "-f", "-"}, bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              HasSubstr("The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: "
                        "must be greater than or equal to 0"));
}

TEST_F(KubectlTest, InvalidNameIs422) {
  CommandResult r = kubectl_({"create", "-f", "-"}, pod_manifest("Bad_Name"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("The Pod \"Bad_Name\" is invalid: metadata.name: Invalid value: "
                               "\"Bad_Name\": a lowercase RFC 1123 subdomain must consist of"));
}

TEST_F(KubectlTest, LabelAndFieldSelectors) {
  ok({"create", "-f", "-"}, pod_manifest("a", "app: web, tier: fe"));
  ok({"create", "-f", "-"}, pod_manifest("b", "app: web, tier: be"));
  ok({"create", "-f", "-"}, pod_manifest("c", "app: db"));
  EXPECT_EQ(ok({"get", "pods", "-l", "app=web", "-o", "name"}).out, "pod/a\npod/b\n");
  EXPECT_EQ(ok({"get", "pods", "-l", "app in (web,db),tier!=fe", "-o", "name"}).out,
            "pod/b\npod/c\n");
  EXPECT_EQ(ok({"get", "pods", "-l", "!tier", "-o", "name"}).out, "pod/c\n");
  EXPECT_EQ(ok({"get", "pods", "--field-selector", "metadata.name!=a", "-o", "name"}).out,
            "pod/b\npod/c\n");
  EXPECT_EQ(
      ok({"get", "pods", "--field-selector", "status.phase=Pending,metadata.name=c", "-o", "name"})
          .out,
      "pod/c\n");
  CommandResult bad = kubectl_({"get", "pods", "--field-selector", "spec.foo=bar"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err,
              HasSubstr("Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" "
                        "that match label selector \"\", field selector \"spec.foo=bar\": "
                        "field label not supported: spec.foo"));
}

TEST_F(KubectlTest, AllNamespacesAndChunking) {
  ok({"create", "-f", "-"}, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n");
  for (const char* name : {"p1", "p2", "p3"})
    ok({"create", "-f", "-"}, pod_manifest(name));
  ok({"create", "-f", "-", "-n", "other"}, pod_manifest("q1"));
  CommandResult all = ok({"get", "pods", "-A", "-o", "name"});
  EXPECT_EQ(all.out, "pod/p1\npod/p2\npod/p3\npod/q1\n");
  CommandResult chunked = ok({"get", "pods", "-A", "--chunk-size=1", "-o", "name", "-v=6"});
  EXPECT_EQ(chunked.out, all.out);
  EXPECT_THAT(chunked.err, HasSubstr("continue="));
}

TEST_F(KubectlTest, ReplaceWithAndWithoutResourceVersion) {
  ok({"create", "-f", "-"}, kDeployment);
  std::string edited = kDeployment;
  edited.replace(edited.find("nginx:1.25"), 10, "nginx:1.26");
  EXPECT_EQ(ok({"replace", "-f", "-"}, edited).out, "deployment.apps/web replaced\n");
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.generation}"}).out, "2");
  // A stale resourceVersion is a conflict.
  std::string stale = edited;
  stale.replace(stale.find("  name: web\n"), 12, "  name: web\n  resourceVersion: \"1\"\n");
  CommandResult r = kubectl_({"replace", "-f", "-"}, stale);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err,
              HasSubstr("Error from server (Conflict): error when replacing \"STDIN\": "
                        "Operation cannot be fulfilled on deployments.apps \"web\": the object "
                        "has been modified; please apply your changes to the latest version "
                        "and try again"));
}

TEST_F(KubectlTest, PatchMergeAndJson) {
  ok({"create", "-f", "-"}, kDeployment);
  EXPECT_EQ(ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":4}})"}).out,
            "deployment.apps/web patched\n");
  EXPECT_EQ(ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":4}})"}).out,
            "deployment.apps/web patched (no change)\n");
  ok({"patch", "deploy", "web", "--type=json", "-p",
      R"([{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}])"});
  EXPECT_EQ(
      ok({"get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"}).out,
      "nginx:1.26");
  CommandResult failed = kubectl_({"patch", "deploy", "web", "--type=json", "-p",
                                   R"([{"op":"test","path":"/spec/replicas","value":9}])"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_THAT(failed.err,
              HasSubstr("the server rejected our request due to an error in our request"));
}

TEST_F(KubectlTest, PatchStatusAndScaleSubresources) {
  ok({"create", "-f", "-"}, kDeployment);
  ok({"patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"replicas":3,"readyReplicas":2}})"});
  EXPECT_EQ(
      ok({"get", "deploy", "web", "-o", "jsonpath={.status.readyReplicas} {.metadata.generation}"})
          .out,
      "2 1");
  // The main resource cannot write status.
  ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"status":{"readyReplicas":0}})"});
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.status.readyReplicas}"}).out, "2");
  ok({"patch", "deploy", "web", "--subresource=scale", "--type=merge", "-p",
      R"({"spec":{"replicas":6}})"});
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"}).out, "6");
}

TEST_F(KubectlTest, ScalePlainAndConditional) {
  ok({"create", "-f", "-"}, kDeployment);
  EXPECT_EQ(ok({"scale", "deploy", "web", "--replicas=5"}).out, "deployment.apps/web scaled\n");
  EXPECT_EQ(ok({"scale", "deploy", "web", "--current-replicas=5", "--replicas=2"}).out,
            "deployment.apps/web scaled\n");
  CommandResult wrong =
      kubectl_({"scale", "deploy", "web", "--current-replicas=5", "--replicas=1"});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.err, HasSubstr("Expected replicas to be 5, was 2"));
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"}).out, "2");
}

TEST_F(KubectlTest, LabelAndAnnotate) {
  ok({"create", "-f", "-"}, kDeployment);
  EXPECT_EQ(ok({"label", "deploy", "web", "tier=frontend"}).out, "deployment.apps/web labeled\n");
  CommandResult again = kubectl_({"label", "deploy", "web", "tier=backend"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err,
              HasSubstr("'tier' already has a value (frontend), and --overwrite is false"));
  EXPECT_EQ(ok({"label", "deploy", "web", "tier-"}).out, "deployment.apps/web unlabeled\n");
  EXPECT_EQ(ok({"annotate", "deploy", "web", "note=hello"}).out, "deployment.apps/web annotated\n");
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.annotations.note}"}).out,
            "hello");
  // Annotation changes are a new generation for Deployments.
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.generation}"}).out, "2");
}

TEST_F(KubectlTest, DeleteAndPropagationPolicies) {
  ok({"create", "-f", "-"}, kDeployment);
  EXPECT_EQ(ok({"delete", "deploy", "web"}).out, "deployment.apps \"web\" deleted\n");
  CommandResult gone = kubectl_({"get", "deploy", "web"});
  EXPECT_EQ(gone.exit_code, 1);

  // Foreground and orphan leave the object with a finalizer until a garbage
  // collector acts; the wait then times out.
  ok({"create", "-f", "-"}, kDeployment);
  CommandResult fg = kubectl_({"delete", "deploy", "web", "--cascade=foreground", "--timeout=2s"});
  EXPECT_EQ(fg.out, "deployment.apps \"web\" deleted\n");
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.finalizers}"}).out,
            "[\"foregroundDeletion\"]");
  EXPECT_THAT(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.deletionTimestamp}"}).out,
              StartsWith("20"));
  // Removing the finalizer completes the deletion; a waiting delete sees it.
  ok({"patch", "deploy", "web", "--type=json", "-p",
      R"([{"op":"remove","path":"/metadata/finalizers"}])"});
  EXPECT_EQ(kubectl_({"get", "deploy", "web"}).exit_code, 1);

  ok({"create", "-f", "-"}, kDeployment);
  ok({"delete", "deploy", "web", "--cascade=orphan", "--wait=false"});
  EXPECT_EQ(ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.finalizers}"}).out,
            "[\"orphan\"]");
}

TEST_F(KubectlTest, DeleteWaitsForFinalizersToBeRemoved) {
  std::string with_finalizer = pod_manifest("held");
  with_finalizer.replace(with_finalizer.find("  labels:"), 9,
                         "  finalizers: [example.com/hold]\n  labels:");
  ok({"create", "-f", "-"}, with_finalizer);
  CommandResult timed_out = kubectl_({"delete", "pod", "held", "--timeout=2s"});
  EXPECT_EQ(timed_out.exit_code, 1);
  EXPECT_EQ(timed_out.out, "pod \"held\" deleted\n");
  EXPECT_THAT(timed_out.err, HasSubstr("timed out waiting for the condition on pods/held"));
  ok({"patch", "pod", "held", "--type=merge", "-p", R"({"metadata":{"finalizers":null}})"});
  EXPECT_EQ(kubectl_({"get", "pod", "held"}).exit_code, 1);
}

TEST_F(KubectlTest, DeleteMissingIsNotFound) {
  CommandResult r = kubectl_({"delete", "deploy", "web"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error from server (NotFound): deployments.apps \"web\" not found\n");
  EXPECT_EQ(ok({"delete", "deploy", "web", "--ignore-not-found"}).out, "");
}

TEST_F(KubectlTest, ForceDeleteOfPodIsImmediate) {
  ok({"create", "-f", "-"}, pod_manifest("p"));
  CommandResult r = ok({"delete", "pod", "p", "--grace-period=0", "--force"});
  EXPECT_THAT(r.out, HasSubstr("pod \"p\" force deleted"));
  EXPECT_EQ(kubectl_({"get", "pod", "p"}).exit_code, 1);
}

TEST_F(KubectlTest, WatchSeesChanges) {
  ok({"create", "-f", "-"}, kDeployment);
  CommandResult watched;
  std::thread watcher([&] {
    watched = kubectl_({"get", "deploy", "web", "-w", "-o", "jsonpath={.spec.replicas}{\"\\n\"}"},
                       {}, std::chrono::seconds(6));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ok({"scale", "deploy", "web", "--replicas=7"});
  ok({"scale", "deploy", "web", "--replicas=8"});
  watcher.join();
  EXPECT_THAT(watched.out, HasSubstr("3\n7\n8\n")) << describe(watched);
}

TEST_F(KubectlTest, TokenAuthenticationWorks) {
  Kubectl with_token = kubectl_.with_args({"--context", "kcm-local-token"});
  CommandResult r = with_token({"get", "ns", "default", "-o", "name"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "namespace/default\n");
}

TEST_F(KubectlTest, AnonymousRequestsAreUnauthorized) {
  CommandResult r = run_command({"curl", "-sk", cluster_.url() + "/api/v1/pods"});
  EXPECT_THAT(r.out, HasSubstr(R"("reason":"Unauthorized","code":401)"));
  CommandResult health = run_command({"curl", "-sk", cluster_.url() + "/readyz"});
  EXPECT_EQ(health.out, "ok");
}

}  // namespace
}  // namespace kcm::e2e
