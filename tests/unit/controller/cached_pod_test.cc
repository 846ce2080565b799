#include "controller/cached_pod.h"

#include <gtest/gtest.h>

#include "controller_test_util.h"

namespace kcm::controller {
namespace {

// The pod's facts, as a pod informer keeping pod summaries caches them.
PodFacts facts(std::string_view text) {
  return CachedPod::from_json(json::parse(text)).value().facts();
}
CachedPod cached_pod_of(std::string_view text) {
  return CachedPod::from_json(json::parse(text)).value();
}
// Ready since 12:00:10.
constexpr std::string_view kReadySince10 =
    R"({"status": {"conditions": [{"type": "Ready", "status": "True",)"
    R"( "lastTransitionTime": "2024-06-15T12:00:10Z"}]}})";

constexpr std::string_view kEverything = R"({
  "metadata": {"name": "web-1", "namespace": "prod", "uid": "u1",
               "creationTimestamp": "2024-06-15T12:00:00Z",
               "annotations": {"controller.kubernetes.io/pod-deletion-cost": "-7"}},
  "spec": {"nodeName": "node-with-a-name-longer-than-fifteen",
           "initContainers": [{"name": "proxy", "restartPolicy": "Always"}]},
  "status": {"phase": "Running",
             "conditions": [{"type": "Ready", "status": "True",
                             "lastTransitionTime": "2024-06-15T12:00:10Z"}],
             "containerStatuses": [{"name": "app", "restartCount": 3}],
             "initContainerStatuses": [{"name": "proxy", "restartCount": 2}]}})";

TEST(CachedPod, FactsHoldWhatThePodUtilHelpersRead) {
  const PodFacts f = facts(kEverything);
  EXPECT_EQ(f.phase, "Running");
  EXPECT_EQ(f.node_name, "node-with-a-name-longer-than-fifteen");
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.ready_time, time_at("2024-06-15T12:00:10Z"));
  EXPECT_EQ(f.deletion_cost, -7);
  EXPECT_EQ(f.restarts.regular, 3);
  EXPECT_EQ(f.restarts.sidecar, 2);
  EXPECT_EQ(f.creation_time, time_at("2024-06-15T12:00:00Z"));
  // Its bytes count the node name, which does not fit in the string itself.
  EXPECT_GT(f.footprint_bytes(), sizeof(PodFacts) + f.node_name.size());

  const PodFacts bare = facts("{}");
  EXPECT_EQ(bare.phase, "");
  EXPECT_EQ(bare.node_name, "");
  EXPECT_FALSE(bare.ready);
  EXPECT_TRUE(bare.ready_time.is_zero());
  EXPECT_EQ(bare.deletion_cost, 0);
  EXPECT_TRUE(bare.creation_time.is_zero());
  // An invalid deletion cost counts as 0, as upstream's sort reads it.
  EXPECT_EQ(facts(R"({"metadata":{"annotations":{
                        "controller.kubernetes.io/pod-deletion-cost":"+5"}}})")
                .deletion_cost,
            0);
}

TEST(CachedPod, FactsComeFromTheSummaryOrFromTheBody) {
  const json::value pod = json::parse(kEverything);
  auto summarized = cache::CachedObject::from_json(pod, nullptr, summarize_pod);
  auto plain = cache::CachedObject::from_json(pod);
  ASSERT_TRUE(summarized.ok());
  ASSERT_TRUE(plain.ok());
  // With a summary, the pod reads it (the very object, not a copy).
  const CachedPod from_summary(*summarized);
  EXPECT_EQ(&from_summary.facts(), (*summarized)->summary().get());
  // Without one, the facts are read from the body, and are the same.
  const CachedPod from_body(*plain);
  EXPECT_EQ((*plain)->summary(), nullptr);
  EXPECT_EQ(from_body.facts().node_name, from_summary.facts().node_name);
  EXPECT_EQ(from_body.facts().ready_time, from_summary.facts().ready_time);
  EXPECT_EQ(from_body.facts().deletion_cost, from_summary.facts().deletion_cost);
  EXPECT_EQ(from_body.facts().restarts.sidecar, from_summary.facts().restarts.sidecar);
  EXPECT_EQ(from_body.facts().creation_time, from_summary.facts().creation_time);
}

