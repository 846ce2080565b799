#include "metrics/registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "metrics/buckets.h"
#include "metrics/counter.h"
#include "metrics/gauge.h"
#include "metrics/histogram.h"

namespace kcm::metrics {
namespace {

Opts opts(std::string name, std::string help = "Help.",
          StabilityLevel level = StabilityLevel::kAlpha) {
  return {"", "", std::move(name), std::move(help), level};
}

TEST(RegistryTest, RendersSortedFamiliesLabelsAndMetrics) {
  Registry registry;
  auto requests = CounterVec::create(
      {"kcm", "http", "requests_total", "Requests by code.", StabilityLevel::kStable},
      {"method", "code"});
  ASSERT_TRUE(requests.ok()) << requests.error();
  auto up = GaugeVec::create(opts("up", "Whether \\ it is\nup.", StabilityLevel::kNone));
  ASSERT_TRUE(up.ok());
  auto latency = HistogramVec::create(opts("latency_seconds"), {0.1, 1}, {"name"});
  ASSERT_TRUE(latency.ok());
  ASSERT_TRUE(registry.register_collector(*up).ok());
  ASSERT_TRUE(registry.register_collector(*requests).ok());
  ASSERT_TRUE(registry.register_collector(*latency).ok());

  (*(*requests)->with_label_values({"GET", "200"}))->add(3);
  (*(*requests)->with_label_values({"DELETE", "404"}))->inc();
  (*(*requests)->with_label_values({"GET", "500"}))->inc();
  (*(*up)->with_label_values({}))->set(1);
  auto h = *(*latency)->with_label_values({"q\"1"});
  h->observe(0.1);  // bounds are inclusive
  h->observe(0.5);
  h->observe(20);

  EXPECT_EQ(registry.render_text(),
            "# HELP kcm_http_requests_total [STABLE] Requests by code.\n"
            "# TYPE kcm_http_requests_total counter\n"
            "kcm_http_requests_total{code=\"200\",method=\"GET\"} 3\n"
            "kcm_http_requests_total{code=\"404\",method=\"DELETE\"} 1\n"
            "kcm_http_requests_total{code=\"500\",method=\"GET\"} 1\n"
            "# HELP latency_seconds [ALPHA] Help.\n"
            "# TYPE latency_seconds histogram\n"
            "latency_seconds_bucket{name=\"q\\\"1\",le=\"0.1\"} 1\n"
            "latency_seconds_bucket{name=\"q\\\"1\",le=\"1\"} 2\n"
            "latency_seconds_bucket{name=\"q\\\"1\",le=\"+Inf\"} 3\n"
            "latency_seconds_sum{name=\"q\\\"1\"} 20.6\n"
            "latency_seconds_count{name=\"q\\\"1\"} 3\n"
            "# HELP up Whether \\\\ it is\\nup.\n"
            "# TYPE up gauge\n"
            "up 1\n");
}

TEST(RegistryTest, DuplicatesAndUnregister) {
  Registry registry;
  auto a = CounterVec::create(opts("a_total"));
  auto a2 = GaugeVec::create(opts("a_total"));
  ASSERT_TRUE(a.ok() && a2.ok());
  ASSERT_TRUE(registry.register_collector(*a).ok());
  const auto dup = registry.register_collector(*a2);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error(), "duplicate metrics collector registration attempted");
  EXPECT_FALSE(registry.register_collector(nullptr).ok());
  EXPECT_TRUE(registry.unregister("a_total"));
  EXPECT_FALSE(registry.unregister("a_total"));
  EXPECT_TRUE(registry.register_collector(*a2).ok());
}

TEST(DescTest, RejectsBadDefinitions) {
  struct Case {
    Opts opts;
    std::vector<std::string> labels;
    std::string want;
  };
  const std::vector<Case> cases = {
      {opts("0bad"), {}, "\"0bad\" is not a valid metric name"},
      {opts(""), {}, "\"\" is not a valid metric name"},
      {opts("has-dash"), {}, "\"has-dash\" is not a valid metric name"},
      {opts("ok"), {"__reserved"}, "\"__reserved\" is not a valid label name for metric \"ok\""},
      {opts("ok"), {"a:b"}, "\"a:b\" is not a valid label name for metric \"ok\""},
      {opts("ok"),
       {"x", "x"},
       "duplicate label names in constant and variable labels for metric \"ok\""},
  };
  for (const Case& c : cases) {
    const auto r = CounterVec::create(c.opts, c.labels);
    ASSERT_FALSE(r.ok()) << c.want;
    EXPECT_EQ(r.error(), c.want);
  }
  EXPECT_TRUE(CounterVec::create(opts("name:with_colon")).ok());
}

TEST(HistogramTest, BucketValidation) {
  auto le = HistogramVec::create(opts("h"), {1}, {"le"});
  ASSERT_FALSE(le.ok());
  EXPECT_EQ(le.error(), "\"le\" is not allowed as label name in histograms");
  auto order = HistogramVec::create(opts("h"), {1, 2, 2});
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.error(), "histogram buckets must be in increasing order: 2.000000 >= 2.000000");
  auto inf = HistogramVec::create(opts("h"), {1, std::numeric_limits<double>::infinity()});
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ((*inf)->upper_bounds(), std::vector<double>{1});
  auto defaults = HistogramVec::create(opts("h"), {});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ((*defaults)->upper_bounds(), default_buckets());
}

