// kubectl's writing commands for every bundled kubectl: create (from files and
// generators), apply, replace, patch, label, annotate, scale, set image and the
// rollout patches; each checks the printed result and the live object.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class WriteTest : public ClientTest {
 protected:
  // name=image; for every container of deployment `name`.
  std::string containers(const std::string& name) {
    return jsonpath("deploy/" + name,
                    "{range .spec.template.spec.containers[*]}{.name}={.image};{end}");
  }
};

// A Deployment with an app container (env A and B, a port) and a sidecar.
constexpr const char* kAppV1 = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  labels: {app: app}
spec:
  replicas: 2
  selector:
    matchLabels: {app: app}
  template:
    metadata:
      labels: {app: app}
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
        ports:
        - containerPort: 80
      - name: sidecar
        image: busybox:1.36
        command: [sleep, infinity]
)";

// v1 with env B removed and a new image.
std::string app_v2() {
  std::string s = kAppV1;
  s.replace(s.find("        - {name: B, value: \"2\"}\n"), 32, "");
  s.replace(s.find("nginx:1.25"), 10, "nginx:1.26");
  return s;
}

// v2 without the sidecar.
std::string app_v3() {
  std::string s = app_v2();
  s.resize(s.find("      - name: sidecar"));
  return s;
}

TEST_P(WriteTest, CreateFromFiles) {
  // Several documents in one stream, cluster- and namespace-scoped.
  const std::string node = ns() + "-node";
  EXPECT_EQ(ok({"create", "-f", "-"},
               deployment_yaml("web") + "---\n" + pod_yaml("p") +
                   "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + node + "\n")
                .out,
            "deployment.apps/web created\npod/p created\nnode/" + node + " created\n");
  EXPECT_EQ(ok({"get", "deploy/web", "pod/p", "node/" + node, "-o",
                "jsonpath={range .items[*]}{.kind}/{.metadata.name};{end}"})
                .out,
            "Deployment/web;Pod/p;Node/" + node + ";");
  ok({"delete", "node", node});
  // A server dry run is checked and answered but not stored.
  EXPECT_EQ(ok({"create", "-f", "-", "--dry-run=server"}, deployment_yaml("dry")).out,
            "deployment.apps/dry created (server dry run)\n");
  // generateName
  const CommandResult generated =
      ok({"create", "-f", "-", "-o", "name"},
         "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: gen-\nspec:\n  containers:\n"
         "  - {name: c, image: busybox}\n");
  EXPECT_THAT(generated.out, ::testing::MatchesRegex("pod/gen-[a-z0-9]{5}\n"));
  EXPECT_EQ(ok({"get", "deploy", "-o", "name"}).out, "deployment.apps/web\n");
}

// From 1.32 on these generators send protobuf bodies: they fail until kcm-local
// decodes protobuf (expected failures for 1_32, 1_33 and the dispatcher).
TEST_P(WriteTest, CreateNamespaceGenerator) {
  const std::string name = ns() + "-gen";
  const CommandResult r = run({"create", "namespace", name});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "namespace/" + name + " created\n");
  EXPECT_EQ(run({"get", "ns", name, "-o", "jsonpath={.status.phase}"}).out, "Active");
}

