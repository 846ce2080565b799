#include "app/healthcheck_slis.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace kcm::app {
namespace {

constexpr std::string_view kGaugeHeader =
    "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single "
    "healthcheck.\n"
    "# TYPE kubernetes_healthcheck gauge\n";
constexpr std::string_view kCounterHeader =
    "# HELP kubernetes_healthchecks_total [STABLE] This metric records the results of all "
    "healthcheck.\n"
    "# TYPE kubernetes_healthchecks_total counter\n";

// component-base slis/metrics_test.go TestObserveHealthcheck, at the STABLE level.
TEST(HealthcheckSlisTest, ErrorThenSuccessAsUpstream) {
  auto slis = HealthcheckSlis::create();
  ASSERT_TRUE(slis) << slis.error();
  EXPECT_EQ((*slis)->registry()->render_text(), "");

  (*slis)->observe("healthcheck-a", "healthz", false);
  EXPECT_EQ((*slis)->registry()->render_text(),
            std::string(kGaugeHeader) +
                "kubernetes_healthcheck{name=\"healthcheck-a\",type=\"healthz\"} 0\n" +
                std::string(kCounterHeader) +
                "kubernetes_healthchecks_total{name=\"healthcheck-a\",status=\"error\","
                "type=\"healthz\"} 1\n");

  (*slis)->observe("healthcheck-a", "healthz", true);
  EXPECT_EQ((*slis)->registry()->render_text(),
            std::string(kGaugeHeader) +
                "kubernetes_healthcheck{name=\"healthcheck-a\",type=\"healthz\"} 1\n" +
                std::string(kCounterHeader) +
                "kubernetes_healthchecks_total{name=\"healthcheck-a\",status=\"error\","
                "type=\"healthz\"} 1\n"
                "kubernetes_healthchecks_total{name=\"healthcheck-a\",status=\"success\","
                "type=\"healthz\"} 1\n");

  (*slis)->reset();
  EXPECT_EQ((*slis)->registry()->render_text(), "");
  (*slis)->observe("leaderElection", "healthz", true);
  EXPECT_NE((*slis)->registry()->render_text().find(
                "kubernetes_healthchecks_total{name=\"leaderElection\",status=\"success\","
                "type=\"healthz\"} 1\n"),
            std::string::npos);
}

}  // namespace
}  // namespace kcm::app
