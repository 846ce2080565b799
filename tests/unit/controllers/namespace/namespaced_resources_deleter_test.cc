#include "controllers/namespace/namespaced_resources_deleter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "fake_deleter_api.h"

namespace kcm::controllers::ns {
namespace {

namespace json = boost::json;
using testing::all_verbs;
using ::testing::ElementsAre;
using testing::FakeDeleterApi;
using testing::resource;

constexpr std::string_view kDeletedAt = "2026-11-30T10:00:00Z";

json::value namespace_object(bool deleting, std::string phase = "Active",
                             json::array finalizers = {"kubernetes"}) {
  json::object meta{{"name", "doomed"}, {"uid", "u-1"}};
  if (deleting) meta["deletionTimestamp"] = kDeletedAt;
  return json::object{{"apiVersion", "v1"},
                      {"kind", "Namespace"},
                      {"metadata", meta},
                      {"spec", json::object{{"finalizers", finalizers}}},
                      {"status", json::object{{"phase", phase}}}};
}

json::value item(std::string name, json::array finalizers = {}) {
  json::object meta{{"name", name}, {"namespace", "doomed"}};
  if (!finalizers.empty()) meta["finalizers"] = finalizers;
  return json::object{{"metadata", meta}};
}

json::value graceful_pod(std::string name, std::int64_t grace) {
  return json::object{{"metadata", json::object{{"name", name}, {"namespace", "doomed"}}},
                      {"spec", json::object{{"terminationGracePeriodSeconds", grace}}},
                      {"status", json::object{{"phase", "Running"}}}};
}

std::string condition_field(const json::value& ns, std::string_view type, std::string_view key) {
  const json::value* conditions = api::find_path(ns, {"status", "conditions"});
  if (conditions == nullptr) return "<none>";
  for (const json::value& c : conditions->as_array()) {
    if (c.at("type").as_string() == type) return std::string(c.at(key).as_string());
  }
  return "<missing>";
}

class DeleterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_.discovery.resources = {
        resource("", "v1", "configmaps", all_verbs()),
        resource("", "v1", "pods", all_verbs()),
        resource("", "v1", "events", {"create", "delete", "get", "list"}),
        resource("", "v1", "bindings", {"create"}),
        resource("", "v1", "nodes", all_verbs(), /*namespaced=*/false),
        resource("apps", "v1", "replicasets", all_verbs()),
    };
  }

  NamespacedResourcesDeleter deleter(std::int64_t seconds_since_deletion = 3600) {
    const auto deleted = api::Time::parse(kDeletedAt)->time_point();
    return NamespacedResourcesDeleter(
        api_, {.now = [=] { return deleted + std::chrono::seconds(seconds_since_deletion); },
               .condition_time = [] { return std::string("2026-11-30T10:00:05Z"); }});
  }

  FakeDeleterApi api_;
};

TEST_F(DeleterTest, GoneOrNotDeletingIsNothingToDo) {
  auto d = deleter();
  EXPECT_TRUE(d.delete_namespace("doomed").ok());
  api_.namespace_object = namespace_object(false);
  EXPECT_TRUE(d.delete_namespace("doomed").ok());
  EXPECT_THAT(api_.calls, ElementsAre("get", "get"));
}

