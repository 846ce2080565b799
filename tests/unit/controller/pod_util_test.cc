#include "controller/pod_util.h"

#include <gtest/gtest.h>

#include "controller_test_util.h"

namespace kcm::controller {
namespace {

json::object pod(std::string_view text) {
  return json::parse(text).as_object();
}
constexpr std::string_view kReadyPodSince10 = R"({
  "metadata": {"name": "p", "namespace": "ns"},
  "status": {"phase": "Running", "conditions": [
    {"type": "PodScheduled", "status": "True"},
    {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:10Z"}]}})";

TEST(PodUtil, ReadyReadsTheFirstReadyCondition) {
  EXPECT_TRUE(is_pod_ready(pod(kReadyPodSince10)));
  EXPECT_EQ(pod_ready_time(pod(kReadyPodSince10)), time_at("2024-06-15T12:00:10Z"));
  // A later Ready=True does not count once the first Ready is False.
  const auto p = pod(R"({"status": {"conditions": [
      {"type": "Ready", "status": "False", "lastTransitionTime": "2024-06-15T12:00:00Z"},
      {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:00Z"}]}})");
  EXPECT_FALSE(is_pod_ready(p));
  EXPECT_TRUE(pod_ready_time(p).is_zero());
  EXPECT_FALSE(is_pod_ready(pod(R"({})")));
  EXPECT_FALSE(is_pod_ready(pod(R"({"status": {"conditions": "x"}})")));
}

TEST(PodUtil, DeletionCost) {
  struct Case {
    const char* value;  // nullptr: no annotation
    std::int32_t cost;
    const char* error;  // nullptr: ok
  };
  const Case cases[] = {
      {nullptr, 0, nullptr},
      {"0", 0, nullptr},
      {"100", 100, nullptr},
      {"-100", -100, nullptr},
      {"2147483647", 2147483647, nullptr},
      {"-2147483648", -2147483647 - 1, nullptr},
      {"-08", -8, nullptr},  // only the first character is checked for zeros
      {"", 0, "invalid value \"\""},
      {"+5", 0, "invalid value \"+5\""},
      {"007", 0, "invalid value \"007\""},
      {"-", 0, "strconv.ParseInt: parsing \"-\": invalid syntax"},
      {"12a", 0, "strconv.ParseInt: parsing \"12a\": invalid syntax"},
      {"1.5", 0, "strconv.ParseInt: parsing \"1.5\": invalid syntax"},
      {"2147483648", 0, "strconv.ParseInt: parsing \"2147483648\": value out of range"},
      {"-2147483649", 0, "strconv.ParseInt: parsing \"-2147483649\": value out of range"},
      {"99999999999x", 0, "strconv.ParseInt: parsing \"99999999999x\": value out of range"},
  };
  for (const Case& c : cases) {
    json::object p;
    if (c.value != nullptr) {
      p["metadata"] = {{"annotations", {{kPodDeletionCostAnnotation, c.value}}}};
    }
    const auto r = pod_deletion_cost(p);
    if (c.error == nullptr) {
      ASSERT_TRUE(r.ok()) << (c.value ? c.value : "(none)") << ": " << r.error();
      EXPECT_EQ(*r, c.cost) << c.value;
    } else {
      ASSERT_FALSE(r.ok()) << c.value;
      EXPECT_EQ(r.error(), c.error);
    }
  }
}

TEST(PodUtil, MaxContainerRestartsCountsOnlyRestartableInitContainers) {
  const auto p = pod(R"({
    "spec": {"initContainers": [{"name": "setup"}, {"name": "proxy", "restartPolicy": "Always"}]},
    "status": {
      "containerStatuses": [{"name": "a", "restartCount": 2}, {"name": "b", "restartCount": 7}],
      "initContainerStatuses": [{"name": "setup", "restartCount": 9},
                                {"name": "proxy", "restartCount": 4}]}})");
  const ContainerRestarts r = max_container_restarts(p);
  EXPECT_EQ(r.regular, 7);
  EXPECT_EQ(r.sidecar, 4);
  EXPECT_EQ(max_container_restarts(pod("{}")).regular, 0);
}

TEST(PodUtil, Fields) {
  const auto p = pod(R"({"metadata": {"name": "web-1", "namespace": "prod", "uid": "u1",
                         "creationTimestamp": "2024-06-15T12:00:00Z"},
                         "spec": {"nodeName": "n1"}, "status": {"phase": "Pending"}})");
  EXPECT_EQ(pod_node_name(p), "n1");
  EXPECT_EQ(pod_phase(p), "Pending");
  EXPECT_EQ(pod_creation_time(p), time_at("2024-06-15T12:00:00Z"));
  EXPECT_TRUE(pod_creation_time(pod("{}")).is_zero());
  EXPECT_TRUE(
      pod_creation_time(pod(R"({"metadata": {"creationTimestamp": "garbage"}})")).is_zero());
}

}  // namespace
}  // namespace kcm::controller
