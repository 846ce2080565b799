#include "controllers/namespace/graceful_estimate.h"

#include <gtest/gtest.h>

#include <chrono>

#include "controllers/namespace/namespace_controller.h"
#include "controllers/namespace/namespaced_resources_deleter.h"

namespace kcm::controllers::ns {
namespace {

namespace json = boost::json;

json::value pod(std::string_view phase, std::optional<std::int64_t> grace) {
  json::object spec;
  if (grace) spec["terminationGracePeriodSeconds"] = *grace;
  return json::object{{"spec", spec}, {"status", json::object{{"phase", phase}}}};
}

TEST(GracefulEstimateTest, PodsEstimateIsTheLargestGraceOfLivePods) {
  struct Case {
    std::string name;
    std::vector<json::value> pods;
    std::int64_t want;
  } cases[] = {
      {"none", {}, 0},
      {"no grace set", {pod("Running", std::nullopt)}, 0},
      {"largest", {pod("Running", 30), pod("Pending", 60), pod("Running", 5)}, 60},
      {"terminal pods ignored", {pod("Succeeded", 90), pod("Failed", 120), pod("Running", 10)}, 10},
      {"not a number",
       {json::object{{"spec", json::object{{"terminationGracePeriodSeconds", "x"}}}}},
       0},
  };
  for (const Case& c : cases)
    EXPECT_EQ(pods_grace_estimate(c.pods), c.want) << c.name;
}

TEST(GracefulEstimateTest, EstimateEndsOnceTheGracePeriodHasPassed) {
  const auto deleted = std::chrono::system_clock::time_point(std::chrono::seconds(1'000'000));
  const api::Time at(deleted);
  using std::chrono::seconds;
  EXPECT_EQ(remaining_estimate(30, at, deleted + seconds(10)), 30);
  EXPECT_EQ(remaining_estimate(30, at, deleted + seconds(29)), 30);
  EXPECT_EQ(remaining_estimate(30, at, deleted + seconds(30)), 0);
  EXPECT_EQ(remaining_estimate(30, at, deleted + seconds(31)), 0);
  EXPECT_EQ(remaining_estimate(0, at, deleted), 0);
  EXPECT_EQ(remaining_estimate(30, api::Time(), deleted), 0);
}

TEST(GracefulEstimateTest, RequeueDelayIsHalfTheEstimatePlusOne) {
  EXPECT_EQ(requeue_delay(0), std::chrono::seconds(1));
  EXPECT_EQ(requeue_delay(15), std::chrono::seconds(8));
  EXPECT_EQ(requeue_delay(30), std::chrono::seconds(16));
}

TEST(GracefulEstimateTest, RateLimiterIsUpstreams) {
  auto limiter = ns_controller_rate_limiter();
  using std::chrono::milliseconds;
  EXPECT_EQ(limiter->when("a"), milliseconds(5));
  EXPECT_EQ(limiter->when("a"), milliseconds(10));
  EXPECT_EQ(limiter->when("a"), milliseconds(20));
  for (int i = 0; i < 20; ++i)
    (void)limiter->when("b");
  // Capped at a minute (the token bucket's burst of 100 is not reached).
  EXPECT_EQ(limiter->when("b"), std::chrono::seconds(60));
  EXPECT_EQ(limiter->num_requeues("a"), 3);
  limiter->forget("a");
  EXPECT_EQ(limiter->num_requeues("a"), 0);
}

}  // namespace
}  // namespace kcm::controllers::ns