TEST_P(WriteTest, CreateDeploymentGenerator) {
  const CommandResult r =
      run({"create", "deployment", "gen", "--image=nginx:1.25", "--replicas=2", "--port=80"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "deployment.apps/gen created\n");
  EXPECT_EQ(run({"get", "deploy", "gen", "-o",
                 "jsonpath={.spec.replicas} {.spec.selector.matchLabels.app} "
                 "{.spec.template.spec.containers[0].name}={.spec.template.spec.containers[0]."
                 "image} {.spec.template.spec.containers[0].ports[0].containerPort}"})
                .out,
            "2 gen nginx=nginx:1.25 80");
}

TEST_P(WriteTest, RunPod) {
  const CommandResult r = run({"run", "runner", "--image=busybox:1.36", "--labels=team=a",
                               "--env=GREETING=hi", "--", "sleep", "3600"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "pod/runner created\n");
  EXPECT_EQ(run({"get", "pod", "runner", "-o",
                 "jsonpath={.metadata.labels} {.spec.containers[0].name} "
                 "{.spec.containers[0].image} {.spec.containers[0].args} "
                 "{.spec.containers[0].env[0].value} {.spec.restartPolicy}"})
                .out,
            R"({"team":"a"} runner busybox:1.36 ["sleep","3600"] hi Always)");
}

// What apply leaves in the live object: generation, then per container
// name=image env ports command.
constexpr const char* kAppState =
    "{.metadata.generation} {.spec.replicas}{range .spec.template.spec.containers[*]}"
    " | {.name}={.image} env={.env} ports={.ports} command={.command}{end}";

TEST_P(WriteTest, ApplyLifecycle) {
  EXPECT_EQ(ok({"apply", "-f", "-"}, kAppV1).out, "deployment.apps/app created\n");
  EXPECT_EQ(ok({"apply", "-f", "-"}, kAppV1).out, "deployment.apps/app unchanged\n");
  EXPECT_EQ(
      jsonpath("deploy/app",
               "{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}"),
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"app"},"name":"app","namespace":")" +
          ns() +
          R"("},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"app"}},"template":{"metadata":{"labels":{"app":"app"}},"spec":{"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"image":"nginx:1.25","name":"app","ports":[{"containerPort":80}]},{"command":["sleep","infinity"],"image":"busybox:1.36","name":"sidecar"}]}}}})"
          "\n");

  // Drop env B and change the image.
  EXPECT_EQ(ok({"apply", "-f", "-"}, app_v2()).out, "deployment.apps/app configured\n");
  EXPECT_EQ(jsonpath("deploy/app", kAppState),
            R"(2 2 | app=nginx:1.26 env=[{"name":"A","value":"1"}] )"
            R"(ports=[{"containerPort":80,"protocol":"TCP"}] command= )"
            R"(| sidecar=busybox:1.36 env= ports= command=["sleep","infinity"])");

  // Drop the sidecar.
  EXPECT_EQ(ok({"apply", "-f", "-"}, app_v3()).out, "deployment.apps/app configured\n");
  EXPECT_EQ(ok({"apply", "-f", "-"}, app_v3()).out, "deployment.apps/app unchanged\n");
  EXPECT_EQ(jsonpath("deploy/app", kAppState),
            R"(3 2 | app=nginx:1.26 env=[{"name":"A","value":"1"}] )"
            R"(ports=[{"containerPort":80,"protocol":"TCP"}] command=)");

  // Fields others set and the manifest does not mention survive; replicas,
  // which it does mention, is taken back.
  ok({"scale", "deploy", "app", "--replicas=4"});
  ok({"label", "deploy", "app", "owner=ops"});
  std::string v4 = app_v3();
  v4.replace(v4.find("nginx:1.26"), 10, "nginx:1.27");
  EXPECT_EQ(ok({"apply", "-f", "-"}, v4).out, "deployment.apps/app configured\n");
  EXPECT_EQ(jsonpath("deploy/app",
                     "{.spec.replicas} {.metadata.labels.owner} "
                     "{.spec.template.spec.containers[0].image}"),
            "2 ops nginx:1.27");
}

