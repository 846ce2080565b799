#include "controllers/garbagecollector/garbage_collector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gc_fixtures.h"
#include "metrics/registry.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::garbagecollector {
namespace {

using namespace fixtures;  // NOLINT(google-build-using-namespace)
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A server of objects by (resource, namespace, name) recording every write.
class FakeApi final : public GcApi {
 public:
  void put(const std::string& resource, const Obj& o) {
    objects[{resource, o.ns, o.name}] = fixtures::to_json(o);
  }

  Result<api::json::value, api::Status> get(const ResourceMapping& r, const std::string& ns,
                                            const std::string& name) override {
    gets.push_back(r.resource.resource + " " + ns + "/" + name);
    const auto it = objects.find({r.resource.resource, ns, name});
    if (it == objects.end()) return fail(api::not_found(r.resource.group_resource(), name));
    return it->second;
  }
  Result<api::json::value, api::Status> patch(const ResourceMapping& r, const std::string& ns,
                                              const std::string& name, client::PatchType type,
                                              std::string_view data) override {
    EXPECT_EQ(type, client::PatchType::kMerge);
    patches.push_back(r.resource.resource + " " + ns + "/" + name + " " + std::string(data));
    if (!patch_errors.empty()) {
      api::Status s = patch_errors.front();
      patch_errors.pop_front();
      return fail(s);
    }
    return api::json::value(api::json::object{});
  }
  Result<void, api::Status> delete_object(const ResourceMapping& r, const std::string& ns,
                                          const std::string& name,
                                          const client::DeleteOptions& options) override {
    deletes.push_back(r.resource.resource + " " + ns + "/" + name + " " +
                      api::json::serialize(client::to_json(options)));
    if (!delete_errors.empty()) {
      api::Status s = delete_errors.front();
      delete_errors.pop_front();
      if (after_conflict) after_conflict();
      return fail(s);
    }
    return {};
  }

  std::map<std::tuple<std::string, std::string, std::string>, api::json::value> objects;
  std::vector<std::string> gets;
  std::vector<std::string> patches;
  std::vector<std::string> deletes;
  std::deque<api::Status> patch_errors;
  std::deque<api::Status> delete_errors;
  std::function<void()> after_conflict;
};

client::ApiResource v1_resource(std::string group, std::string name, std::string kind,
                                bool namespaced) {
  return {{std::move(group), "v1"},
          std::move(name),
          std::move(kind),
          namespaced,
          {"delete", "get", "list", "patch", "watch"}};
}

class GarbageCollectorTest : public ::testing::Test {
 protected:
  GarbageCollectorTest()
      : api_(std::make_shared<FakeApi>()),
        gc_(nullptr, nullptr, std::make_shared<record::FakeRecorder>(), {.api = api_}) {
    gc_.rest_mapper().reset({v1_resource("", "configmaps", "ConfigMap", true),
                             v1_resource("", "namespaces", "Namespace", false),
                             v1_resource("apps", "replicasets", "ReplicaSet", true)});
  }

  // The object in the server and in the graph.
  void observe(const std::string& resource, const Obj& o) {
    api_->put(resource, o);
    gc_.graph_builder().process(add(o));
  }
  Node node(const std::string& uid) {
    auto n = gc_.graph_builder().node(uid);
    EXPECT_TRUE(n) << uid;
    return n.value_or(Node{});
  }
  std::vector<std::string> drain_delete_queue() {
    std::vector<std::string> out;
    auto& q = gc_.attempt_to_delete_queue();
    while (q.len() > 0) {
      auto item = q.get();
      out.push_back(*item);
      q.done(*item);
    }
    return out;
  }

