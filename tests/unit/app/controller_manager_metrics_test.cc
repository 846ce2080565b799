#include "app/controller_manager_metrics.h"

#include <gtest/gtest.h>

#include "metrics/registry.h"

namespace kcm::app {
namespace {

TEST(ControllerManagerMetricsTest, StartedAndStoppedControllers) {
  metrics::Registry registry;
  auto m = ControllerManagerMetrics::create(registry);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(registry.render_text(), "");

  (*m)->controller_started("replicaset-controller");
  (*m)->controller_started("deployment-controller");
  (*m)->controller_started("replicaset-controller");  // set, not counted twice
  (*m)->controller_stopped("replicaset-controller");
  EXPECT_EQ(registry.render_text(),
            "# HELP running_managed_controllers [BETA] Indicates where instances of a controller "
            "are currently running\n"
            "# TYPE running_managed_controllers gauge\n"
            "running_managed_controllers{manager=\"kube-controller-manager\",name=\"deployment-"
            "controller\"} 1\n"
            "running_managed_controllers{manager=\"kube-controller-manager\",name=\"replicaset-"
            "controller\"} 0\n");
}

TEST(ControllerManagerMetricsTest, ManagerLabelAndDuplicate) {
  metrics::Registry registry;
  auto m = ControllerManagerMetrics::create(registry, "cloud-controller-manager");
  ASSERT_TRUE(m) << m.error();
  (*m)->controller_started("route");
  EXPECT_NE(registry.render_text().find(
                "running_managed_controllers{manager=\"cloud-controller-manager\",name=\"route\"} "
                "1\n"),
            std::string::npos);

  auto again = ControllerManagerMetrics::create(registry);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error(), "duplicate metrics collector registration attempted");
}

}  // namespace
}  // namespace kcm::app
