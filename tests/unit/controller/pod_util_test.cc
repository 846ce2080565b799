#include "controller/pod_util.h"

#include <gtest/gtest.h>

namespace kcm::controller {
namespace {

json::object pod(std::string_view text) {
  return json::parse(text).as_object();
}
api::Time at(const char* s) {
  return *api::Time::parse(s);
}

constexpr std::string_view kReadySince10 = R"({
  "metadata": {"name": "p", "namespace": "ns"},
  "status": {"phase": "Running", "conditions": [
    {"type": "PodScheduled", "status": "True"},
    {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:10Z"}]}})";

TEST(PodUtil, ReadyReadsTheFirstReadyCondition) {
  EXPECT_TRUE(is_pod_ready(pod(kReadySince10)));
  EXPECT_EQ(pod_ready_time(pod(kReadySince10)), at("2024-06-15T12:00:10Z"));
  // A later Ready=True does not count once the first Ready is False.
  const auto p = pod(R"({"status": {"conditions": [
      {"type": "Ready", "status": "False", "lastTransitionTime": "2024-06-15T12:00:00Z"},
      {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:00Z"}]}})");
  EXPECT_FALSE(is_pod_ready(p));
  EXPECT_TRUE(pod_ready_time(p).is_zero());
  EXPECT_FALSE(is_pod_ready(pod(R"({})")));
  EXPECT_FALSE(is_pod_ready(pod(R"({"status": {"conditions": "x"}})")));
}

TEST(PodUtil, AvailabilityBoundaryIsInclusive) {
  const auto p = pod(kReadySince10);
  EXPECT_TRUE(is_pod_available(p, 0, at("2024-06-15T12:00:00Z")));  // 0: ready is enough
  EXPECT_FALSE(is_pod_available(p, 5, at("2024-06-15T12:00:14Z")));
  EXPECT_TRUE(is_pod_available(p, 5, at("2024-06-15T12:00:15Z")));  // exactly at the deadline
  EXPECT_TRUE(is_pod_available(p, 5, at("2024-06-15T12:00:16Z")));
  // A zero lastTransitionTime is never available with minReadySeconds > 0.
  const auto zero = pod(R"({"status": {"conditions": [{"type": "Ready", "status": "True"}]}})");
  EXPECT_TRUE(is_pod_available(zero, 0, at("2024-06-15T12:00:00Z")));
  EXPECT_FALSE(is_pod_available(zero, 1, at("2030-01-01T00:00:00Z")));
  // Not ready: never available.
  EXPECT_FALSE(
      is_pod_available(pod(R"({"status": {"phase": "Running"}})"), 0, at("2024-06-15T12:00:00Z")));
}

TEST(PodUtil, NextAvailabilityCheck) {
  const auto p = pod(kReadySince10);
  auto next = next_pod_availability_check(p, 5, at("2024-06-15T12:00:12Z"));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(*next, std::chrono::seconds(3));
  EXPECT_FALSE(next_pod_availability_check(p, 5, at("2024-06-15T12:00:15Z")).has_value());
  EXPECT_FALSE(next_pod_availability_check(p, 0, at("2024-06-15T12:00:12Z")).has_value());

  const auto later = pod(R"({"status": {"conditions": [
      {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:11Z"}]}})");
  const auto not_ready = pod(R"({"status": {"phase": "Pending"}})");
  const std::vector<const json::object*> pods = {&not_ready, &later, &p};
  auto min = find_min_next_pod_availability_check(pods, 5, at("2024-06-15T12:00:12Z"));
  ASSERT_TRUE(min.has_value());
  EXPECT_EQ(min->after, std::chrono::seconds(3));
  EXPECT_EQ(min->pod_index, 2u);
  EXPECT_FALSE(
      find_min_next_pod_availability_check(pods, 5, at("2024-06-15T12:01:00Z")).has_value());
}

TEST(PodUtil, ActiveTerminalTerminating) {
  struct Case {
    std::string_view pod;
    bool active, terminal, terminating;
  };
  const Case cases[] = {
      {R"({"status": {"phase": "Running"}})", true, false, false},
      {R"({})", true, false, false},
      {R"({"status": {"phase": "Succeeded"}})", false, true, false},
      {R"({"status": {"phase": "Failed"}})", false, true, false},
      {R"({"metadata": {"deletionTimestamp": "2024-06-15T12:00:00Z"}, "status": {"phase": "Running"}})",
       false, false, true},
      {R"({"metadata": {"deletionTimestamp": "2024-06-15T12:00:00Z"}, "status": {"phase": "Failed"}})",
       false, true, false},
      {R"({"metadata": {"deletionTimestamp": null}})", true, false, false},
  };
  for (const Case& c : cases) {
    const auto p = pod(c.pod);
    EXPECT_EQ(is_pod_active(p), c.active) << c.pod;
    EXPECT_EQ(is_pod_terminal(p), c.terminal) << c.pod;
    EXPECT_EQ(is_pod_terminating(p), c.terminating) << c.pod;
  }
  const auto a = pod(cases[0].pod), t = pod(cases[4].pod), s = pod(cases[2].pod);
  const std::vector<const json::object*> all = {&a, &t, &s};
  EXPECT_EQ(filter_active_pods(all), (std::vector<const json::object*>{&a}));
  EXPECT_EQ(filter_terminating_pods(all), (std::vector<const json::object*>{&t}));
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

TEST(PodUtil, FieldsAndKey) {
  const auto p = pod(R"({"metadata": {"name": "web-1", "namespace": "prod", "uid": "u1",
                         "creationTimestamp": "2024-06-15T12:00:00Z"},
                         "spec": {"nodeName": "n1"}, "status": {"phase": "Pending"}})");
  EXPECT_EQ(pod_key(p), "prod/web-1");
  EXPECT_EQ(pod_uid(p), "u1");
  EXPECT_EQ(pod_node_name(p), "n1");
  EXPECT_EQ(pod_phase(p), "Pending");
  EXPECT_EQ(pod_creation_time(p), at("2024-06-15T12:00:00Z"));
  EXPECT_TRUE(pod_creation_time(pod("{}")).is_zero());
  EXPECT_TRUE(
      pod_creation_time(pod(R"({"metadata": {"creationTimestamp": "garbage"}})")).is_zero());
}

}  // namespace
}  // namespace kcm::controller