  std::shared_ptr<FakeApi> api_;
  GarbageCollector gc_;
};

const Ref kOwnerRef{.name = "owner", .uid = "o1"};

// The ConfigMap "owner" (uid o1) being deleted with `finalizer`.
Obj deleting_owner(std::string finalizer, std::string resource_version = "1") {
  return Obj{.name = "owner",
             .uid = "o1",
             .finalizers = {std::move(finalizer)},
             .deleting = true,
             .resource_version = std::move(resource_version)};
}

TEST_F(GarbageCollectorTest, DanglingOwnerDeletesInBackgroundWithPreconditions) {
  observe("configmaps",
          Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}, .resource_version = "5"});
  auto r = gc_.attempt_to_delete_item(node("c1"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, ItemOutcome::kDone);
  EXPECT_THAT(
      api_->deletes,
      ElementsAre(
          R"(configmaps default/child {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"c1","resourceVersion":"5"},"propagationPolicy":"Background"})"));
  EXPECT_TRUE(gc_.absent_owners().has({"v1", "ConfigMap", "owner", "o1", "default"}));
  // The absent-owner cache answers the next time without a GET.
  api_->gets.clear();
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_THAT(api_->gets, ElementsAre("configmaps default/child"));
}

TEST_F(GarbageCollectorTest, OwnerOfSameNameWithOtherUidIsDangling) {
  api_->put("configmaps", Obj{.name = "owner", .uid = "someone-else"});
  observe("configmaps", Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  ASSERT_EQ(api_->deletes.size(), 1u);
  EXPECT_TRUE(gc_.absent_owners().has({"v1", "ConfigMap", "owner", "o1", "default"}));
}

TEST_F(GarbageCollectorTest, SolidOwnerKeepsTheItem) {
  observe("configmaps", Obj{.name = "owner", .uid = "o1"});
  observe("configmaps", Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_THAT(api_->deletes, IsEmpty());
  EXPECT_THAT(api_->patches, IsEmpty());
}

TEST_F(GarbageCollectorTest, SolidAndDanglingOwnersPatchTheDanglingOneOut) {
  observe("configmaps", Obj{.name = "owner", .uid = "o1"});
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {kOwnerRef, Ref{.name = "ghost", .uid = "g1"}},
                            .resource_version = "9"});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_THAT(api_->deletes, IsEmpty());
  EXPECT_THAT(
      api_->patches,
      ElementsAre(
          R"(configmaps default/child {"metadata":{"resourceVersion":"9","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"o1"}]}})"));
}

TEST_F(GarbageCollectorTest, SolidAndWaitingOwnersPatchTheWaitingOneOut) {
  observe("configmaps", Obj{.name = "owner", .uid = "o1"});
  observe("configmaps",
          Obj{.name = "fg", .uid = "f1", .finalizers = {"foregroundDeletion"}, .deleting = true});
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {kOwnerRef, Ref{.name = "fg", .uid = "f1", .block = true}}});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  ASSERT_EQ(api_->patches.size(), 1u);
  EXPECT_EQ(api_->patches[0].find("\"uid\":\"f1\""), std::string::npos);
  EXPECT_NE(api_->patches[0].find("\"uid\":\"o1\""), std::string::npos);
}

TEST_F(GarbageCollectorTest, OnlyWaitingOwnersAndOwnDependentsDeleteInForeground) {
  observe("configmaps",
          Obj{.name = "fg", .uid = "f1", .finalizers = {"foregroundDeletion"}, .deleting = true});
  observe(
      "configmaps",
      Obj{.name = "mid", .uid = "m1", .owners = {Ref{.name = "fg", .uid = "f1", .block = true}}});
  observe("configmaps",
          Obj{.name = "leaf", .uid = "l1", .owners = {Ref{.name = "mid", .uid = "m1"}}});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("m1")).ok());
  ASSERT_EQ(api_->deletes.size(), 1u);
  EXPECT_NE(api_->deletes[0].find(R"("propagationPolicy":"Foreground")"), std::string::npos);
  EXPECT_THAT(api_->patches, IsEmpty());
}

