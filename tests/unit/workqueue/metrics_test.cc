#include <gtest/gtest.h>

#include <string>

#include "eventually.h"
#include "metrics/registry.h"
#include "workqueue/clock.h"
#include "workqueue/delaying_queue.h"
#include "workqueue/prometheus_metrics.h"
#include "workqueue/queue.h"

namespace kcm::workqueue {
namespace {

using namespace std::chrono_literals;
using test_support::eventually;

// The sample of family `name` labelled name=<queue>; for histograms, the count.
std::optional<double> sample(const metrics::Registry& registry, const std::string& family,
                             const std::string& queue) {
  for (const auto& f : registry.gather()) {
    if (f.name != family) continue;
    for (const auto& m : f.metrics) {
      if (m.labels.size() == 1 && m.labels[0].value == queue) {
        return f.type == metrics::MetricType::kHistogram ? static_cast<double>(m.count) : m.value;
      }
    }
  }
  return std::nullopt;
}

std::optional<double> histogram_sum(const metrics::Registry& registry, const std::string& family,
                                    const std::string& queue) {
  for (const auto& f : registry.gather()) {
    if (f.name != family) continue;
    for (const auto& m : f.metrics) {
      if (m.labels.size() == 1 && m.labels[0].value == queue) return m.sum;
    }
  }
  return std::nullopt;
}

struct MetricsFixture {
  metrics::Registry registry;
  std::shared_ptr<PrometheusMetricsProvider> provider = [this] {
    auto p = PrometheusMetricsProvider::create(registry);
    EXPECT_TRUE(p.ok());
    return *p;
  }();
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
};

TEST(WorkqueueMetricsTest, QueueMetricsFollowUpstream) {
  MetricsFixture f;
  Queue<std::string> q(
      QueueConfig{.name = "test", .metrics_provider = f.provider, .clock = f.clock});
  q.add("a");
  q.add("b");
  q.add("a");  // dirty already: not an add
  EXPECT_EQ(sample(f.registry, "workqueue_adds_total", "test"), 2);
  EXPECT_EQ(sample(f.registry, "workqueue_depth", "test"), 2);

  f.clock->step(1s);
  const auto a = q.get();
  EXPECT_EQ(sample(f.registry, "workqueue_depth", "test"), 1);
  EXPECT_EQ(sample(f.registry, "workqueue_queue_duration_seconds", "test"), 1);
  EXPECT_EQ(histogram_sum(f.registry, "workqueue_queue_duration_seconds", "test"), 1.0);

  // Re-added while processing: counts as an add, raises depth, and the
  // queue time runs from this add.
  q.add("a");
  EXPECT_EQ(sample(f.registry, "workqueue_adds_total", "test"), 3);
  EXPECT_EQ(sample(f.registry, "workqueue_depth", "test"), 2);

  // The periodic tick reports the in-flight item's age.
  f.clock->step(2s);
  ASSERT_TRUE(eventually([&] {
    return sample(f.registry, "workqueue_longest_running_processor_seconds", "test") == 2.0;
  }));
  EXPECT_EQ(sample(f.registry, "workqueue_unfinished_work_seconds", "test"), 2.0);

  q.done(*a);
  EXPECT_EQ(sample(f.registry, "workqueue_work_duration_seconds", "test"), 1);
  EXPECT_EQ(histogram_sum(f.registry, "workqueue_work_duration_seconds", "test"), 2.0);

  f.clock->step(500ms);
  ASSERT_TRUE(eventually([&] {
    return sample(f.registry, "workqueue_longest_running_processor_seconds", "test") == 0.0;
  }));
  EXPECT_EQ(sample(f.registry, "workqueue_unfinished_work_seconds", "test"), 0.0);
}

TEST(WorkqueueMetricsTest, RetriesAndExposition) {
  MetricsFixture f;
  DelayingQueue<std::string> q(
      QueueConfig{.name = "deployment", .metrics_provider = f.provider, .clock = f.clock});
  q.add_after("x", 1s);
  q.add_after("y", 0ns);
  EXPECT_EQ(sample(f.registry, "workqueue_retries_total", "deployment"), 2);
  q.shut_down();
  q.add_after("z", 1s);  // ignored and not counted
  EXPECT_EQ(sample(f.registry, "workqueue_retries_total", "deployment"), 2);

  const std::string text = f.registry.render_text();
  for (const char* line : {
           "# HELP workqueue_depth [BETA] Current depth of workqueue\n",
           "# TYPE workqueue_depth gauge\n",
           "workqueue_depth{name=\"deployment\"} 1\n",
           "# HELP workqueue_adds_total [BETA] Total number of adds handled by workqueue\n",
           "workqueue_adds_total{name=\"deployment\"} 1\n",
           "# HELP workqueue_retries_total [BETA] Total number of retries handled by workqueue\n",
           "# TYPE workqueue_retries_total counter\n",
           "workqueue_retries_total{name=\"deployment\"} 2\n",
           "# HELP workqueue_queue_duration_seconds [BETA] How long in seconds an item stays in "
           "workqueue before being requested.\n",
           "# TYPE workqueue_queue_duration_seconds histogram\n",
           "workqueue_queue_duration_seconds_bucket{name=\"deployment\",le=\"1e-08\"} 0\n",
           "workqueue_queue_duration_seconds_bucket{name=\"deployment\",le=\"9.999999999999999e-"
           "06\"} 0\n",
           "workqueue_queue_duration_seconds_bucket{name=\"deployment\",le=\"10\"} 0\n",
           "workqueue_queue_duration_seconds_bucket{name=\"deployment\",le=\"+Inf\"} 0\n",
           "workqueue_queue_duration_seconds_sum{name=\"deployment\"} 0\n",
           "workqueue_queue_duration_seconds_count{name=\"deployment\"} 0\n",
           "# HELP workqueue_unfinished_work_seconds [BETA] How many seconds of work has done that "
           "is "
           "in progress and hasn't been observed by work_duration. Large values indicate stuck "
           "threads. One can deduce the number of stuck threads by observing the rate at which "
           "this increases.\n",
           "# HELP workqueue_longest_running_processor_seconds [BETA] How many seconds has the "
           "longest running processor for workqueue been running.\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nin:\n" << text;
  }
  // Families come sorted by name.
  EXPECT_LT(text.find("workqueue_adds_total"), text.find("workqueue_depth"));
  EXPECT_LT(text.find("workqueue_depth"), text.find("workqueue_longest_running"));
  EXPECT_LT(text.find("workqueue_work_duration"), text.size());
}

TEST(WorkqueueMetricsTest, UnnamedQueuesKeepNoMetrics) {
  MetricsFixture f;
  DelayingQueue<std::string> q(QueueConfig{.metrics_provider = f.provider, .clock = f.clock});
  q.add("a");
  q.add_after("b", 1s);
  EXPECT_EQ(f.registry.render_text(), "");
}

TEST(WorkqueueMetricsTest, RegisteringTwiceFails) {
  MetricsFixture f;
  const auto again = PrometheusMetricsProvider::create(f.registry);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error(), "duplicate metrics collector registration attempted");
}

TEST(WorkqueueMetricsTest, GlobalProviderFirstCallWins) {
  // The global provider lives for the whole process (and test repeats).
  static MetricsFixture global_fixture;
  MetricsFixture* const global = &global_fixture;
  static const bool first = set_metrics_provider(global->provider);
  EXPECT_TRUE(first);
  metrics::Registry other;
  auto second = PrometheusMetricsProvider::create(other);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(set_metrics_provider(*second));
  EXPECT_EQ(global_metrics_provider(), global->provider);
  const double before = sample(global->registry, "workqueue_adds_total", "global").value_or(0);
  Queue<std::string> q(QueueConfig{.name = "global", .clock = global->clock});
  q.add("a");
  EXPECT_EQ(sample(global->registry, "workqueue_adds_total", "global"), before + 1);
  EXPECT_FALSE(sample(other, "workqueue_adds_total", "global").has_value());
}

}  // namespace
}  // namespace kcm::workqueue
