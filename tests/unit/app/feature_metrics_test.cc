#include "app/feature_metrics.h"

#include <gtest/gtest.h>

#include "featuregate/kube_features.h"

namespace kcm::app {
namespace {

using featuregate::Stage;

TEST(FeatureMetricsTest, OneSeriesPerGateWithItsStage) {
  const std::vector<featuregate::Feature> table = {
      {"Alpha", {{33, false, Stage::kAlpha}}},
      {"Ga", {{21, false, Stage::kAlpha}, {31, true, Stage::kGA, true}}},
      // Newer than the emulated 1.32: PreAlpha, and left out as upstream's GetAll does.
      {"New", {{33, false, Stage::kAlpha}}},
      {"Old", {{20, true, Stage::kBeta}}},
  };
  featuregate::FeatureGate features(table, 33, {1, 32});
  ASSERT_TRUE(features.set("Old=false"));
  metrics::Registry registry;
  ASSERT_TRUE(register_feature_metrics(registry, features));
  EXPECT_EQ(registry.render_text(),
            "# HELP kubernetes_feature_enabled [BETA] This metric records the data about the "
            "stage and enablement of a k8s feature.\n"
            "# TYPE kubernetes_feature_enabled gauge\n"
            "kubernetes_feature_enabled{name=\"AllAlpha\",stage=\"ALPHA\"} 0\n"
            "kubernetes_feature_enabled{name=\"AllBeta\",stage=\"BETA\"} 0\n"
            "kubernetes_feature_enabled{name=\"Ga\",stage=\"\"} 1\n"
            "kubernetes_feature_enabled{name=\"Old\",stage=\"BETA\"} 0\n");
}

TEST(FeatureMetricsTest, KcmReportsEveryKubeGate) {
  featuregate::FeatureGate features(featuregate::kube_features(), 33);
  ASSERT_TRUE(features.set("DeploymentReplicaSetTerminatingReplicas=true"));
  metrics::Registry registry;
  ASSERT_TRUE(register_feature_metrics(registry, features));
  const std::string text = registry.render_text();
  for (const char* line :
       {"kubernetes_feature_enabled{name=\"DeploymentReplicaSetTerminatingReplicas\","
        "stage=\"ALPHA\"} 1\n",
        "kubernetes_feature_enabled{name=\"LogarithmicScaleDown\",stage=\"\"} 1\n",
        "kubernetes_feature_enabled{name=\"PodDeletionCost\",stage=\"BETA\"} 1\n",
        "kubernetes_feature_enabled{name=\"WatchListClient\",stage=\"BETA\"} 0\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  std::size_t series = 0;
  for (std::size_t at = text.find("\nkubernetes_feature_enabled{"); at != std::string::npos;
       at = text.find("\nkubernetes_feature_enabled{", at + 1))
    ++series;
  EXPECT_EQ(series, features.states().size());
  EXPECT_EQ(series, featuregate::kube_features().size() + 2);  // and AllAlpha, AllBeta
}

}  // namespace
}  // namespace kcm::app
