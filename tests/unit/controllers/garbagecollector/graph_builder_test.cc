#include "controllers/garbagecollector/graph_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gc_fixtures.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::garbagecollector {
namespace {

using namespace fixtures;  // NOLINT(google-build-using-namespace)
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

class GraphBuilderTest : public ::testing::Test {
 protected:
  GraphBuilderTest()
      : absent_(std::make_shared<ReferenceCache>()),
        recorder_(std::make_shared<record::FakeRecorder>()),
        builder_(absent_,
                 GraphBuilderSinks{
                     .attempt_to_delete = [this](const std::string& u) { deletes_.push_back(u); },
                     .attempt_to_delete_rate_limited =
                         [this](const std::string& u) { limited_.push_back(u); },
                     .attempt_to_orphan = [this](const std::string& u) { orphans_.push_back(u); },
                     .recorder = recorder_,
                 }) {}

  void clear() {
    deletes_.clear();
    limited_.clear();
    orphans_.clear();
  }

  std::shared_ptr<ReferenceCache> absent_;
  std::shared_ptr<record::FakeRecorder> recorder_;
  std::vector<std::string> deletes_;
  std::vector<std::string> limited_;
  std::vector<std::string> orphans_;
  GraphBuilder builder_;
};

const Obj kOwner{.name = "owner", .uid = "o1"};
const Obj kChild{.name = "child", .uid = "c1", .owners = {Ref{.name = "owner", .uid = "o1"}}};

TEST_F(GraphBuilderTest, MissingOwnerBecomesVirtualNodeQueuedForVerification) {
  builder_.process(add(kChild));
  const auto owner = builder_.node("o1");
  ASSERT_TRUE(owner);
  EXPECT_TRUE(owner->virtual_);
  EXPECT_EQ(owner->identity.to_string(),
            "[v1/ConfigMap, namespace: default, name: owner, uid: o1]");
  EXPECT_THAT(owner->dependents, ElementsAre("c1"));
  EXPECT_THAT(deletes_, ElementsAre("o1"));
  EXPECT_EQ(builder_.size(), 2u);
  const auto child = builder_.node("c1");
  ASSERT_TRUE(child);
  EXPECT_FALSE(child->virtual_);
}

TEST_F(GraphBuilderTest, OwnerObservedLateStopsBeingVirtual) {
  builder_.process(add(kChild));
  clear();
  builder_.process(add(kOwner));
  const auto owner = builder_.node("o1");
  ASSERT_TRUE(owner);
  EXPECT_FALSE(owner->virtual_);
  EXPECT_THAT(owner->dependents, ElementsAre("c1"));
  // Its coordinates match the child's reference: nothing to verify.
  EXPECT_THAT(deletes_, IsEmpty());
}

TEST_F(GraphBuilderTest, OwnerObservedWithOtherCoordinatesQueuesMismatchingDependents) {
  builder_.process(add(kChild));
  clear();
  // The uid is a Secret's, not the ConfigMap the child names.
  builder_.process(add(Obj{.kind = "Secret", .name = "owner", .uid = "o1"}));
  EXPECT_THAT(deletes_, ElementsAre("c1"));
  EXPECT_EQ(builder_.node("o1")->identity.kind, "Secret");
}

TEST_F(GraphBuilderTest, OwnerFirstThenChildLinksWithoutVirtualNode) {
  builder_.process(add(kOwner));
  builder_.process(add(kChild));
  EXPECT_THAT(builder_.node("o1")->dependents, ElementsAre("c1"));
  EXPECT_THAT(deletes_, IsEmpty());
}

TEST_F(GraphBuilderTest, CycleIsRepresentedAndDeletionQueuesTheOtherSide) {
  const Obj a{.name = "a", .uid = "a1", .owners = {Ref{.name = "b", .uid = "b1"}}};
  const Obj b{.name = "b", .uid = "b1", .owners = {Ref{.name = "a", .uid = "a1"}}};
  builder_.process(add(a));
  builder_.process(add(b));
  EXPECT_THAT(builder_.node("a1")->dependents, ElementsAre("b1"));
  EXPECT_THAT(builder_.node("b1")->dependents, ElementsAre("a1"));
  EXPECT_FALSE(builder_.node("b1")->virtual_);
  clear();
  builder_.process(remove(a));
  EXPECT_FALSE(builder_.node("a1"));
  EXPECT_THAT(deletes_, ElementsAre("b1"));
  // b no longer has a as a dependent.
  EXPECT_THAT(builder_.node("b1")->dependents, IsEmpty());
}

TEST_F(GraphBuilderTest, DeletedOwnerQueuesDependentsAndIsRememberedAbsent) {
  builder_.process(add(kOwner));
  builder_.process(add(kChild));
  builder_.process(
      add(Obj{.name = "child2", .uid = "c2", .owners = {Ref{.name = "owner", .uid = "o1"}}}));
  clear();
  builder_.process(remove(kOwner));
  EXPECT_THAT(deletes_, UnorderedElementsAre("c1", "c2"));
  EXPECT_TRUE(absent_->has({"v1", "ConfigMap", "owner", "o1", "default"}));
  EXPECT_FALSE(builder_.node("o1"));
}

TEST_F(GraphBuilderTest, DeleteOfUnknownObjectDoesNothing) {
  builder_.process(remove(kOwner));
  EXPECT_EQ(builder_.size(), 0u);
  EXPECT_THAT(deletes_, IsEmpty());
}

TEST_F(GraphBuilderTest, ForegroundDeletionMarksDeletingDependentsAndQueuesDependents) {
  builder_.process(add(kOwner));
  builder_.process(add(kChild));
  clear();
  Obj deleting = kOwner;
  deleting.deleting = true;
  deleting.finalizers = {"foregroundDeletion"};
  builder_.process(update(kOwner, deleting));
  const auto owner = builder_.node("o1");
  EXPECT_TRUE(owner->deleting_dependents);
  EXPECT_TRUE(owner->being_deleted);
  EXPECT_THAT(deletes_, ElementsAre("c1", "o1"));
  EXPECT_THAT(orphans_, IsEmpty());
  // A later update in the same state is no new transition.
  clear();
  builder_.process(update(deleting, deleting));
  EXPECT_THAT(deletes_, IsEmpty());
}

TEST_F(GraphBuilderTest, ForegroundObjectFirstSeenWhileDeleting) {
  Obj deleting = kOwner;
  deleting.deleting = true;
  deleting.finalizers = {"foregroundDeletion"};
  builder_.process(add(deleting));
  EXPECT_TRUE(builder_.node("o1")->deleting_dependents);
  EXPECT_THAT(deletes_, ElementsAre("o1"));
}

TEST_F(GraphBuilderTest, OrphanFinalizerQueuesAttemptToOrphan) {
  builder_.process(add(kOwner));
  Obj deleting = kOwner;
  deleting.deleting = true;
  deleting.finalizers = {"orphan"};
  builder_.process(update(kOwner, deleting));
  EXPECT_THAT(orphans_, ElementsAre("o1"));
  EXPECT_THAT(deletes_, IsEmpty());
  EXPECT_FALSE(builder_.node("o1")->deleting_dependents);
}

TEST_F(GraphBuilderTest, RemovedBlockingReferenceQueuesTheOwner) {
  Obj child = kChild;
  child.owners[0].block = true;
  builder_.process(add(kOwner));
  builder_.process(add(child));
  clear();
  Obj unblocked = child;
  unblocked.owners[0].block = false;
  builder_.process(update(child, unblocked));
  EXPECT_THAT(deletes_, ElementsAre("o1"));
  clear();
  Obj orphaned = unblocked;
  orphaned.owners.clear();
  builder_.process(update(unblocked, orphaned));
  // Not blocking any more: nobody waits for it.
  EXPECT_THAT(deletes_, IsEmpty());
  EXPECT_THAT(builder_.node("o1")->dependents, IsEmpty());
}

TEST_F(GraphBuilderTest, BlockingDependentsAreThoseWithBlockOwnerDeletion) {
  builder_.process(add(kOwner));
  Obj blocking = kChild;
  blocking.owners[0].block = true;
  builder_.process(add(blocking));
  builder_.process(
      add(Obj{.name = "c2", .uid = "c2", .owners = {Ref{.name = "owner", .uid = "o1"}}}));
  const auto deps = builder_.blocking_dependents("o1");
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0].identity.uid, "c1");
  EXPECT_EQ(builder_.dependents("o1").size(), 2u);
}