TEST_P(WriteTest, ApplyOverCreateWarnsOnce) {
  create(deployment_yaml("web"));
  const CommandResult r = ok({"apply", "-f", "-"}, deployment_yaml("web", "nginx:1.26"));
  EXPECT_EQ(r.out, "deployment.apps/web configured\n");
  EXPECT_EQ(r.err,
            "Warning: resource deployments/web is missing the "
            "kubectl.kubernetes.io/last-applied-configuration annotation which is required by "
            "kubectl apply. kubectl apply should only be used on resources created "
            "declaratively by either kubectl create --save-config or kubectl apply. The missing "
            "annotation will be patched automatically.\n");
  const CommandResult again = ok({"apply", "-f", "-"}, deployment_yaml("web", "nginx:1.26"));
  EXPECT_EQ(again.out, "deployment.apps/web unchanged\n");
  EXPECT_EQ(again.err, "");
  // --dry-run=server reports without storing.
  EXPECT_EQ(ok({"apply", "-f", "-", "--dry-run=server"}, deployment_yaml("web", "nginx:1.27")).out,
            "deployment.apps/web configured (server dry run)\n");
  EXPECT_EQ(containers("web"), "nginx=nginx:1.26;");
}

TEST_P(WriteTest, ReplaceAndForceReplace) {
  create(deployment_yaml("web"));
  const std::string uid = jsonpath("deploy/web", "{.metadata.uid}");
  const std::string state =
      "{.metadata.uid} {.metadata.generation} {.spec.replicas} "
      "{.spec.template.spec.containers[*].image}";
  EXPECT_EQ(ok({"replace", "-f", "-"}, deployment_yaml("web", "nginx:1.26", 4)).out,
            "deployment.apps/web replaced\n");
  // The same content again changes nothing.
  EXPECT_EQ(ok({"replace", "-f", "-"}, deployment_yaml("web", "nginx:1.26", 4)).out,
            "deployment.apps/web replaced\n");
  EXPECT_EQ(jsonpath("deploy/web", state), uid + " 2 4 nginx:1.26");

  const CommandResult forced =
      ok({"replace", "--force", "-f", "-"}, deployment_yaml("web", "nginx:1.27", 1));
  EXPECT_EQ(forced.out, "deployment.apps \"web\" deleted\ndeployment.apps/web replaced\n");
  const std::string after = jsonpath("deploy/web", state);
  EXPECT_THAT(after, ::testing::EndsWith(" 1 1 nginx:1.27"));
  EXPECT_THAT(after, Not(StartsWith(uid)));
}

TEST_P(WriteTest, PatchTypes) {
  create(deployment_yaml("web"));
  const std::string env_patch =
      R"({"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"X","value":"1"}]}]}}}})";
  const std::string state =
      "{.spec.replicas} {.metadata.labels}{range .spec.template.spec.containers[*]} | "
      "{.name}={.image} {.env}{end}";
  // Strategic merge (the default) merges containers by name.
  EXPECT_EQ(ok({"patch", "deploy", "web", "-p", env_patch}).out, "deployment.apps/web patched\n");
  ok({"patch", "deploy", "web", "--type=strategic", "-p",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox:1.36"}]}}}})"});
  EXPECT_EQ(
      jsonpath("deploy/web", state),
      R"(3 {"app":"web"} | sidecar=busybox:1.36  | nginx=nginx:1.25 [{"name":"X","value":"1"}])");
  ok({"patch", "deploy", "web", "-p",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}})"});
  // The same strategic patch again is no change.
  EXPECT_EQ(ok({"patch", "deploy", "web", "-p", env_patch}).out,
            "deployment.apps/web patched (no change)\n");

  // Merge patch: lists are replaced, null deletes.
  EXPECT_EQ(ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":5}})"}).out,
            "deployment.apps/web patched\n");
  EXPECT_EQ(ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":5}})"}).out,
            "deployment.apps/web patched (no change)\n");
  ok({"patch", "deploy", "web", "--type=merge", "-p",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"only","image":"nginx:1.27"}]}}}})"});
  EXPECT_EQ(jsonpath("deploy/web", state), R"(5 {"app":"web"} | only=nginx:1.27 )");

  // JSON patch.
  EXPECT_EQ(
      ok({"patch", "deploy", "web", "--type=json", "-p",
          R"([{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"},)"
          R"({"op":"add","path":"/metadata/labels/tier","value":"fe"}])"})
          .out,
      "deployment.apps/web patched\n");
  // --dry-run=server answers without storing.
  EXPECT_EQ(ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":9}})",
                "--dry-run=server"})
                .out,
            "deployment.apps/web patched\n");
  EXPECT_EQ(jsonpath("deploy/web", state + " {.spec.template.spec.containers[0].imagePullPolicy}"),
            R"(5 {"app":"web","tier":"fe"} | only=nginx:1.28  IfNotPresent)");
}

