#include "local/cluster/resources.h"

#include <gtest/gtest.h>

namespace kcm::local::cluster {
namespace {

json::object spec(std::string_view text) {
  return json::parse(text).as_object();
}

constexpr std::int64_t kMi = 1024 * 1024;

TEST(PodRequests, SumsContainersAndTakesTheLargestInitStep) {
  struct Case {
    std::string name;
    std::string spec;
    Resources want;
  };
  const std::vector<Case> cases = {
      {"no requests", R"({"containers":[{"name":"a"}]})", {0, 0, 0, 1}},
      {"sum of containers",
       R"({"containers":[{"name":"a","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}},
                         {"name":"b","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]})",
       {1100, 1088 * kMi, 0, 1}},
      {"init container larger than the containers",
       R"({"initContainers":[{"name":"i","resources":{"requests":{"cpu":"2"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"500m","memory":"1Mi"}}}]})",
       {2000, kMi, 0, 1}},
      {"sidecar runs beside the containers and the later init containers",
       R"({"initContainers":[{"name":"s","restartPolicy":"Always","resources":{"requests":{"cpu":"200m"}}},
                             {"name":"i","resources":{"requests":{"cpu":"900m"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"500m"}}}]})",
       {1100, 0, 0, 1}},
      {"overhead is added",
       R"({"containers":[{"name":"a","resources":{"requests":{"cpu":"100m"}}}],
           "overhead":{"cpu":"50m","memory":"10Mi"}})",
       {150, 10 * kMi, 0, 1}},
      {"pod-level requests win for cpu and memory",
       R"({"resources":{"requests":{"cpu":"3"}},
           "containers":[{"name":"a","resources":{"requests":{"cpu":"100m","memory":"1Mi"}}}]})",
       {3000, kMi, 0, 1}},
      {"ephemeral storage",
       R"({"containers":[{"name":"a","resources":{"requests":{"ephemeral-storage":"1Gi"}}}]})",
       {0, 0, 1024 * kMi, 1}},
  };
  for (const auto& c : cases) {
    const Resources got = pod_requests(spec(c.spec));
    EXPECT_EQ(got.milli_cpu, c.want.milli_cpu) << c.name;
    EXPECT_EQ(got.memory, c.want.memory) << c.name;
    EXPECT_EQ(got.ephemeral_storage, c.want.ephemeral_storage) << c.name;
    EXPECT_EQ(got.pods, 1) << c.name;
  }
}

TEST(PodRequests, NonZeroCountsMissingRequestsAsTheSchedulerDefaults) {
  const Resources got = pod_requests(
      spec(R"({"containers":[{"name":"a"},{"name":"b","resources":{"requests":{"cpu":"1"}}}]})"),
      true);
  EXPECT_EQ(got.milli_cpu, 100 + 1000);
  EXPECT_EQ(got.memory, 2 * 200 * kMi);
}

TEST(NodeAllocatable, ReadsAllocatableElseCapacity) {
  const Resources a = node_allocatable(spec(
      R"({"status":{"capacity":{"cpu":"8"},"allocatable":{"cpu":"3500m","memory":"2Gi","pods":"110"}}})"));
  EXPECT_EQ(a.milli_cpu, 3500);
  EXPECT_EQ(a.memory, 2048 * kMi);
  EXPECT_EQ(a.pods, 110);
  EXPECT_EQ(node_allocatable(spec(R"({"status":{"capacity":{"cpu":"8"}}})")).milli_cpu, 8000);
  EXPECT_EQ(node_allocatable(spec(R"({})")).milli_cpu, 0);
}

}  // namespace
}  // namespace kcm::local::cluster