TEST_F(DeleterTest, EmptiesTheNamespaceThenReleasesTheFinalizer) {
  api_.namespace_object = namespace_object(true, "Active", {"kubernetes", "z/other", "a/other"});
  api_.objects["configmaps"] = {item("c1"), item("c2")};
  api_.objects["events"] = {item("e1")};
  api_.objects["replicasets"] = {item("rs")};
  auto d = deleter();
  const auto result = d.delete_namespace("doomed");
  ASSERT_TRUE(result.ok()) << result.error().message;

  // Terminating first, then content (sorted by group, version, resource;
  // events have no deletecollection), then the conditions, then finalize.
  EXPECT_THAT(api_.calls, ElementsAre("get", "status", "discover", "deletecollection configmaps",
                                      "list configmaps", "list events", "delete events e1",
                                      "list events", "list pods", "deletecollection pods",
                                      "list pods", "deletecollection replicasets",
                                      "list replicasets", "status", "finalize"));
  ASSERT_EQ(api_.status_updates.size(), 2u);
  EXPECT_EQ(api_.status_updates[0].at("status").at("phase"), "Terminating");
  for (std::string_view type : {kDeletionDiscoveryFailure, kDeletionGroupVersionParsingFailure,
                                kDeletionContentFailure, kContentRemaining, kFinalizersRemaining}) {
    EXPECT_EQ(condition_field(api_.status_updates[1], type, "status"), "False") << type;
  }
  // Our token gone; the others kept, sorted.
  ASSERT_EQ(api_.finalize_requests.size(), 1u);
  EXPECT_EQ(api_.finalize_requests[0].at("spec").at("finalizers"),
            (json::array{"a/other", "z/other"}));
  EXPECT_TRUE(api_.objects["configmaps"].empty());
  EXPECT_TRUE(api_.objects["events"].empty());
}

TEST_F(DeleterTest, FinalizersOnContentKeepTheNamespace) {
  api_.namespace_object = namespace_object(true, "Terminating");
  api_.objects["configmaps"] = {item("held", {"example.com/hold"}), item("free")};
  auto d = deleter();
  const auto result = d.delete_namespace("doomed");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().remaining_estimate, kFinalizerEstimateSeconds);
  EXPECT_EQ(result.error().message,
            "some content remains in the namespace, estimate 15 seconds before it is removed");
  EXPECT_TRUE(api_.finalize_requests.empty());
  // Phase already Terminating: only the conditions are written.
  ASSERT_EQ(api_.status_updates.size(), 1u);
  const json::value& ns = api_.status_updates[0];
  EXPECT_EQ(condition_field(ns, kContentRemaining, "status"), "True");
  EXPECT_EQ(condition_field(ns, kContentRemaining, "message"),
            "Some resources are remaining: configmaps. has 1 resource instances");
  EXPECT_EQ(condition_field(ns, kFinalizersRemaining, "reason"), "SomeFinalizersRemain");
  EXPECT_EQ(condition_field(ns, kFinalizersRemaining, "message"),
            "Some content in the namespace has finalizers remaining: example.com/hold in 1 "
            "resource instances");
  EXPECT_EQ(condition_field(ns, kDeletionContentFailure, "reason"), "ContentDeleted");

  // The finalizer removed: the next pass finishes.
  api_.objects["configmaps"].clear();
  ASSERT_TRUE(d.delete_namespace("doomed").ok());
  ASSERT_EQ(api_.finalize_requests.size(), 1u);
  EXPECT_EQ(api_.finalize_requests[0].at("spec").at("finalizers"), json::array());
  EXPECT_EQ(condition_field(*api_.namespace_object, kFinalizersRemaining, "reason"),
            "ContentHasNoFinalizers");
}

TEST_F(DeleterTest, GracefulPodsGetTheirGracePeriod) {
  api_.namespace_object = namespace_object(true, "Terminating");
  api_.graceful_pods = true;
  api_.objects["pods"] = {graceful_pod("p1", 30), graceful_pod("p2", 45)};
  {
    auto d = deleter(/*seconds_since_deletion=*/10);
    const auto result = d.delete_namespace("doomed");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().remaining_estimate, 45);
    EXPECT_EQ(condition_field(*api_.namespace_object, kContentRemaining, "message"),
              "Some resources are remaining: pods. has 2 resource instances");
    EXPECT_EQ(condition_field(*api_.namespace_object, kDeletionContentFailure, "status"), "False");
  }
  {
    // Past the grace period, pods without finalizers should be gone: an error.
    auto d = deleter(/*seconds_since_deletion=*/45);
    const auto result = d.delete_namespace("doomed");
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(result.error().remaining_estimate);
    EXPECT_EQ(result.error().message,
              "unexpected items still remain in namespace: doomed for gvr: /v1, Resource=pods");
    EXPECT_EQ(condition_field(*api_.namespace_object, kDeletionContentFailure, "reason"),
              "ContentDeletionFailed");
    EXPECT_EQ(condition_field(*api_.namespace_object, kDeletionContentFailure, "message"),
              "Failed to delete all resource types, 1 remaining: unexpected items still remain "
              "in namespace: doomed for gvr: /v1, Resource=pods");
  }
}