TEST(CachedPod, AvailabilityBoundaryIsInclusive) {
  const PodFacts p = facts(kReadySince10);
  EXPECT_TRUE(is_pod_available(p, 0, time_at("2024-06-15T12:00:00Z")));  // 0: ready is enough
  EXPECT_FALSE(is_pod_available(p, 5, time_at("2024-06-15T12:00:14Z")));
  EXPECT_TRUE(is_pod_available(p, 5, time_at("2024-06-15T12:00:15Z")));  // exactly at the deadline
  EXPECT_TRUE(is_pod_available(p, 5, time_at("2024-06-15T12:00:16Z")));
  // A zero lastTransitionTime is never available with minReadySeconds > 0.
  const PodFacts zero =
      facts(R"({"status": {"conditions": [{"type": "Ready", "status": "True"}]}})");
  EXPECT_TRUE(is_pod_available(zero, 0, time_at("2024-06-15T12:00:00Z")));
  EXPECT_FALSE(is_pod_available(zero, 1, time_at("2030-01-01T00:00:00Z")));
  // Not ready: never available.
  EXPECT_FALSE(is_pod_available(facts(R"({"status": {"phase": "Running"}})"), 0,
                                time_at("2024-06-15T12:00:00Z")));
}

TEST(CachedPod, NextAvailabilityCheck) {
  const CachedPod p = cached_pod_of(kReadySince10);
  auto next = next_pod_availability_check(p.facts(), 5, time_at("2024-06-15T12:00:12Z"));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(*next, std::chrono::seconds(3));
  EXPECT_FALSE(
      next_pod_availability_check(p.facts(), 5, time_at("2024-06-15T12:00:15Z")).has_value());
  EXPECT_FALSE(
      next_pod_availability_check(p.facts(), 0, time_at("2024-06-15T12:00:12Z")).has_value());

  const CachedPod later = cached_pod_of(R"({"status": {"conditions": [
      {"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-15T12:00:11Z"}]}})");
  const CachedPod not_ready = cached_pod_of(R"({"status": {"phase": "Pending"}})");
  const std::vector<const CachedPod*> pods = {&not_ready, &later, &p};
  auto min = find_min_next_pod_availability_check(pods, 5, time_at("2024-06-15T12:00:12Z"));
  ASSERT_TRUE(min.has_value());
  EXPECT_EQ(min->after, std::chrono::seconds(3));
  EXPECT_EQ(min->pod_index, 2u);
  EXPECT_FALSE(
      find_min_next_pod_availability_check(pods, 5, time_at("2024-06-15T12:01:00Z")).has_value());
}

TEST(CachedPod, ActiveTerminalTerminating) {
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
    const CachedPod p = cached_pod_of(c.pod);
    EXPECT_EQ(is_pod_active(p), c.active) << c.pod;
    EXPECT_EQ(is_pod_terminal(p.facts()), c.terminal) << c.pod;
    EXPECT_EQ(is_pod_terminating(p), c.terminating) << c.pod;
  }
  const std::vector<CachedPod> pods = {cached_pod_of(cases[0].pod), cached_pod_of(cases[4].pod),
                                       cached_pod_of(cases[2].pod)};
  const std::vector<const CachedPod*> all = pointers_to(pods);
  EXPECT_EQ(filter_active_pods(all), (std::vector<const CachedPod*>{&pods[0]}));
  EXPECT_EQ(filter_terminating_pods(all), (std::vector<const CachedPod*>{&pods[1]}));
}

}  // namespace
}  // namespace kcm::controller
