#include "cache/indexer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace kcm::cache {
namespace {

using testing::cached;
using testing::sorted_keys;

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

Indexers test_indexers() {
  Indexers ix;
  ix.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  ix.emplace("by-tier", [](const CachedObject& o) {
    std::vector<std::string> out;
    if (auto v = o.label_value("tier")) out.emplace_back(*v);
    return out;
  });
  return ix;
}

TEST(IndexerTest, AddUpdateRemoveAndIndexes) {
  Indexer idx(test_indexers());
  idx.add(cached("a", "x", "1", {{"tier", "front"}}));
  idx.add(cached("a", "y", "1", {{"tier", "back"}}));
  idx.add(cached("b", "z", "1", {{"tier", "front"}}));
  idx.add(cached("", "node", "1"));
  EXPECT_EQ(idx.size(), 4u);
  EXPECT_EQ(sorted(idx.list_keys()), (std::vector<std::string>{"a/x", "a/y", "b/z", "node"}));
  EXPECT_EQ(idx.get("a", "x")->resource_version(), "1");
  EXPECT_EQ(idx.get_by_key("nope"), nullptr);

  EXPECT_EQ(sorted_keys(idx.by_index("namespace", "a").value()),
            (std::vector<std::string>{"a/x", "a/y"}));
  EXPECT_EQ(sorted_keys(idx.by_index("namespace", "").value()), (std::vector<std::string>{"node"}));
  EXPECT_EQ(sorted(idx.index_keys("by-tier", "front").value()),
            (std::vector<std::string>{"a/x", "b/z"}));
  EXPECT_EQ(sorted(idx.list_index_func_values("namespace")),
            (std::vector<std::string>{"", "a", "b"}));
  EXPECT_EQ(sorted_keys(idx.index("by-tier", *cached("q", "q", "1", {{"tier", "back"}})).value()),
            (std::vector<std::string>{"a/y"}));

  // An update moves the object between index values.
  idx.update(cached("a", "x", "2", {{"tier", "back"}}));
  EXPECT_EQ(idx.get("a", "x")->resource_version(), "2");
  EXPECT_EQ(sorted(idx.index_keys("by-tier", "back").value()),
            (std::vector<std::string>{"a/x", "a/y"}));
  EXPECT_EQ(sorted(idx.index_keys("by-tier", "front").value()), (std::vector<std::string>{"b/z"}));

  idx.remove("b/z");
  idx.remove("b/never");
  // The emptied value is gone from the index.
  EXPECT_EQ(sorted(idx.list_index_func_values("by-tier")), (std::vector<std::string>{"back"}));
  EXPECT_EQ(sorted(idx.list_index_func_values("namespace")), (std::vector<std::string>{"", "a"}));
  EXPECT_TRUE(idx.by_index("namespace", "b").value().empty());
  EXPECT_EQ(idx.size(), 3u);
}

TEST(IndexerTest, UnknownIndexErrors) {
  Indexer idx;
  EXPECT_EQ(idx.by_index("missing", "a").error(), "Index with name missing does not exist");
  EXPECT_EQ(idx.index_keys("missing", "a").error(), "Index with name missing does not exist");
  EXPECT_EQ(idx.index("missing", *cached("a", "b")).error(),
            "Index with name missing does not exist");
  EXPECT_TRUE(idx.list_index_func_values("missing").empty());
}

TEST(IndexerTest, AddIndexers) {
  Indexer idx(test_indexers());
  auto conflict = idx.add_indexers(test_indexers());
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.error(), "indexer conflict: map[by-tier:{} namespace:{}]");
  Indexers extra;
  extra.emplace("by-name", [](const CachedObject& o) {
    return std::vector<std::string>{std::string(o.name())};
  });
  ASSERT_TRUE(idx.add_indexers(extra).ok());
  idx.add(cached("a", "x"));
  EXPECT_EQ(idx.index_keys("by-name", "x").value(), (std::vector<std::string>{"a/x"}));
  auto running = idx.add_indexers({});
  ASSERT_FALSE(running.ok());
  EXPECT_EQ(running.error(), "cannot add indexers to running index");
}

TEST(IndexerTest, ReplaceRebuildsEverything) {
  Indexer idx(test_indexers());
  idx.add(cached("a", "x", "1", {{"tier", "front"}}));
  idx.add(cached("a", "y", "1"));
  idx.replace({cached("c", "x", "5", {{"tier", "db"}}), cached("a", "y", "6")});
  EXPECT_EQ(sorted(idx.list_keys()), (std::vector<std::string>{"a/y", "c/x"}));
  EXPECT_EQ(sorted(idx.list_index_func_values("by-tier")), (std::vector<std::string>{"db"}));
  EXPECT_EQ(idx.get("a", "y")->resource_version(), "6");
  idx.replace({});
  EXPECT_EQ(idx.size(), 0u);
  EXPECT_TRUE(idx.list_index_func_values("namespace").empty());
}

}  // namespace
}  // namespace kcm::cache