TEST_F(GarbageCollectorTest, CycleThroughForegroundDependentUnblocksFirst) {
  Obj a{.name = "a",
        .uid = "a1",
        .owners = {Ref{.name = "b", .uid = "b1", .block = true}},
        .finalizers = {"foregroundDeletion"},
        .deleting = true};
  Obj b{.name = "b", .uid = "b1", .owners = {Ref{.name = "a", .uid = "a1", .block = true}}};
  observe("configmaps", a);
  observe("configmaps", b);
  // b's owner a waits for its dependents; b's dependent a is deleting its dependents.
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("b1")).ok());
  ASSERT_EQ(api_->patches.size(), 1u);
  EXPECT_NE(api_->patches[0].find(R"("blockOwnerDeletion":false)"), std::string::npos);
  ASSERT_EQ(api_->deletes.size(), 1u);
  EXPECT_NE(api_->deletes[0].find("Foreground"), std::string::npos);
}

TEST_F(GarbageCollectorTest, PolicyFollowsTheItemsFinalizers) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "Background"},
      {{"orphan"}, "Orphan"},
      {{"foregroundDeletion"}, "Foreground"},
      {{"orphan", "foregroundDeletion"}, "Orphan"},
  };
  int i = 0;
  for (const auto& [finalizers, policy] : cases) {
    const std::string uid = "c" + std::to_string(i++);
    observe("configmaps",
            Obj{.name = uid, .uid = uid, .owners = {kOwnerRef}, .finalizers = finalizers});
    api_->deletes.clear();
    ASSERT_TRUE(gc_.attempt_to_delete_item(node(uid)).ok());
    ASSERT_EQ(api_->deletes.size(), 1u) << policy;
    EXPECT_NE(api_->deletes[0].find("\"propagationPolicy\":\"" + policy + "\""), std::string::npos)
        << api_->deletes[0];
  }
}

TEST_F(GarbageCollectorTest, BeingDeletedItemIsLeftAlone) {
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {kOwnerRef},
                            .finalizers = {"x"},
                            .deleting = true});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_THAT(api_->gets, IsEmpty());
  EXPECT_THAT(api_->deletes, IsEmpty());
}

TEST_F(GarbageCollectorTest, ItemWithoutOwnersIsKept) {
  observe("configmaps", Obj{.name = "lonely", .uid = "l1"});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("l1")).ok());
  EXPECT_THAT(api_->deletes, IsEmpty());
}

TEST_F(GarbageCollectorTest, MissingItemEnqueuesVirtualDelete) {
  gc_.graph_builder().process(add(Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}}));
  // The virtual owner o1 is not in the server.
  auto r = gc_.attempt_to_delete_item(node("o1"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, ItemOutcome::kVirtualDeleteEnqueued);
  EXPECT_EQ(gc_.graph_builder().pending(), 1u);
  ASSERT_TRUE(gc_.graph_builder().process_next());
  EXPECT_FALSE(gc_.graph_builder().node("o1"));
  // Its dependent is queued for collection.
  EXPECT_THAT(drain_delete_queue(), ElementsAre("o1", "c1"));
}

TEST_F(GarbageCollectorTest, ItemWithOtherUidEnqueuesVirtualDelete) {
  gc_.graph_builder().process(add(Obj{.name = "child", .uid = "c1"}));
  api_->put("configmaps", Obj{.name = "child", .uid = "recreated"});
  auto r = gc_.attempt_to_delete_item(node("c1"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, ItemOutcome::kVirtualDeleteEnqueued);
}

TEST_F(GarbageCollectorTest, VirtualOwnerThatExistsIsRequeuedUntilObserved) {
  api_->put("configmaps", Obj{.name = "owner", .uid = "o1"});
  observe("configmaps", Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}});
  EXPECT_FALSE(gc_.attempt_to_delete_worker("o1"));  // requeue: still virtual
  gc_.graph_builder().process(add(Obj{.name = "owner", .uid = "o1"}));
  EXPECT_TRUE(gc_.attempt_to_delete_worker("o1"));
  EXPECT_TRUE(gc_.attempt_to_delete_worker("not-in-graph"));
}

