#include "controllers/deployment/cleanup.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

ReplicaSetList run(const json::value& c, ReplicaSets& rss) {
  const json::object& in = c.at("input").as_object();
  json::object d_compact{{"replicas", 1}};
  d_compact["revisionHistoryLimit"] = in.at("revisionHistoryLimit");
  const ReplicaSetList old = rss.add_all(in.if_contains("oldRSs"));
  return replica_sets_to_clean_up(old, deployment_view(d_compact));
}

// TestDeploymentController_cleanupDeployment.
TEST(Cleanup, UpstreamCleanupDeployment) {
  const json::object file = load_upstream_cases("cleanup_deployment.json");
  ASSERT_EQ(cases_of(file).size(), 6u);
  for (const json::value& c : cases_of(file)) {
    ReplicaSets rss;
    EXPECT_EQ(static_cast<std::int64_t>(run(c, rss).size()),
              c.at("expected").at("deletions").as_int64())
        << str(c.at("name"));
  }
}

// TestDeploymentController_cleanupDeploymentOrder.
TEST(Cleanup, UpstreamCleanupDeploymentOrder) {
  const json::object file = load_upstream_cases("cleanup_deployment_order.json");
  ASSERT_EQ(cases_of(file).size(), 7u);
  for (const json::value& c : cases_of(file)) {
    ReplicaSets rss;
    std::vector<std::string> got = names_of(run(c, rss));
    std::vector<std::string> want = strings_of(c.at("expected").at("deleted"));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << str(c.at("name"));
  }
}

TEST(Cleanup, UnobservedGenerationAndNoLimit) {
  ReplicaSets rss;
  const ReplicaSetInfo* unobserved = rss.add_compact(json::object{
      {"name", "a"}, {"generation", 2}, {"status", json::object{{"observedGeneration", 1}}}});
  const ReplicaSetInfo* observed = rss.add_compact(json::object{
      {"name", "b"}, {"generation", 2}, {"status", json::object{{"observedGeneration", 2}}}});
  json::object d{{"revisionHistoryLimit", 0}};
  EXPECT_EQ(names_of(replica_sets_to_clean_up({unobserved, observed}, deployment_view(d))),
            std::vector<std::string>{"b"});
  EXPECT_TRUE(replica_sets_to_clean_up({observed}, deployment_view(json::object{})).empty());
}

}  // namespace
}  // namespace kcm::controllers::deployment
