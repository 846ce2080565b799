// kubectl delete (cascade policies, waiting, forced pod deletion, selections)
// and kubectl wait, for every bundled kubectl. No controllers run: a finalizer
// the test controls decides when an object really goes away.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

class DeleteTest : public ClientTest {
 protected:
  // A deployment held by a finalizer no controller removes.
  std::string held_deployment(const std::string& name) {
    std::string yaml = deployment_yaml(name);
    yaml.replace(yaml.find("  labels:"), 9, "  finalizers: [example.com/hold]\n  labels:");
    return yaml;
  }
  std::string held_pod(const std::string& name) {
    std::string yaml = pod_yaml(name);
    yaml.replace(yaml.find("  labels:"), 9, "  finalizers: [example.com/hold]\n  labels:");
    return yaml;
  }
  void release(const std::string& object) {
    ok({"patch", object, "--type=json", "-p",
        R"([{"op":"remove","path":"/metadata/finalizers"}])"});
  }
  bool gone(const std::string& object) {
    const CommandResult r = run({"get", object});
    return r.exit_code == 1 && r.err.find("(NotFound)") != std::string::npos;
  }
};

TEST_P(DeleteTest, CascadePolicies) {
  create(deployment_yaml("plain") + "---\n" + held_deployment("fg") + "---\n" +
         held_deployment("orphan") + "---\n" + held_deployment("bg"));
  // Background (the default) with --wait: nothing holds the object.
  const CommandResult plain = ok({"delete", "deploy", "plain"});
  EXPECT_EQ(plain.out, "deployment.apps \"plain\" deleted\n");
  EXPECT_EQ(plain.err, "");

  EXPECT_EQ(ok({"delete", "deploy", "fg", "--cascade=foreground", "--wait=false"}).out,
            "deployment.apps \"fg\" deleted\n");
  EXPECT_EQ(ok({"delete", "deploy/orphan", "--cascade=orphan", "--wait=false"}).out,
            "deployment.apps \"orphan\" deleted\n");
  EXPECT_EQ(ok({"delete", "deploy/bg", "--cascade=background", "--wait=false"}).out,
            "deployment.apps \"bg\" deleted\n");
  // Held by the test's finalizer (plus the garbage collector's own for
  // foreground and orphan, until it has acted): deleting, not gone.
  const std::string state = ok({"get", "deploy", "-o",
                                "jsonpath={range .items[*]}{.metadata.name} "
                                "{.metadata.finalizers} {.metadata.deletionTimestamp};{end}"})
                                .out;
  EXPECT_THAT(state,
              MatchesRegex(R"re(bg \["example.com/hold"\] 20[-0-9T:]+Z;)re"
                           R"re(fg \["example.com/hold"(,"foregroundDeletion")?\] 20[-0-9T:]+Z;)re"
                           R"re(orphan \["example.com/hold"(,"orphan")?\] 20[-0-9T:]+Z;)re"));

  // A waiting delete of an object already being deleted returns once it goes.
  auto waiting = background({"delete", "deploy", "bg", "--timeout=20s", "-v=6"});
  ASSERT_TRUE(waiting->wait_for("watch=true")) << waiting->output();
  release("deploy/bg");
  EXPECT_EQ(waiting->wait_exit(), 0) << waiting->output();
  EXPECT_EQ(drop_klog_lines(waiting->output()), "deployment.apps \"bg\" deleted\n");
  EXPECT_TRUE(gone("deploy/bg"));
}

TEST_P(DeleteTest, PodsGracefulAndForced) {
  create(pod_yaml("unscheduled") + "---\n" + pod_yaml("bound", "app: web", "  nodeName: node-x\n") +
         "---\n" + pod_yaml("short", "app: web", "  nodeName: node-x\n"));
  // Unscheduled pods go at once.
  EXPECT_EQ(ok({"delete", "pod", "unscheduled"}).out, "pod \"unscheduled\" deleted\n");
  // A pod bound to a node waits for its kubelet: it is Terminating.
  EXPECT_EQ(ok({"delete", "pod", "bound", "--wait=false"}).out, "pod \"bound\" deleted\n");
  ok({"delete", "pod", "short", "--grace-period=5", "--wait=false"});
  const CommandResult terminating = ok({"get", "pods"});
  expect_table(terminating.out, {"NAME", "READY", "STATUS", "RESTARTS", "AGE"},
               {"bound|0/1|Terminating|0|<age>", "short|0/1|Terminating|0|<age>"});
  EXPECT_EQ(ok({"get", "pods", "-o",
                "jsonpath={range .items[*]}{.metadata.name}={.metadata.deletionGracePeriodSeconds} "
                "{end}"})
                .out,
            "bound=30 short=5 ");
  const CommandResult forced =
      ok({"delete", "pod", "bound", "short", "--grace-period=0", "--force"});
  EXPECT_EQ(forced.out, "pod \"bound\" force deleted\npod \"short\" force deleted\n");
  EXPECT_EQ(forced.err,
            "Warning: Immediate deletion does not wait for confirmation that the running resource "
            "has been terminated. The resource may continue to run on the cluster indefinitely.\n");
  const CommandResult none = ok({"get", "pods"});
  EXPECT_EQ(none.err, "No resources found in " + ns() + " namespace.\n");
}