// Every built-in kind takes strategic merge patches (kubectl's default).
TEST_P(WriteTest, StrategicPatchOnEveryKind) {
  const std::string node = ns() + "-node";
  create("apiVersion: v1\nkind: Node\nmetadata:\n  name: " + node + "\n---\n" + pod_yaml("p") +
         "---\n" + deployment_yaml("web") +
         "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\nspec:\n"
         "  replicas: 1\n  selector: {matchLabels: {app: rs}}\n  template:\n"
         "    metadata: {labels: {app: rs}}\n    spec:\n      containers:\n"
         "      - {name: c, image: busybox}\n"
         "---\napiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: l\nspec:\n"
         "  holderIdentity: a\n"
         "---\napiVersion: v1\nkind: Event\nmetadata:\n  name: e\ninvolvedObject:\n  kind: Pod\n"
         "  name: p\n  namespace: " +
         ns() + "\nreason: Test\nmessage: m\ntype: Normal\n");
  const std::string patch = R"({"metadata":{"labels":{"patched":"yes"}}})";
  for (const std::string& object :
       {"namespace/" + ns(), "node/" + node, std::string("pod/p"),
        std::string("deployment.apps/web"), std::string("replicaset.apps/rs"),
        std::string("event.events.k8s.io/e")}) {
    const CommandResult r = run({"patch", object, "-p", patch});
    EXPECT_EQ(r.exit_code, 0) << object << "\n" << describe(r);
    EXPECT_EQ(r.out, object + " patched\n");
  }
  EXPECT_EQ(ok({"patch", "lease", "l", "-p",
                R"({"metadata":{"labels":{"patched":"yes"}},"spec":{"holderIdentity":"b"}})"})
                .out,
            "lease.coordination.k8s.io/l patched\n");
  EXPECT_EQ(ok({"get", "pod,deploy,rs,lease,ev", "-l", "patched=yes", "-o",
                "jsonpath={range .items[*]}{.kind}/{.metadata.name} {.spec.holderIdentity};{end}"})
                .out,
            "Pod/p ;Deployment/web ;ReplicaSet/rs ;Lease/l b;Event/e ;");
  ok({"delete", "node", node});
}

TEST_P(WriteTest, PatchSubresources) {
  create(deployment_yaml("web"));
  EXPECT_EQ(ok({"patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
                R"({"status":{"replicas":3,"readyReplicas":2,"observedGeneration":1}})"})
                .out,
            "deployment.apps/web patched\n");
  // The main resource ignores status; the status subresource ignores spec.
  ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"status":{"readyReplicas":0}})"});
  ok({"patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
      R"({"spec":{"replicas":7}})"});
  EXPECT_EQ(jsonpath("deploy/web",
                     "{.status.replicas} {.status.readyReplicas} "
                     "{.spec.replicas} {.metadata.generation}"),
            "3 2 3 1");

  EXPECT_EQ(ok({"patch", "deploy", "web", "--subresource=scale", "--type=merge", "-p",
                R"({"spec":{"replicas":6}})"})
                .out,
            "scale.autoscaling/web patched\n");
  EXPECT_EQ(ok({"get", "deploy", "web", "--subresource=scale", "-o",
                "jsonpath={.kind} {.apiVersion} {.spec.replicas} {.status.replicas} "
                "{.status.selector}"})
                .out,
            "Scale autoscaling/v1 6 3 app=web");
  EXPECT_EQ(jsonpath("deploy/web", "{.spec.replicas} {.metadata.generation}"), "6 2");
  // Tables for the status subresource as for the object.
  expect_table(ok({"get", "deploy", "web", "--subresource=status"}).out,
               {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, {"web|2/6|0|0|<age>"});
}

