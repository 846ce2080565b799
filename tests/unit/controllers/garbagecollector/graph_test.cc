#include "controllers/garbagecollector/graph.h"

#include <gtest/gtest.h>

#include "api/json.h"
#include "controllers/garbagecollector/garbage_collector.h"
#include "controllers/garbagecollector/patch.h"
#include "controllers/garbagecollector/rest_mapper.h"
#include "controllers/garbagecollector/uid_cache.h"
#include "gc_fixtures.h"

namespace kcm::controllers::garbagecollector {
namespace {

TEST(GraphTest, PutFindEraseAndDependents) {
  Graph g;
  Node owner;
  owner.identity = {"v1", "ConfigMap", "o", "o1", "ns"};
  owner.dependents = {"c1", "c2", "gone"};
  g.put(owner);
  Node c1;
  c1.identity = {"v1", "ConfigMap", "c1", "c1", "ns"};
  c1.owners = {make_owner_reference("v1", "ConfigMap", "o", "o1", std::nullopt, true)};
  g.put(c1);
  Node c2;
  c2.identity = {"v1", "ConfigMap", "c2", "c2", "ns"};
  c2.owners = {make_owner_reference("v1", "ConfigMap", "o", "o1", std::nullopt, false),
               make_owner_reference("v1", "ConfigMap", "x", "x1", std::nullopt, true)};
  g.put(c2);
  EXPECT_EQ(g.size(), 3u);
  const Node* o = g.find("o1");
  ASSERT_NE(o, nullptr);
  // Dependents missing from the graph are skipped.
  EXPECT_EQ(g.dependents_of(*o).size(), 2u);
  // c2 blocks x1, not o1.
  const auto blocking = g.blocking_dependents_of(*o);
  ASSERT_EQ(blocking.size(), 1u);
  EXPECT_EQ(blocking[0]->identity.uid, "c1");
  g.erase("c1");
  EXPECT_EQ(g.find("c1"), nullptr);
  EXPECT_TRUE(g.blocking_dependents_of(*g.find("o1")).empty());
}

TEST(GraphTest, MatchesCoordinatesIgnoresNamespaceAndFlags) {
  const ObjectReference id{"apps/v1", "ReplicaSet", "rs", "u1", "ns"};
  EXPECT_TRUE(matches_coordinates(
      make_owner_reference("apps/v1", "ReplicaSet", "rs", "u1", true, true), id));
  EXPECT_FALSE(matches_coordinates(make_owner_reference("apps/v1", "ReplicaSet", "rs2", "u1"), id));
  EXPECT_FALSE(matches_coordinates(make_owner_reference("v1", "ReplicaSet", "rs", "u1"), id));
  EXPECT_FALSE(matches_coordinates(make_owner_reference("apps/v1", "Deployment", "rs", "u1"), id));
  EXPECT_FALSE(matches_coordinates(make_owner_reference("apps/v1", "ReplicaSet", "rs", "u2"), id));
}

TEST(ReferenceCacheTest, EvictsLeastRecentlyUsed) {
  ReferenceCache cache(2);
  const ObjectReference a{"v1", "ConfigMap", "a", "1", ""};
  const ObjectReference b{"v1", "ConfigMap", "b", "2", ""};
  const ObjectReference c{"v1", "ConfigMap", "c", "3", ""};
  cache.add(a);
  cache.add(b);
  EXPECT_TRUE(cache.has(a));  // a is now the most recent
  cache.add(c);
  EXPECT_TRUE(cache.has(a));
  EXPECT_FALSE(cache.has(b));
  EXPECT_TRUE(cache.has(c));
  EXPECT_EQ(cache.size(), 2u);
  // The namespace is part of the key.
  EXPECT_FALSE(cache.has({"v1", "ConfigMap", "a", "1", "ns"}));
  EXPECT_EQ(ReferenceCache().size(), 0u);
}

TEST(ReferenceCacheTest, DefaultSizeIs500) {
  ReferenceCache cache;
  for (int i = 0; i < 501; ++i)
    cache.add({"v1", "ConfigMap", "n", std::to_string(i), ""});
  EXPECT_EQ(cache.size(), 500u);
  EXPECT_FALSE(cache.has({"v1", "ConfigMap", "n", "0", ""}));
  EXPECT_TRUE(cache.has({"v1", "ConfigMap", "n", "500", ""}));
}

client::ApiResource resource(std::string group, std::string version, std::string name,
                             std::string kind, bool namespaced,
                             std::vector<std::string> verbs = {"create", "delete", "get", "list",
                                                               "watch"}) {
  return {{std::move(group), std::move(version)},
          std::move(name),
          std::move(kind),
          namespaced,
          std::move(verbs)};
}

TEST(RestMapperTest, MapsKindsOfTheReferencedVersion) {
  RestMapper m;
  m.reset({resource("apps", "v1", "replicasets", "ReplicaSet", true),
           resource("", "v1", "namespaces", "Namespace", false),
           resource("apps", "v1", "replicasets/scale", "Scale", true)});
  auto rs = m.mapping("apps/v1", "ReplicaSet");
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(rs->resource, (api::GroupVersionResource{"apps", "v1", "replicasets"}));
  EXPECT_TRUE(rs->namespaced);
  auto ns = m.mapping("v1", "Namespace");
  ASSERT_TRUE(ns.ok());
  EXPECT_FALSE(ns->namespaced);
  EXPECT_EQ(ns->resource.resource, "namespaces");
  // Another version of a known group kind keeps the reference's version.
  auto beta = m.mapping("apps/v1beta2", "ReplicaSet");
  ASSERT_TRUE(beta.ok());
  EXPECT_EQ(beta->resource.version, "v1beta2");
  auto unknown = m.mapping("example.com/v1", "Foo");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "unable to get REST mapping for Foo/example.com/v1.");
  EXPECT_FALSE(m.mapping("v1", "Scale").ok());
  m.reset({});
  EXPECT_FALSE(m.mapping("apps/v1", "ReplicaSet").ok());
}

TEST(DeletableResourcesTest, NeedsDeleteListWatchAndSkipsIgnored) {
  const auto out = deletable_resources(
      {resource("", "v1", "pods", "Pod", true), resource("", "v1", "events", "Event", true),
       resource("events.k8s.io", "v1", "events", "Event", true),
       resource("", "v1", "bindings", "Binding", true, {"create"}),
       resource("authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview", false,
                {"create"}),
       resource("apps", "v1", "deployments", "Deployment", true, {"get", "list", "watch"})},
      default_ignored_resources());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "pods");
  EXPECT_EQ(out[1].group_version.group, "events.k8s.io");
}