TEST_P(DeleteTest, SelectionsAndNotFound) {
  create(pod_yaml("a", "app: web") + "---\n" + pod_yaml("b", "app: web") + "---\n" +
         pod_yaml("c", "app: db") + "---\n" + pod_yaml("d", "app: db") + "---\n" +
         deployment_yaml("web"));
  EXPECT_EQ(ok({"delete", "pods", "-l", "app=web"}).out, "pod \"a\" deleted\npod \"b\" deleted\n");
  const CommandResult none = ok({"delete", "pods", "-l", "app=nothing"});
  EXPECT_EQ(none.out, "No resources found\n");
  EXPECT_EQ(none.err, "");
  EXPECT_EQ(ok({"delete", "pods", "--all"}).out, "pod \"c\" deleted\npod \"d\" deleted\n");

  const CommandResult missing = run({"delete", "deploy", "nope"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
  const CommandResult ignored = ok({"delete", "deploy", "nope", "--ignore-not-found"});
  EXPECT_EQ(ignored.out, "");
  EXPECT_EQ(ignored.err, "");
  // By file.
  EXPECT_EQ(ok({"delete", "-f", "-"}, deployment_yaml("web")).out,
            "deployment.apps \"web\" deleted\n");
  EXPECT_EQ(ok({"get", "all", "-o", "name"}).out, "");
}

TEST_P(DeleteTest, NamespaceDeletionStartsTerminating) {
  const std::string doomed = ns() + "-doomed";
  create(namespace_yaml(doomed));
  EXPECT_EQ(ok({"delete", "namespace", doomed, "--wait=false"}).out,
            "namespace \"" + doomed + "\" deleted\n");
  // Until the namespace controller empties and finalizes it.
  const CommandResult r = run({"get", "namespace", doomed});
  if (r.exit_code == 0) {
    expect_table(r.out, {"NAME", "STATUS", "AGE"}, {doomed + "|Terminating|<age>"});
  } else {
    EXPECT_EQ(r.err, "Error from server (NotFound): namespaces \"" + doomed + "\" not found\n");
  }
}

TEST_P(DeleteTest, WaitForJsonpath) {
  create(deployment_yaml("web"));
  EXPECT_EQ(ok({"wait", "--for=jsonpath={.spec.replicas}=3", "deploy/web", "--timeout=5s"}).out,
            "deployment.apps/web condition met\n");

  auto waiting = background(
      {"wait", "--for=jsonpath={.spec.replicas}=7", "deploy/web", "--timeout=20s", "-v=6"});
  ASSERT_TRUE(waiting->wait_for("watch=true")) << waiting->output();
  ok({"scale", "deploy", "web", "--replicas=7"});
  EXPECT_EQ(waiting->wait_exit(), 0) << waiting->output();
  EXPECT_EQ(drop_klog_lines(waiting->output()), "deployment.apps/web condition met\n");

  const CommandResult missing =
      run({"wait", "--for=jsonpath={.spec.replicas}=1", "deploy/nope", "--timeout=1s"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
}

TEST_P(DeleteTest, WaitForDelete) {
  create(held_pod("held"));
  ok({"delete", "pod", "held", "--wait=false"});
  auto waiting = background({"wait", "--for=delete", "pod/held", "--timeout=20s", "-v=6"});
  ASSERT_TRUE(waiting->wait_for("watch=true")) << waiting->output();
  release("pod/held");
  EXPECT_EQ(waiting->wait_exit(), 0) << waiting->output();
  EXPECT_EQ(drop_klog_lines(waiting->output()), "pod/held condition met\n");
  EXPECT_TRUE(gone("pod/held"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, DeleteTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeleteTest);

}  // namespace
}  // namespace kcm::e2e