TEST_F(DeleterTest, DeleteCollectionRefusedFallsBackToEachItem) {
  api_.namespace_object = namespace_object(true, "Terminating");
  api_.collection_not_allowed = {"configmaps"};
  api_.objects["configmaps"] = {item("a"), item("b")};
  api_.discovery.resources = {resource("", "v1", "configmaps", all_verbs())};
  auto d = deleter();
  ASSERT_TRUE(d.delete_namespace("doomed").ok());
  EXPECT_THAT(api_.calls,
              ElementsAre("get", "discover", "deletecollection configmaps", "list configmaps",
                          "delete configmaps a", "delete configmaps b", "list configmaps", "status",
                          "finalize"));
}

TEST_F(DeleterTest, DiscoveryFailuresAreReportedButNotFatal) {
  api_.namespace_object = namespace_object(true, "Terminating");
  api_.discovery.failed = {{"metrics.k8s.io/v1beta1",
                            "the server is currently unable to handle "
                            "the request"}};
  api_.objects["configmaps"] = {item("a")};
  auto d = deleter();
  const auto result = d.delete_namespace("doomed");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(result.error().remaining_estimate);
  EXPECT_EQ(result.error().message,
            "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the "
            "server is currently unable to handle the request");
  EXPECT_TRUE(api_.objects["configmaps"].empty());  // the rest was still deleted
  EXPECT_TRUE(api_.finalize_requests.empty());
  EXPECT_EQ(condition_field(*api_.namespace_object, kDeletionDiscoveryFailure, "message"),
            "Discovery failed for some groups, 1 failing: unable to retrieve the complete list "
            "of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle "
            "the request");
}

TEST_F(DeleterTest, StatusConflictIsRetriedWithTheLatestNamespace) {
  api_.namespace_object = namespace_object(true, "Active");
  api_.discovery.resources.clear();
  api_.status_conflicts = 1;
  auto d = deleter();
  ASSERT_TRUE(d.delete_namespace("doomed").ok());
  EXPECT_THAT(api_.calls,
              ElementsAre("get", "status", "get", "status", "discover", "status", "finalize"));
  EXPECT_EQ(api_.namespace_object->at("status").at("phase"), "Terminating");
}

TEST_F(DeleterTest, AlreadyFinalizedIsDone) {
  api_.namespace_object = namespace_object(true, "Terminating", {});
  auto d = deleter();
  ASSERT_TRUE(d.delete_namespace("doomed").ok());
  EXPECT_THAT(api_.calls, ElementsAre("get"));
}

TEST(DeleterHelpersTest, Messages) {
  EXPECT_EQ(aggregate_message({"a"}), "a");
  EXPECT_EQ(aggregate_message({"a", "b", "a"}), "[a, b]");
  EXPECT_EQ(gvr_string({"", "v1", "pods"}), "/v1, Resource=pods");
  EXPECT_EQ(gvr_string({"apps", "v1", "deployments"}), "apps/v1, Resource=deployments");
  EXPECT_EQ(discovery_failure_message({{"v1", "x"}, {"apps/v1", "y"}}),
            "unable to retrieve the complete list of server APIs: apps/v1: y, v1: x");
  EXPECT_EQ(resources_remaining_message(8),
            "some content remains in the namespace, estimate 8 seconds before it is removed");
  const json::value ns = namespace_object(true, "Terminating", {"b", "kubernetes", "a", "b"});
  EXPECT_THAT(finalizers_without(ns, "kubernetes"), ElementsAre("a", "b"));
  EXPECT_TRUE(finalizers_without(json::object{}, "kubernetes").empty());
}

}  // namespace
}  // namespace kcm::controllers::ns