TEST_P(WriteTest, LabelAndAnnotate) {
  create(pod_yaml("a", "app: web") + "---\n" + pod_yaml("b", "app: web") + "---\n" +
         pod_yaml("c", "app: db"));
  EXPECT_EQ(ok({"label", "pod", "a", "tier=fe"}).out, "pod/a labeled\n");
  const CommandResult clash = run({"label", "pod", "a", "tier=be"});
  EXPECT_EQ(clash.exit_code, 1);
  EXPECT_EQ(clash.err, "error: 'tier' already has a value (fe), and --overwrite is false\n");
  EXPECT_EQ(ok({"label", "pod", "a", "tier=be", "--overwrite"}).out, "pod/a labeled\n");
  EXPECT_EQ(ok({"label", "pod", "a", "tier=be", "--overwrite"}).out, "pod/a not labeled\n");
  EXPECT_EQ(ok({"label", "pod", "a", "tier-"}).out, "pod/a unlabeled\n");
  EXPECT_EQ(ok({"label", "pods", "-l", "app=web", "team=x"}).out, "pod/a labeled\npod/b labeled\n");
  EXPECT_EQ(ok({"label", "pods", "--all", "env=dev"}).out,
            "pod/a labeled\npod/b labeled\npod/c labeled\n");
  EXPECT_EQ(ok({"get", "pods", "-o",
                "jsonpath={range .items[*]}{.metadata.name}={.metadata.labels};{end}"})
                .out,
            R"(a={"app":"web","env":"dev","team":"x"};b={"app":"web","env":"dev","team":"x"};)"
            R"(c={"app":"db","env":"dev"};)");

  // kubectl 1.27 itself prints "annotate" (its own wording, not the server's).
  const std::string annotated = minor() == 27 ? "pod/a annotate\n" : "pod/a annotated\n";
  EXPECT_EQ(ok({"annotate", "pod", "a", "note=hello world"}).out, annotated);
  const CommandResult exists = run({"annotate", "pod", "a", "note=again"});
  EXPECT_EQ(exists.exit_code, 1);
  EXPECT_EQ(exists.err,
            "error: --overwrite is false but found the following declared annotation(s): 'note' "
            "already has a value (hello world)\n");
  EXPECT_EQ(ok({"annotate", "pod", "a", "note=again", "--overwrite"}).out, annotated);
  EXPECT_EQ(jsonpath("pod/a", "{.metadata.annotations}"), R"({"note":"again"})");
  EXPECT_EQ(ok({"annotate", "pod", "a", "note-"}).out, annotated);
  // An emptied map is gone, as after any Go round trip (omitempty).
  EXPECT_THAT(ok({"get", "pod", "a", "-o", "yaml"}).out, Not(HasSubstr("annotations")));

  // Deployments: label changes keep the generation, annotation changes bump it
  // (annotations are copied to the ReplicaSets).
  create(deployment_yaml("web"));
  ok({"label", "deploy", "web", "tier=fe"});
  EXPECT_EQ(jsonpath("deploy/web", "{.metadata.generation}"), "1");
  ok({"annotate", "deploy", "web", "note=x"});
  EXPECT_EQ(jsonpath("deploy/web", "{.metadata.generation}"), "2");
}

