#include "cache/controller_index.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cache/shared_informer.h"
#include "test_util.h"

namespace kcm::cache {
namespace {

namespace json = boost::json;
using testing::FakeApiServer;
using testing::make_object;
using testing::sorted_keys;

ObjectPtr owned(const std::string& ns, const std::string& name,
                const std::vector<std::pair<std::string, bool>>& owners) {
  json::value v = make_object(ns, name, {});
  json::array refs;
  for (const auto& [uid, controller] : owners) {
    refs.push_back(json::object{{"apiVersion", "apps/v1"},
                                {"kind", "ReplicaSet"},
                                {"name", "rs-" + uid},
                                {"uid", uid},
                                {"controller", controller}});
  }
  if (!refs.empty()) v.as_object()["metadata"].as_object()["ownerReferences"] = std::move(refs);
  return CachedObject::from_json(v).value();
}

void fill(Indexer& idx) {
  idx.add(owned("a", "p1", {{"u1", true}}));
  idx.add(owned("a", "p2", {{"u1", true}}));
  idx.add(owned("a", "p3", {{"u2", true}}));
  // Owners without controller=true leave the object an orphan.
  idx.add(owned("a", "orphan", {{"u1", false}}));
  idx.add(owned("a", "bare", {}));
  idx.add(owned("b", "orphan", {}));
  // A reference across namespaces is not ownership.
  idx.add(owned("b", "foreign", {{"u1", true}}));
}

TEST(ControllerIndexTest, IndexFuncNamesTheControllerOrTheNamespaceOrphans) {
  EXPECT_EQ(controller_uid_index_func(*owned("a", "p", {{"x", false}, {"u", true}})),
            std::vector<std::string>{"u"});
  EXPECT_EQ(controller_uid_index_func(*owned("a", "p", {{"x", false}})),
            std::vector<std::string>{orphan_index_key("a")});
  EXPECT_NE(orphan_index_key("a"), orphan_index_key("b"));
}

// The same answers with the index and by scanning (an informer that started
// before a controller could add the index).
class ListControlledByTest : public ::testing::TestWithParam<bool> {};

TEST_P(ListControlledByTest, OwnedThenOrphansOfTheNamespace) {
  Indexers indexers;
  if (GetParam()) indexers.emplace(std::string(kControllerUidIndex), controller_uid_index_func);
  Indexer idx(std::move(indexers));
  fill(idx);

  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "u1", Orphans::kExclude)),
            (std::vector<std::string>{"a/p1", "a/p2"}));
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "u1", Orphans::kInclude)),
            (std::vector<std::string>{"a/bare", "a/orphan", "a/p1", "a/p2"}));
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "b", "u1", Orphans::kInclude)),
            (std::vector<std::string>{"b/foreign", "b/orphan"}));
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "nobody", Orphans::kExclude)),
            std::vector<std::string>{});

  // Adoption and release move an object between the entries.
  idx.update(owned("a", "bare", {{"u2", true}}));
  idx.update(owned("a", "p1", {}));
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "u1", Orphans::kExclude)),
            std::vector<std::string>{"a/p2"});
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "u2", Orphans::kExclude)),
            (std::vector<std::string>{"a/bare", "a/p3"}));
  idx.remove("a/p3");
  EXPECT_EQ(sorted_keys(list_controlled_by(idx, "a", "u2", Orphans::kInclude)),
            (std::vector<std::string>{"a/bare", "a/orphan", "a/p1"}));
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutIndex, ListControlledByTest, ::testing::Bool());

TEST(ControllerIndexTest, AddingTwiceIsFineAddingAfterStartFails) {
  auto server = std::make_shared<FakeApiServer>();
  SharedIndexInformer informer(server, SharedInformerOptions{});
  ASSERT_TRUE(add_controller_uid_index(informer).ok());
  EXPECT_TRUE(add_controller_uid_index(informer).ok());
  EXPECT_TRUE(informer.indexer()->has_index(kControllerUidIndex));

  SharedIndexInformer started(server, SharedInformerOptions{});
  std::jthread runner([&](std::stop_token stop) { started.run(stop); });
  ASSERT_TRUE(testing::eventually([&] { return started.has_started(); }));
  const Result<void> late = add_controller_uid_index(started);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error(), "informer has already started");
}

}  // namespace
}  // namespace kcm::cache