TEST_F(GraphBuilderTest, DeletedDependentQueuesOwnerDeletingItsDependents) {
  Obj deleting = kOwner;
  deleting.deleting = true;
  deleting.finalizers = {"foregroundDeletion"};
  builder_.process(add(deleting));
  builder_.process(add(kChild));
  clear();
  builder_.process(remove(kChild));
  EXPECT_THAT(deletes_, ElementsAre("o1"));
}

TEST_F(GraphBuilderTest, ObservedOwnerInAnotherNamespaceIsReported) {
  builder_.process(add(Obj{.ns = "a", .name = "owner", .uid = "o1"}));
  builder_.process(add(
      Obj{.ns = "b", .name = "child", .uid = "c1", .owners = {Ref{.name = "owner", .uid = "o1"}}}));
  EXPECT_THAT(recorder_->events(),
              ElementsAre("Warning OwnerRefInvalidNamespace ownerRef [v1/ConfigMap, namespace: b, "
                          "name: owner, uid: o1] does not exist in namespace \"b\""));
  EXPECT_THAT(deletes_, ElementsAre("c1"));
}

TEST_F(GraphBuilderTest, ClusterScopedDependentOfNamespacedOwnerIsReported) {
  builder_.process(add(Obj{.ns = "a", .name = "owner", .uid = "o1"}));
  builder_.process(add(Obj{.kind = "Namespace",
                           .ns = "",
                           .name = "cluster-thing",
                           .uid = "c1",
                           .owners = {Ref{.name = "owner", .uid = "o1"}}}));
  EXPECT_THAT(recorder_->events(),
              ElementsAre("Warning OwnerRefInvalidNamespace ownerRef [v1/ConfigMap, namespace: , "
                          "name: owner, uid: o1] does not exist in namespace \"\""));
  ASSERT_EQ(recorder_->objects().size(), 1u);
  EXPECT_EQ(recorder_->objects()[0].name, "cluster-thing");
  EXPECT_THAT(deletes_, ElementsAre("c1"));
}