TEST_F(GarbageCollectorTest, ClusterScopedItemWithNamespacedOwnerIsNotRetried) {
  observe("namespaces",
          Obj{.kind = "Namespace", .ns = "", .name = "n", .uid = "n1", .owners = {kOwnerRef}});
  auto r = gc_.attempt_to_delete_item(node("n1"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, ItemOutcome::kNamespacedOwnerOfClusterScoped);
  EXPECT_THAT(api_->deletes, IsEmpty());
  EXPECT_TRUE(gc_.attempt_to_delete_worker("n1"));
}

TEST_F(GarbageCollectorTest, ClusterScopedOwnerIsLookedUpWithoutNamespace) {
  observe("namespaces", Obj{.kind = "Namespace", .ns = "", .name = "nsowner", .uid = "n1"});
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {Ref{.kind = "Namespace", .name = "nsowner", .uid = "n1"}}});
  api_->gets.clear();
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_THAT(api_->gets, ElementsAre("configmaps default/child", "namespaces /nsowner"));
  EXPECT_THAT(api_->deletes, IsEmpty());
}

TEST_F(GarbageCollectorTest, UnmappedKindIsAnErrorAndRequeued) {
  observe("configmaps",
          Obj{.name = "child",
              .uid = "c1",
              .owners = {
                  Ref{.api_version = "example.com/v1", .kind = "Foo", .name = "f", .uid = "f1"}}});
  auto r = gc_.attempt_to_delete_item(node("c1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "unable to get REST mapping for Foo/example.com/v1.");
  EXPECT_FALSE(gc_.attempt_to_delete_worker("c1"));
}

TEST_F(GarbageCollectorTest, DeletingDependentsWithoutBlockersRemovesForegroundFinalizer) {
  observe("configmaps", deleting_owner("foregroundDeletion", "3"));
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {Ref{.name = "owner", .uid = "o1", .block = false}}});
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("o1")).ok());
  EXPECT_THAT(
      api_->patches,
      ElementsAre(
          R"(configmaps default/owner {"metadata":{"resourceVersion":"3","finalizers":null}})"));
}

TEST_F(GarbageCollectorTest, DeletingDependentsWithBlockersQueuesThem) {
  observe("configmaps", deleting_owner("foregroundDeletion"));
  observe("configmaps", Obj{.name = "child",
                            .uid = "c1",
                            .owners = {Ref{.name = "owner", .uid = "o1", .block = true}}});
  drain_delete_queue();
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("o1")).ok());
  EXPECT_THAT(api_->patches, IsEmpty());
  EXPECT_THAT(drain_delete_queue(), ElementsAre("c1"));
}

TEST_F(GarbageCollectorTest, RemoveFinalizerRetriesConflicts) {
  observe("configmaps", deleting_owner("foregroundDeletion"));
  api_->patch_errors = {api::conflict({"", "configmaps"}, "owner", "the object has been modified")};
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("o1")).ok());
  EXPECT_EQ(api_->patches.size(), 2u);
  api_->patches.clear();
  const api::Status conflict = api::conflict({"", "configmaps"}, "owner", "modified");
  api_->patch_errors = {conflict, conflict, conflict, conflict};
  auto r = gc_.attempt_to_delete_item(node("o1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "updateMaxRetries(4) has reached. The garbage collector will retry later for owner "
            "[v1/ConfigMap, namespace: default, name: owner, uid: o1].");
}

TEST_F(GarbageCollectorTest, DeleteConflictWithUnchangedOwnersRetriesAtNewVersion) {
  observe("configmaps",
          Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}, .resource_version = "5"});
  api_->delete_errors = {api::conflict({"", "configmaps"}, "child", "precondition")};
  api_->after_conflict = [this] {
    api_->put("configmaps",
              Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}, .resource_version = "6"});
  };
  ASSERT_TRUE(gc_.attempt_to_delete_item(node("c1")).ok());
  ASSERT_EQ(api_->deletes.size(), 2u);
  EXPECT_NE(api_->deletes[1].find(R"("resourceVersion":"6")"), std::string::npos);
}