TEST(HistogramTest, NanLandsInInfOnly) {
  auto vec = HistogramVec::create(opts("h"), {1});
  ASSERT_TRUE(vec.ok());
  auto h = *(*vec)->with_label_values({});
  h->observe(std::nan(""));
  std::vector<std::uint64_t> cumulative;
  std::uint64_t count = 0;
  double sum = 0;
  h->snapshot(cumulative, count, sum);
  EXPECT_EQ(cumulative, std::vector<std::uint64_t>{0});
  EXPECT_EQ(count, 1u);
  EXPECT_TRUE(std::isnan(sum));
}

TEST(BucketsTest, LayoutsAndErrors) {
  EXPECT_EQ(*linear_buckets(1, 2, 3), (std::vector<double>{1, 3, 5}));
  EXPECT_EQ(*exponential_buckets(1, 2, 4), (std::vector<double>{1, 2, 4, 8}));
  EXPECT_EQ(exponential_buckets(1, 2, 0).error(), "ExponentialBuckets needs a positive count");
  EXPECT_EQ(exponential_buckets(0, 2, 1).error(),
            "ExponentialBuckets needs a positive start value");
  EXPECT_EQ(exponential_buckets(1, 1, 1).error(),
            "ExponentialBuckets needs a factor greater than 1");
  EXPECT_EQ(linear_buckets(1, 1, 0).error(), "LinearBuckets needs a positive count");
}

TEST(VecTest, LabelValueErrors) {
  auto vec = CounterVec::create(opts("c_total"), {"name"});
  ASSERT_TRUE(vec.ok());
  const auto wrong = (*vec)->with_label_values({"a", "b"});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error(),
            "inconsistent label cardinality: expected 1 label values but got 2 in []string{\"a\", "
            "\"b\"}");
  const auto utf8 = (*vec)->with_label_values({"\xff"});
  ASSERT_FALSE(utf8.ok());
  EXPECT_EQ(utf8.error(), "label value \"\\xff\" is not valid UTF-8");
  EXPECT_TRUE((*vec)->with_label_values({"h\xC3\xA9"}).ok());  // "hé"
  // The same values give the same child; remove drops it.
  EXPECT_EQ(*(*vec)->with_label_values({"x"}), *(*vec)->with_label_values({"x"}));
  EXPECT_TRUE((*vec)->remove({"x"}));
  EXPECT_FALSE((*vec)->remove({"x"}));
}

TEST(CounterTest, IgnoresNegativeAndNan) {
  Counter c;
  c.add(2.5);
  c.add(-1);
  c.add(std::nan(""));
  c.inc();
  EXPECT_EQ(c.value(), 3.5);
  Gauge g;
  g.inc();
  g.sub(3);
  g.add(0.5);
  EXPECT_EQ(g.value(), -1.5);
}

TEST(RegistryTest, ConcurrentUpdatesAndScrapes) {
  Registry registry;
  auto counter = CounterVec::create(opts("ops_total"), {"worker"});
  auto hist = HistogramVec::create(opts("op_seconds"), {0.5}, {"worker"});
  ASSERT_TRUE(counter.ok() && hist.ok());
  ASSERT_TRUE(registry.register_collector(*counter).ok());
  ASSERT_TRUE(registry.register_collector(*hist).ok());
  // A child of each family exists before scraping starts: a family with no
  // children renders nothing, and the scraper may run before any worker.
  ASSERT_TRUE((*counter)->with_label_values({"0"}).ok());
  ASSERT_TRUE((*hist)->with_label_values({"0"}).ok());
  constexpr int kThreads = 8;
  constexpr int kOps = 5000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kOps; ++i) {
        const std::string worker = std::to_string((t + i) % 3);
        (*(*counter)->with_label_values({worker}))->inc();
        (*(*hist)->with_label_values({worker}))->observe(i % 2 ? 1.0 : 0.25);
      }
    });
  }
  std::thread scraper([&] {
    for (int i = 0; i < 50; ++i)
      EXPECT_FALSE(registry.render_text().empty());
  });
  for (auto& t : threads)
    t.join();
  scraper.join();
  double total = 0;
  std::uint64_t observed = 0;
  for (const FamilySnapshot& f : registry.gather()) {
    for (const MetricSnapshot& m : f.metrics) {
      if (f.type == MetricType::kCounter) total += m.value;
      if (f.type == MetricType::kHistogram) {
        observed += m.count;
        EXPECT_LE(m.cumulative_counts[0], m.count);
      }
    }
  }
  EXPECT_EQ(total, kThreads * kOps);
  EXPECT_EQ(observed, static_cast<std::uint64_t>(kThreads * kOps));
}

}  // namespace
}  // namespace kcm::metrics