TEST_F(GraphBuilderTest, BadChildSeenBeforeGoodParentIsReportedWhenParentAppears) {
  builder_.process(add(
      Obj{.ns = "b", .name = "child", .uid = "c1", .owners = {Ref{.name = "owner", .uid = "o1"}}}));
  EXPECT_THAT(recorder_->events(), IsEmpty());  // the owner is only virtual
  clear();
  builder_.process(add(Obj{.ns = "a", .name = "owner", .uid = "o1"}));
  EXPECT_EQ(recorder_->events().size(), 1u);
  EXPECT_THAT(deletes_, ElementsAre("c1"));
}

TEST_F(GraphBuilderTest, VirtualDeleteRemovesVirtualOwnerAndQueuesDependents) {
  builder_.process(add(kChild));
  clear();
  builder_.enqueue_virtual_delete({"v1", "ConfigMap", "owner", "o1", "default"});
  ASSERT_TRUE(builder_.process_next());
  EXPECT_FALSE(builder_.node("o1"));
  EXPECT_THAT(deletes_, ElementsAre("c1"));
  EXPECT_TRUE(absent_->has({"v1", "ConfigMap", "owner", "o1", "default"}));
}

TEST_F(GraphBuilderTest, VirtualDeleteKeepsVirtualOwnerOtherDependentsNameDifferently) {
  builder_.process(add(kChild));
  builder_.process(add(Obj{
      .name = "c2", .uid = "c2", .owners = {Ref{.kind = "Secret", .name = "owner", .uid = "o1"}}}));
  clear();
  Event e;
  e.type = EventType::kDelete;
  e.virtual_ = true;
  e.api_version = "v1";
  e.kind = "ConfigMap";
  e.object.namespace_ = "default";
  e.object.name = "owner";
  e.object.uid = "o1";
  builder_.process(e);
  const auto owner = builder_.node("o1");
  ASSERT_TRUE(owner);
  // Replaced by the identity the other dependent gives, and verified again.
  EXPECT_EQ(owner->identity.kind, "Secret");
  EXPECT_THAT(limited_, ElementsAre("o1"));
  EXPECT_THAT(deletes_, ElementsAre("c1"));
}