TEST_F(GarbageCollectorTest, DeleteConflictWithChangedOwnersFails) {
  observe("configmaps",
          Obj{.name = "child", .uid = "c1", .owners = {kOwnerRef}, .resource_version = "5"});
  api_->delete_errors = {api::conflict({"", "configmaps"}, "child", "precondition")};
  api_->after_conflict = [this] {
    api_->put("configmaps",
              Obj{.name = "child", .uid = "c1", .owners = {}, .resource_version = "6"});
  };
  EXPECT_FALSE(gc_.attempt_to_delete_item(node("c1")).ok());
  EXPECT_EQ(api_->deletes.size(), 1u);
}

TEST_F(GarbageCollectorTest, OrphanPatchesDependentsThenRemovesFinalizer) {
  observe("configmaps", deleting_owner("orphan", "4"));
  observe("configmaps", Obj{.name = "a",
                            .uid = "a1",
                            .owners = {kOwnerRef, Ref{.name = "other", .uid = "x1"}},
                            .resource_version = "7"});
  observe("configmaps",
          Obj{.name = "b", .uid = "b1", .owners = {kOwnerRef}, .resource_version = "8"});
  EXPECT_TRUE(gc_.attempt_to_orphan_worker("o1"));
  EXPECT_THAT(
      api_->patches,
      ElementsAre(
          R"(configmaps default/a {"metadata":{"resourceVersion":"7","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"other","uid":"x1"}]}})",
          R"(configmaps default/b {"metadata":{"resourceVersion":"8","ownerReferences":null}})",
          R"(configmaps default/owner {"metadata":{"resourceVersion":"4","finalizers":null}})"));
}

TEST_F(GarbageCollectorTest, OrphanFailureKeepsTheFinalizerAndRequeues) {
  observe("configmaps", deleting_owner("orphan"));
  observe("configmaps", Obj{.name = "a", .uid = "a1", .owners = {kOwnerRef}});
  api_->patch_errors = {api::internal_error("boom")};
  EXPECT_FALSE(gc_.attempt_to_orphan_worker("o1"));
  EXPECT_EQ(api_->patches.size(), 1u);
  // A dependent already gone is no failure.
  api_->objects.erase({"configmaps", "default", "a"});
  api_->patches.clear();
  EXPECT_TRUE(gc_.attempt_to_orphan_worker("o1"));
  ASSERT_EQ(api_->patches.size(), 1u);
  EXPECT_NE(api_->patches[0].find("default/owner"), std::string::npos);
}

TEST(GarbageCollectorSyncTest, DiscoveryFeedsTheMapperAndFailuresAreCounted) {
  metrics::Registry registry;
  bool broken = true;
  GarbageCollectorOptions options;
  options.api = std::make_shared<FakeApi>();
  options.metrics = &registry;
  options.discover = [&]() -> Result<client::PreferredResources, api::Status> {
    if (broken) return fail(api::service_unavailable("discovery down"));
    return client::PreferredResources{
        .resources = {v1_resource("apps", "replicasets", "ReplicaSet", true)}};
  };
  GarbageCollector gc(nullptr, nullptr, nullptr, options);
  auto failed = gc.sync_monitors();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "discovery down");
  EXPECT_EQ(gc.sync_error_count(), 1);
  EXPECT_NE(registry.render_text().find("garbagecollector_controller_resources_sync_error_total 1"),
            std::string::npos);
  broken = false;
  ASSERT_TRUE(gc.sync_monitors().ok());
  EXPECT_EQ(gc.sync_error_count(), 1);
  EXPECT_TRUE(gc.rest_mapper().mapping("apps/v1", "ReplicaSet").ok());
  EXPECT_TRUE(gc.is_synced());  // no monitors without informers
}

TEST(GarbageCollectorRunTest, RunReturnsOnStop) {
  GarbageCollector gc(nullptr, nullptr, nullptr, {.api = std::make_shared<FakeApi>()});
  std::stop_source stop;
  std::atomic<bool> returned = false;
  std::thread runner([&] {
    gc.run(2, stop.get_token());
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(returned);
  stop.request_stop();
  runner.join();
  EXPECT_TRUE(returned);
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