TEST(PatchTest, DeleteOwnerRefsKeepsTheOthers) {
  using fixtures::Obj;
  using fixtures::Ref;
  const auto obj =
      fixtures::to_json(Obj{.name = "x",
                            .uid = "u",
                            .owners = {Ref{.name = "a", .uid = "1"}, Ref{.name = "b", .uid = "2"},
                                       Ref{.name = "c", .uid = "3", .block = true}},
                            .resource_version = "42"});
  EXPECT_EQ(
      delete_owner_refs_patch(obj, {"1", "3"}),
      R"({"metadata":{"resourceVersion":"42","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"2"}]}})");
  // Removing every reference removes the field.
  EXPECT_EQ(delete_owner_refs_patch(obj, {"1", "2", "3"}),
            R"({"metadata":{"resourceVersion":"42","ownerReferences":null}})");
}

TEST(PatchTest, UnblockAndRemoveFinalizer) {
  using fixtures::Obj;
  using fixtures::Ref;
  const auto obj = fixtures::to_json(
      Obj{.name = "x",
          .uid = "u",
          .owners = {Ref{.name = "a", .uid = "1", .block = true}, Ref{.name = "b", .uid = "2"}},
          .finalizers = {"foregroundDeletion", "example.com/keep"},
          .resource_version = "7"});
  EXPECT_EQ(
      unblock_owner_refs_patch(obj),
      R"({"metadata":{"resourceVersion":"7","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"1","blockOwnerDeletion":false},{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"2"}]}})");
  EXPECT_EQ(remove_finalizer_patch(obj, "foregroundDeletion"),
            R"({"metadata":{"resourceVersion":"7","finalizers":["example.com/keep"]}})");
  EXPECT_EQ(remove_finalizer_patch(fixtures::to_json(Obj{.name = "x", .finalizers = {"orphan"}}),
                                   "orphan"),
            R"({"metadata":{"resourceVersion":"1","finalizers":null}})");
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
