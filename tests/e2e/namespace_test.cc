// The namespace controller end to end: kcm-local and kcm as separate
// processes, driven by the real kubectl. `kubectl delete namespace` of a
// namespace with a running Deployment completes without the garbage
// collector: the namespace controller deletes the Deployment, its
// ReplicaSets and pods itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kcm_process.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class NamespaceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    o.extra_args = {"--nodes=2", "--pod-ready-delay=300ms", "--pod-terminate-delay=1s"};
    cluster_ = std::make_unique<LocalCluster>(o);
    kcm_ = std::make_unique<KcmProcess>(
        *cluster_,
        std::vector<std::string>{"--leader-elect=false",
                                 "--controllers=namespace-controller,deployment-controller,"
                                 "replicaset-controller"});
  }
  static void TearDownTestSuite() {
    kcm_.reset();
    cluster_.reset();
  }
  void TearDown() override {
    if (HasFailure()) {
      const std::string log = kcm_->log();
      ADD_FAILURE() << "kcm log tail:\n"
                    << (log.size() > 4000 ? log.substr(log.size() - 4000) : log);
    }
  }

  std::string ok(const std::vector<std::string>& args, const std::string& input = {}) {
    const CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }

  inline static std::unique_ptr<LocalCluster> cluster_;
  inline static std::unique_ptr<KcmProcess> kcm_;
  Kubectl kubectl_{*cluster_};
};

TEST_F(NamespaceTest, DeleteNamespaceWithADeploymentCompletes) {
  const std::string ns = "ns-e2e";
  ok({"create", "namespace", ns});
  ok({"create", "deployment", "web", "--image=nginx", "--replicas=2", "-n", ns});
  EXPECT_TRUE(eventually(
      [&] {
        const CommandResult r = kubectl_(
            {"get", "deployment", "web", "-n", ns, "-o", "jsonpath={.status.readyReplicas}"});
        return r.exit_code == 0 && r.out == "2";
      },
      std::chrono::seconds(60)));

  EXPECT_EQ(ok({"delete", "namespace", ns, "--wait=false"}), "namespace \"" + ns + "\" deleted\n");
  EXPECT_EQ(ok({"get", "namespace", ns, "-o", "jsonpath={.status.phase}"}), "Terminating");
  // New content is refused while it terminates.
  const CommandResult late = kubectl_({"create", "deployment", "late", "--image=nginx", "-n", ns});
  EXPECT_NE(late.exit_code, 0);
  EXPECT_THAT(late.err, HasSubstr("unable to create new content in namespace " + ns +
                                  " because it is being terminated"));

  const CommandResult waited = kubectl_(
      {"wait", "--for=delete", "namespace/" + ns, "--timeout=90s"}, {}, std::chrono::seconds(120));
  EXPECT_EQ(waited.exit_code, 0) << describe(waited);
  const CommandResult gone = kubectl_({"get", "namespace", ns});
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_EQ(gone.err, "Error from server (NotFound): namespaces \"" + ns + "\" not found\n");
}

}  // namespace
}  // namespace kcm::e2e