TEST_F(GraphBuilderTest, VirtualDeleteNeverRemovesObservedNodeOfOtherCoordinates) {
  builder_.process(add(kOwner));
  builder_.enqueue_virtual_delete({"v1", "Secret", "owner", "o1", "default"});
  ASSERT_TRUE(builder_.process_next());
  EXPECT_TRUE(builder_.node("o1"));
}

TEST_F(GraphBuilderTest, QueueProcessesEventsInOrder) {
  builder_.enqueue(add(kOwner));
  builder_.enqueue(remove(kOwner));
  EXPECT_EQ(builder_.pending(), 2u);
  ASSERT_TRUE(builder_.process_next());
  EXPECT_TRUE(builder_.node("o1"));
  ASSERT_TRUE(builder_.process_next());
  EXPECT_FALSE(builder_.node("o1"));
  builder_.shut_down();
  EXPECT_FALSE(builder_.process_next());
}

TEST(ObjectMetaTest, ParsesOwnersFinalizersAndDeletion) {
  const ObjectMeta m =
      object_meta_of(fixtures::to_json(Obj{.name = "x",
                                           .uid = "u",
                                           .owners = {Ref{.name = "o", .uid = "1", .block = true}},
                                           .finalizers = {"orphan"},
                                           .deleting = true}));
  EXPECT_EQ(m.namespace_, "default");
  EXPECT_EQ(m.name, "x");
  ASSERT_EQ(m.owners.size(), 1u);
  EXPECT_TRUE(blocks(m.owners[0]));
  EXPECT_TRUE(m.has_finalizer("orphan"));
  EXPECT_FALSE(m.has_finalizer("foregroundDeletion"));
  EXPECT_TRUE(m.being_deleted);
  // Malformed references are skipped, not fatal.
  const ObjectMeta bad = object_meta_of(api::json::parse(
      R"({"metadata":{"name":"x","ownerReferences":[1,{"uid":"a"}],"deletionTimestamp":null}})"));
  ASSERT_EQ(bad.owners.size(), 1u);
  EXPECT_EQ(bad.owners[0].uid, "a");
  EXPECT_FALSE(bad.being_deleted);
}

TEST(ObjectMetaTest, FromCachedObjectMatchesJson) {
  const auto json = fixtures::to_json(Obj{.name = "x",
                                          .uid = "u",
                                          .owners = {Ref{.name = "o", .uid = "1"}},
                                          .finalizers = {"foregroundDeletion"},
                                          .deleting = true});
  auto cached = cache::CachedObject::from_json(json);
  ASSERT_TRUE(cached.ok());
  const ObjectMeta m = object_meta_of(**cached);
  EXPECT_EQ(m.uid, "u");
  EXPECT_TRUE(m.being_deleted);
  EXPECT_TRUE(m.has_finalizer("foregroundDeletion"));
  auto live = cache::CachedObject::from_json(fixtures::to_json(kChild));
  ASSERT_TRUE(live.ok());
  const ObjectMeta l = object_meta_of(**live);
  EXPECT_EQ(l.namespace_, "default");
  EXPECT_EQ(l.name, "child");
  ASSERT_EQ(l.owners.size(), 1u);
  EXPECT_EQ(l.owners[0].uid, "o1");
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