TEST_P(WriteTest, Scale) {
  create(deployment_yaml("web") + "---\n" + deployment_yaml("api", "nginx:1.25", 1));
  EXPECT_EQ(ok({"scale", "deploy", "web", "--replicas=5"}).out, "deployment.apps/web scaled\n");
  EXPECT_EQ(ok({"scale", "deploy", "web", "--current-replicas=5", "--replicas=2"}).out,
            "deployment.apps/web scaled\n");
  const CommandResult wrong =
      run({"scale", "deploy", "web", "--current-replicas=5", "--replicas=1"});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_EQ(wrong.err, "error: Expected replicas to be 5, was 2\n");
  const std::string rv_and_generation =
      jsonpath("deploy/web", "{.metadata.resourceVersion} {.metadata.generation}");
  const std::string rv = rv_and_generation.substr(0, rv_and_generation.find(' '));
  EXPECT_EQ(rv_and_generation, rv + " 3");
  EXPECT_EQ(ok({"scale", "deploy", "web", "--resource-version=" + rv, "--replicas=3"}).out,
            "deployment.apps/web scaled\n");
  const CommandResult stale =
      run({"scale", "deploy", "web", "--resource-version=" + rv, "--replicas=4"});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_THAT(stale.err, StartsWith("error: Expected resource version to be " + rv + ", was "));
  EXPECT_EQ(ok({"scale", "deploy/web", "deploy/api", "--replicas=0"}).out,
            "deployment.apps/web scaled\ndeployment.apps/api scaled\n");
  EXPECT_EQ(jsonpath("deploy", "{range .items[*]}{.metadata.name}={.spec.replicas} {end}"),
            "api=0 web=0 ");
}

TEST_P(WriteTest, SetImage) {
  create(kAppV1);
  const std::string state =
      "{.metadata.generation}{range .spec.template.spec.containers[*]} | {.name}={.image} "
      "{.env[*].name}{end}";
  EXPECT_EQ(ok({"set", "image", "deploy/app", "app=nginx:1.27"}).out,
            "deployment.apps/app image updated\n");
  EXPECT_EQ(ok({"set", "image", "deploy/app", "*=registry.k8s.io/pause:3.9"}).out,
            "deployment.apps/app image updated\n");
  // Env survives the strategic patches.
  EXPECT_EQ(jsonpath("deploy/app", state),
            "3 | app=registry.k8s.io/pause:3.9 A B | sidecar=registry.k8s.io/pause:3.9 ");
  const CommandResult missing = run({"set", "image", "deploy/app", "nope=nginx"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "error: unable to find container named \"nope\"\n");
}

TEST_P(WriteTest, RolloutPauseResumeRestart) {
  create(deployment_yaml("web"));
  EXPECT_EQ(ok({"rollout", "pause", "deploy/web"}).out, "deployment.apps/web paused\n");
  const CommandResult again = run({"rollout", "pause", "deploy/web"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "error: deployments.apps \"web\" is already paused\n");
  const CommandResult restart_paused = run({"rollout", "restart", "deploy/web"});
  EXPECT_EQ(restart_paused.exit_code, 1);
  EXPECT_EQ(restart_paused.err,
            "error: deployments.apps \"web\" can't restart paused deployment (run rollout resume "
            "first)\n");
  EXPECT_EQ(jsonpath("deploy/web", "{.spec.paused} {.metadata.generation}"), "true 2");
  EXPECT_EQ(ok({"rollout", "resume", "deploy/web"}).out, "deployment.apps/web resumed\n");
  const CommandResult not_paused = run({"rollout", "resume", "deploy/web"});
  EXPECT_EQ(not_paused.exit_code, 1);
  EXPECT_EQ(not_paused.err, "error: deployments.apps \"web\" is not paused\n");
  EXPECT_EQ(ok({"rollout", "restart", "deploy/web"}).out, "deployment.apps/web restarted\n");
  // resume removed spec.paused; each step changed the spec.
  EXPECT_THAT(
      jsonpath("deploy/web",
               "{.spec.paused}|{.metadata.generation}|{.spec.template.metadata.annotations}"),
      ::testing::MatchesRegex(
          R"re(\|4\|\{"kubectl.kubernetes.io/restartedAt":"20[0-9-]+T[0-9:]+([-+][0-9:]+|Z)"\})re"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, WriteTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WriteTest);

}  // namespace
}  // namespace kcm::e2e
