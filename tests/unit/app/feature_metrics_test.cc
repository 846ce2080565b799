#include "app/feature_metrics.h"

#include <gtest/gtest.h>

#include "featuregate/kube_features.h"

namespace kcm::app {
namespace {

TEST(FeatureMetricsTest, OneSeriesPerGateWithItsStage) {
  featuregate::FeatureGate features(featuregate::kube_features(), 33);
  ASSERT_TRUE(features.set("DeploymentReplicaSetTerminatingReplicas=true"));
  metrics::Registry registry;
  ASSERT_TRUE(register_feature_metrics(registry, features));
  EXPECT_EQ(registry.render_text(),
            "# HELP kubernetes_feature_enabled [BETA] This metric records the data about the "
            "stage and enablement of a k8s feature.\n"
            "# TYPE kubernetes_feature_enabled gauge\n"
            "kubernetes_feature_enabled{name=\"AllAlpha\",stage=\"ALPHA\"} 0\n"
            "kubernetes_feature_enabled{name=\"AllBeta\",stage=\"BETA\"} 0\n"
            "kubernetes_feature_enabled{name=\"DeploymentReplicaSetTerminatingReplicas\","
            "stage=\"ALPHA\"} 1\n"
            "kubernetes_feature_enabled{name=\"LogarithmicScaleDown\",stage=\"\"} 1\n"
            "kubernetes_feature_enabled{name=\"PodDeletionCost\",stage=\"BETA\"} 1\n");
}

}  // namespace
}  // namespace kcm::app
