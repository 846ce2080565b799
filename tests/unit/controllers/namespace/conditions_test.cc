#include "controllers/namespace/conditions.h"

#include <gtest/gtest.h>

#include <string>

namespace kcm::controllers::ns {
namespace {

namespace json = boost::json;

std::string clock_text = "2026-11-30T10:00:00Z";

ConditionUpdater updater() {
  return ConditionUpdater([] { return clock_text; });
}

const json::object* condition(const json::object& ns, std::string_view type) {
  for (const json::value& c : ns.at("status").at("conditions").as_array()) {
    if (c.at("type").as_string() == type) return &c.as_object();
  }
  return nullptr;
}

std::string field(const json::object& ns, std::string_view type, std::string_view key) {
  const json::object* c = condition(ns, type);
  return c ? std::string(c->at(key).as_string()) : "<missing>";
}

TEST(ConditionUpdaterTest, SuccessSetsEveryOkCondition) {
  clock_text = "2026-11-30T10:00:00Z";
  json::object ns{{"metadata", json::object{{"name", "x"}}}};
  auto u = updater();
  EXPECT_TRUE(u.update(ns));
  const json::array& conditions = ns.at("status").at("conditions").as_array();
  ASSERT_EQ(conditions.size(), 5u);
  struct Want {
    std::string_view type, reason, message;
  };
  const Want want[] = {
      {"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered",
       "All resources successfully discovered"},
      {"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions",
       "All legacy kube types successfully parsed"},
      {"NamespaceDeletionContentFailure", "ContentDeleted",
       "All content successfully deleted, may be waiting on finalization"},
      {"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
      {"NamespaceFinalizersRemaining", "ContentHasNoFinalizers",
       "All content-preserving finalizers finished"},
  };
  for (std::size_t i = 0; i < 5; ++i) {
    const json::object& c = conditions[i].as_object();
    EXPECT_EQ(c.at("type").as_string(), want[i].type);
    EXPECT_EQ(c.at("status").as_string(), "False");
    EXPECT_EQ(c.at("reason").as_string(), want[i].reason);
    EXPECT_EQ(c.at("message").as_string(), want[i].message);
    EXPECT_EQ(c.at("lastTransitionTime").as_string(), "2026-11-30T10:00:00Z");
  }
  // The same outcome again changes nothing.
  auto again = updater();
  EXPECT_FALSE(again.update(ns));
}

TEST(ConditionUpdaterTest, ContentTotalsMessagesAreSorted) {
  json::object ns;
  auto u = updater();
  ContentTotals totals;
  totals.resource_remaining[{"", "v1", "pods"}] = 3;
  totals.resource_remaining[{"", "v1", "configmaps"}] = 2;
  totals.resource_remaining[{"apps", "v1", "replicasets"}] = 1;
  totals.finalizer_remaining["example.com/x"] = 2;
  totals.finalizer_remaining["a/b"] = 1;
  u.process_content_totals(totals);
  EXPECT_TRUE(u.update(ns));
  EXPECT_EQ(field(ns, kContentRemaining, "status"), "True");
  EXPECT_EQ(field(ns, kContentRemaining, "reason"), "SomeResourcesRemain");
  EXPECT_EQ(field(ns, kContentRemaining, "message"),
            "Some resources are remaining: configmaps. has 2 resource instances, pods. has 3 "
            "resource instances, replicasets.apps has 1 resource instances");
  EXPECT_EQ(field(ns, kFinalizersRemaining, "status"), "True");
  EXPECT_EQ(field(ns, kFinalizersRemaining, "reason"), "SomeFinalizersRemain");
  EXPECT_EQ(field(ns, kFinalizersRemaining, "message"),
            "Some content in the namespace has finalizers remaining: a/b in 1 resource "
            "instances, example.com/x in 2 resource instances");
  EXPECT_EQ(field(ns, kDeletionContentFailure, "status"), "False");
}

TEST(ConditionUpdaterTest, DiscoveryFailures) {
  struct Case {
    std::string error;
    std::size_t failed_groups;
    std::string message;
  } cases[] = {
      {"connection refused", 0, "connection refused"},
      {"unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: boom", 1,
       "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of "
       "server APIs: metrics.k8s.io/v1beta1: boom"},
  };
  for (const Case& c : cases) {
    json::object ns;
    auto u = updater();
    u.process_discovery_error(c.error, c.failed_groups);
    EXPECT_TRUE(u.update(ns));
    EXPECT_EQ(field(ns, kDeletionDiscoveryFailure, "status"), "True");
    EXPECT_EQ(field(ns, kDeletionDiscoveryFailure, "reason"), "DiscoveryFailed");
    EXPECT_EQ(field(ns, kDeletionDiscoveryFailure, "message"), c.message);
  }
}

TEST(ConditionUpdaterTest, GroupVersionParsingFailure) {
  json::object ns;
  auto u = updater();
  u.process_group_version_error("unexpected GroupVersion string: a/b/c");
  EXPECT_TRUE(u.update(ns));
  EXPECT_EQ(field(ns, kDeletionGroupVersionParsingFailure, "reason"), "GroupVersionParsingFailed");
  EXPECT_EQ(field(ns, kDeletionGroupVersionParsingFailure, "message"),
            "unexpected GroupVersion string: a/b/c");
}

TEST(ConditionUpdaterTest, DeleteContentErrorsAggregateSorted) {
  json::object ns;
  auto u = updater();
  u.process_delete_content_error("zeta failed");
  u.process_delete_content_error("alpha failed");
  EXPECT_TRUE(u.update(ns));
  EXPECT_EQ(field(ns, kDeletionContentFailure, "status"), "True");
  EXPECT_EQ(field(ns, kDeletionContentFailure, "reason"), "ContentDeletionFailed");
  EXPECT_EQ(field(ns, kDeletionContentFailure, "message"),
            "Failed to delete all resource types, 2 remaining: alpha failed, zeta failed");
}

TEST(ConditionUpdaterTest, TransitionTimeChangesOnlyWithStatus) {
  clock_text = "2026-11-30T10:00:00Z";
  json::object ns{{"status", json::object{{"phase", "Terminating"},
                                          {"conditions", json::array{json::object{
                                                             {"type", "Other"},
                                                             {"status", "True"},
                                                         }}}}}};
  ContentTotals one;
  one.resource_remaining[{"", "v1", "pods"}] = 1;
  auto first = updater();
  first.process_content_totals(one);
  EXPECT_TRUE(first.update(ns));

  // A different message with the same status keeps the transition time.
  clock_text = "2026-11-30T10:01:00Z";
  ContentTotals two;
  two.resource_remaining[{"", "v1", "pods"}] = 2;
  auto second = updater();
  second.process_content_totals(two);
  EXPECT_TRUE(second.update(ns));
  EXPECT_EQ(field(ns, kContentRemaining, "message"),
            "Some resources are remaining: pods. has 2 resource instances");
  EXPECT_EQ(field(ns, kContentRemaining, "lastTransitionTime"), "2026-11-30T10:00:00Z");

  // Back to success: the status flips, the time moves.
  clock_text = "2026-11-30T10:02:00Z";
  auto third = updater();
  EXPECT_TRUE(third.update(ns));
  EXPECT_EQ(field(ns, kContentRemaining, "status"), "False");
  EXPECT_EQ(field(ns, kContentRemaining, "reason"), "ContentRemoved");
  EXPECT_EQ(field(ns, kContentRemaining, "lastTransitionTime"), "2026-11-30T10:02:00Z");
  // Conditions of other types stay.
  EXPECT_EQ(field(ns, "Other", "status"), "True");
  EXPECT_EQ(ns.at("status").at("conditions").as_array().size(), 6u);
}

}  // namespace
}  // namespace kcm::controllers::ns
