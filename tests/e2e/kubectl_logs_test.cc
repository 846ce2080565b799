// kubectl logs against a kcm-local whose pods run: its simulated containers
// write nothing, so what is checked is upstream's choosing and refusing (the
// container, --previous, the options, as each bundled kubectl meets them)
// and -f staying open while the container runs and ending when it stops.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "kubectl_clients.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class KubectlLogsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    o.extra_args = {"--nodes=1", "--pod-ready-delay=200ms", "--pod-terminate-delay=500ms"};
    cluster_ = std::make_unique<LocalCluster>(o);  // one for the suite
  }
  static void TearDownTestSuite() { cluster_.reset(); }

  static std::string ok(const Kubectl& kubectl, const std::vector<std::string>& args,
                        const std::string& input = {}) {
    const CommandResult r = kubectl(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }
  // A pod created and waited for until Ready.
  static void create_ready(const std::string& manifest, const std::string& pod) {
    const Kubectl kubectl(*cluster_);
    ok(kubectl, {"apply", "-f", "-"}, manifest);
    ok(kubectl, {"wait", "--for=condition=Ready", "pod/" + pod, "--timeout=30s"});
  }
  static std::vector<std::string> clients() {
    std::vector<std::string> out;
    for (const auto& v : bundled_kubectl_versions())
      out.push_back(versioned_kubectl(v));
    return out;
  }

  static std::unique_ptr<LocalCluster> cluster_;
};

std::unique_ptr<LocalCluster> KubectlLogsTest::cluster_;

TEST_F(KubectlLogsTest, ARunningContainersLogIsEmptyAndRefusalsReadAsUpstreams) {
  create_ready(pod_yaml("one"), "one");
  create_ready(
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: two\nspec:\n  containers:\n"
      "  - {name: c, image: busybox}\n  - {name: d, image: busybox}\n",
      "two");
  for (const auto& binary : clients()) {
    SCOPED_TRACE(binary);
    const Kubectl kubectl(*cluster_, binary);
    EXPECT_EQ(ok(kubectl, {"logs", "one"}), "");
    EXPECT_EQ(ok(kubectl, {"logs", "one", "-c", "c", "--tail=10", "--timestamps"}), "");
    EXPECT_EQ(ok(kubectl, {"logs", "-l", "app=web"}), "");

    CommandResult r = kubectl({"logs", "one", "--previous"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.err, HasSubstr(R"(previous terminated container "c" in pod "one" not found)"));
    // The options, as the server checks them (kubectl checks --tail itself).
    r = kubectl({"get", "--raw", "/api/v1/namespaces/default/pods/one/log?tailLines=-2"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.err, HasSubstr("The PodLogOptions \"one\" is invalid: tailLines: Invalid "
                                 "value: -2: must be greater than or equal to 0"));
    // Two containers: kubectl picks the first; the server alone asks which.
    r = kubectl({"logs", "two"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_THAT(r.err, HasSubstr("Defaulted container \"c\" out of: c, d"));
    r = kubectl({"get", "--raw", "/api/v1/namespaces/default/pods/two/log"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.err, HasSubstr("a container name must be specified for pod two, choose one "
                                 "of: [c d]"));
  }
}

TEST_F(KubectlLogsTest, FollowEndsWhenThePodGoes) {
  create_ready(pod_yaml("follow"), "follow");
  BackgroundKubectl follow(*cluster_, "kubectl", {"logs", "-f", "follow"});
  EXPECT_EQ(follow.wait_exit(std::chrono::seconds(2)), -1) << follow.output();  // still open
  ok(Kubectl(*cluster_), {"delete", "pod", "follow", "--wait=false"});
  EXPECT_EQ(follow.wait_exit(std::chrono::seconds(15)), 0) << follow.output();
}

}  // namespace
}  // namespace kcm::e2e
