// status.terminatingReplicas end to end: kcm-local serving the 1.33 API with
// the DeploymentReplicaSetTerminatingReplicas gate on, and kcm with the same
// gate on, driven by kubectl 1.33 (the dispatcher picks it from /version).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "kcm_process.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

constexpr const char* kGate = "--feature-gates=DeploymentReplicaSetTerminatingReplicas=true";

class TerminatingReplicasTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    o.kube_version = "v1.33.1";
    o.extra_args = {"--nodes=2", "--pod-ready-delay=300ms", "--pod-terminate-delay=1s", kGate};
    cluster_ = std::make_unique<LocalCluster>(o);
    kcm_ = std::make_unique<KcmProcess>(
        *cluster_, std::vector<std::string>{
                       "--leader-elect=false",
                       "--controllers=deployment-controller,replicaset-controller", kGate});
  }
  static void TearDownTestSuite() {
    kcm_.reset();
    cluster_.reset();
  }
  void TearDown() override {
    if (HasFailure()) {
      const std::string log = kcm_->log();
      ADD_FAILURE() << "kcm log tail:\n" << log.substr(log.size() > 4000 ? log.size() - 4000 : 0);
    }
  }

  std::string ok(const std::vector<std::string>& args, const std::string& input = {}) {
    const CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }
  std::string jsonpath(const std::string& what, const std::string& path) {
    const CommandResult r = kubectl_({"get", what, "-o", "jsonpath=" + path});
    return r.exit_code == 0 ? r.out : "<" + r.err + ">";
  }
  // "<deployment's terminatingReplicas>/<the ReplicaSet's>" for the one RS of app=web.
  std::string terminating() {
    return jsonpath("deployment/web", "{.status.terminatingReplicas}") + "/" +
           jsonpath("rs", "{.items[*].status.terminatingReplicas}");
  }

  inline static std::unique_ptr<LocalCluster> cluster_;
  inline static std::unique_ptr<KcmProcess> kcm_;
  Kubectl kubectl_{*cluster_};
};

TEST_F(TerminatingReplicasTest, ScaleDownReportsTheTerminatingPodsUntilTheyAreGone) {
  // The dispatcher chose kubectl 1.33 for this server.
  EXPECT_THAT(ok({"version", "-o", "json"}), testing::HasSubstr("\"minor\": \"33\""));
  // A preStop sleep hook keeps a deleted pod's container running for 3 s.
  ok({"apply", "-f", "-"}, R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        lifecycle: {preStop: {sleep: {seconds: 3}}}
)");
  ok({"rollout", "status", "deployment/web", "--timeout=60s"});
  // Reported, and 0, once the controllers have synced with nothing terminating.
  ASSERT_TRUE(eventually([&] { return terminating() == "0/0"; })) << terminating();

  ok({"scale", "deployment/web", "--replicas=1"});
  // Both controllers count the two pods being deleted while they terminate...
  ASSERT_TRUE(eventually([&] { return terminating() == "2/2"; }, std::chrono::seconds(10)))
      << terminating();
  EXPECT_EQ(jsonpath("deployment/web", "{.status.replicas}/{.status.availableReplicas}"), "1/1");
  // Meanwhile their containers still run: the pods are not terminal yet.
  EXPECT_EQ(jsonpath("pods", "{.items[*].status.phase}"), "Running Running Running");
  // ... and none once their containers have stopped (a terminal pod is not
  // terminating any more), then the pods are removed.
  ASSERT_TRUE(eventually([&] { return terminating() == "0/0"; }, std::chrono::seconds(30)))
      << terminating();
  EXPECT_TRUE(eventually([&] { return jsonpath("pods", "{.items[*].status.phase}") == "Running"; }))
      << jsonpath("pods", "{.items[*].status.phase}");
  EXPECT_EQ(terminating(), "0/0");
}

// What kcm's /metrics says of its gates.
TEST_F(TerminatingReplicasTest, MetricsReportTheGates) {
  // The suite's kcm may have just started (the e2e shards split the suite).
  KcmProcess::HttpAnswer metrics;
  ASSERT_TRUE(eventually([&] {
    metrics = kcm_->get("/metrics");
    return metrics.status == 200;
  })) << metrics.status;
  EXPECT_THAT(metrics.body, testing::HasSubstr("kubernetes_feature_enabled{name=\"DeploymentReplica"
                                               "SetTerminatingReplicas\",stage=\"ALPHA\"} 1\n"));
  EXPECT_THAT(metrics.body,
              testing::HasSubstr(
                  "kubernetes_feature_enabled{name=\"PodDeletionCost\",stage=\"BETA\"} 1\n"));
}

}  // namespace
}  // namespace kcm::e2e
