#include "cache/label_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "cache/lister.h"
#include "test_util.h"

namespace kcm::cache {
namespace {

using testing::cached;
using testing::sorted_keys;

std::unique_ptr<Indexer> filled(bool with_label_index) {
  Indexers indexers;
  indexers.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  if (with_label_index) indexers.emplace(label_index_name("hash"), label_index_func("hash"));
  auto idx = std::make_unique<Indexer>(std::move(indexers));
  idx->add(cached("a", "p1", "1", {{"app", "web"}, {"hash", "h1"}}));
  idx->add(cached("a", "p2", "1", {{"app", "web"}, {"hash", "h2"}}));
  idx->add(cached("a", "p3", "1", {{"app", "db"}, {"hash", "h1"}}));
  idx->add(cached("a", "bare", "1", {{"app", "web"}}));
  idx->add(cached("b", "p1", "1", {{"app", "web"}, {"hash", "h1"}}));
  return idx;
}

TEST(LabelIndexTest, IndexFuncKeysByNamespaceAndValue) {
  const IndexFunc f = label_index_func("hash");
  EXPECT_EQ(f(*cached("a", "x", "1", {{"hash", "h1"}})), std::vector<std::string>{"a/h1"});
  EXPECT_EQ(f(*cached("", "node", "1", {{"hash", "h1"}})), std::vector<std::string>{"/h1"});
  EXPECT_TRUE(f(*cached("a", "x", "1", {{"other", "h1"}})).empty());
}

// A lister answers the same with the index as by scanning; only selectors
// that pin the indexed label to one value use it.
TEST(LabelIndexTest, ListersAnswerTheSameWithAndWithoutTheIndex) {
  const char* const selectors[] = {
      "hash=h1",         "app=web,hash=h1", "hash in (h1)", "hash==h2,app=web", "app=web",
      "hash in (h1,h2)", "hash!=h1",        "hash",         "app=db,hash=h2",   "hash=h1,hash!=h1"};
  const std::unique_ptr<const Indexer> indexed_owner = filled(true);
  const std::unique_ptr<const Indexer> scanned_owner = filled(false);
  const Indexer& indexed = *indexed_owner;
  const Indexer& scanned = *scanned_owner;
  for (const char* text : selectors) {
    auto selector = api::labels::parse(text);
    ASSERT_TRUE(selector.ok()) << text;
    for (const char* ns : {"a", "b", "c"}) {
      EXPECT_EQ(sorted_keys(list_all_by_namespace(indexed, ns, *selector)),
                sorted_keys(list_all_by_namespace(scanned, ns, *selector)))
          << text << " in " << ns;
    }
  }
  auto pinned = api::labels::parse("app=web,hash=h1");
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(sorted_keys(list_all_by_namespace(indexed, "a", *pinned)),
            std::vector<std::string>{"a/p1"});
  ASSERT_TRUE(list_by_label_index(indexed, "a", *pinned).has_value());
  EXPECT_FALSE(list_by_label_index(scanned, "a", *pinned).has_value());
  auto unpinned = api::labels::parse("hash in (h1,h2)");
  ASSERT_TRUE(unpinned.ok());
  EXPECT_FALSE(list_by_label_index(indexed, "a", *unpinned).has_value());
}

}  // namespace
}  // namespace kcm::cache
