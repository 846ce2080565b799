#include "metrics/text_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "metrics/buckets.h"

namespace kcm::metrics {
namespace {

TEST(FormatValueTest, MatchesGoFormatFloat) {
  struct Case {
    double v;
    const char* want;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {0, "0"},
      {-0.0, "0"},
      {1, "1"},
      {-1, "-1"},
      {std::nan(""), "NaN"},
      {inf, "+Inf"},
      {-inf, "-Inf"},
      {0.5, "0.5"},
      {2.5, "2.5"},
      {-3.25, "-3.25"},
      {10, "10"},
      {100000, "100000"},
      {123456, "123456"},
      {1e6, "1e+06"},
      {1234567, "1.234567e+06"},
      {1e21, "1e+21"},
      {1.5e300, "1.5e+300"},
      {0.0001, "0.0001"},
      {0.00012, "0.00012"},
      {0.00001, "1e-05"},
      {1e-08, "1e-08"},
      {5e-324, "5e-324"},
      {0.1 + 0.2, "0.30000000000000004"},
      {-2e-7, "-2e-07"},
      {42, "42"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(format_value(c.v), c.want) << c.want;
  }
}

TEST(FormatValueTest, WorkqueueBucketsPrintAsGoPrintsThem) {
  const auto buckets = exponential_buckets(10e-9, 10, 10);
  ASSERT_TRUE(buckets.ok());
  std::vector<std::string> got;
  for (const double b : *buckets)
    got.push_back(format_value(b));
  const std::vector<std::string> want = {
      "1e-08", "1e-07", "1e-06", "9.999999999999999e-06", "9.999999999999999e-05", "0.001", "0.01",
      "0.1",   "1",     "10"};
  EXPECT_EQ(got, want);
}

TEST(EscapeTest, HelpAndLabelValues) {
  EXPECT_EQ(escape_help("a\\b\nc\"d"), "a\\\\b\\nc\"d");
  EXPECT_EQ(escape_label_value("a\\b\nc\"d"), "a\\\\b\\nc\\\"d");
  EXPECT_EQ(escape_label_value(""), "");
  EXPECT_EQ(kTextContentType, "text/plain; version=0.0.4; charset=utf-8");
}

TEST(RenderTextTest, SkipsEmptyFamiliesAndWritesHistograms) {
  std::vector<FamilySnapshot> families;
  families.push_back({"empty", "nothing", MetricType::kCounter, {}, {}});
  MetricSnapshot h;
  h.labels = {{"a", "x"}};
  h.cumulative_counts = {1, 3};
  h.count = 4;
  h.sum = 2.5;
  families.push_back({"lat", "Latency.", MetricType::kHistogram, {0.5, 1}, {h}});
  MetricSnapshot g;
  g.value = 7;
  families.push_back({"up", "", MetricType::kGauge, {}, {g}});
  EXPECT_EQ(render_text(families),
            "# HELP lat Latency.\n"
            "# TYPE lat histogram\n"
            "lat_bucket{a=\"x\",le=\"0.5\"} 1\n"
            "lat_bucket{a=\"x\",le=\"1\"} 3\n"
            "lat_bucket{a=\"x\",le=\"+Inf\"} 4\n"
            "lat_sum{a=\"x\"} 2.5\n"
            "lat_count{a=\"x\"} 4\n"
            "# HELP up \n"
            "# TYPE up gauge\n"
            "up 7\n");
}

}  // namespace
}  // namespace kcm::metrics
