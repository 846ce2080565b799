#include "app/leader_metrics.h"

#include <gtest/gtest.h>

#include "metrics/registry.h"

namespace kcm::app {
namespace {

TEST(LeaderMetricsTest, RendersAsComponentBase) {
  metrics::Registry registry;
  auto m = LeaderElectionMetrics::create(registry);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(registry.render_text(), "");  // no series yet

  (*m)->leader_on("kube-controller-manager");
  (*m)->slowpath_exercised("kube-controller-manager");
  (*m)->slowpath_exercised("kube-controller-manager");
  (*m)->leader_off("other");
  EXPECT_EQ(registry.render_text(),
            "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is "
            "master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the "
            "string used to identify the lease. Please make sure to group by name.\n"
            "# TYPE leader_election_master_status gauge\n"
            "leader_election_master_status{name=\"kube-controller-manager\"} 1\n"
            "leader_election_master_status{name=\"other\"} 0\n"
            "# HELP leader_election_slowpath_total [ALPHA] Total number of slow path exercised in "
            "renewing leader leases. 'name' is the string used to identify the lease. Please make "
            "sure to group by name.\n"
            "# TYPE leader_election_slowpath_total counter\n"
            "leader_election_slowpath_total{name=\"kube-controller-manager\"} 2\n");

  (*m)->leader_off("kube-controller-manager");
  EXPECT_NE(registry.render_text().find(
                "leader_election_master_status{name=\"kube-controller-manager\"} 0\n"),
            std::string::npos);
}

TEST(LeaderMetricsTest, SecondRegistrationFails) {
  metrics::Registry registry;
  ASSERT_TRUE(LeaderElectionMetrics::create(registry));
  auto again = LeaderElectionMetrics::create(registry);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error(), "duplicate metrics collector registration attempted");
}

}  // namespace
}  // namespace kcm::app
