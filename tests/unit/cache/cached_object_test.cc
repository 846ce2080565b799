#include "cache/cached_object.h"

#include <gtest/gtest.h>

#include "api/labels.h"

namespace kcm::cache {
namespace {

namespace json = boost::json;

json::value pod(int i) {
  return json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-)" +
                     std::to_string(i) + R"(","namespace":"prod","uid":"u-)" + std::to_string(i) +
                     R"(","resourceVersion":"42","generation":3,
    "creationTimestamp":"2026-11-30T10:00:00Z","deletionTimestamp":"2026-11-30T11:00:00Z",
    "labels":{"tier":"front","app":"web","n":5},
    "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-abc","uid":"rs-1",
      "controller":true,"blockOwnerDeletion":false},{"apiVersion":"v1","kind":"Node","name":"n1","uid":"n-1"}]},
    "spec":{"containers":[{"name":"app","image":"registry.example.com/web:1.0","args":["--port=8080","--verbose"]}],
      "nodeName":"node-a"},"status":{"phase":"Running"}})");
}

TEST(CachedObjectTest, ParsesMetadata) {
  auto obj = CachedObject::from_json(pod(1)).value();
  EXPECT_EQ(obj->key(), "prod/web-1");
  EXPECT_EQ(obj->namespace_(), "prod");
  EXPECT_EQ(obj->name(), "web-1");
  EXPECT_EQ(obj->uid(), "u-1");
  EXPECT_EQ(obj->resource_version(), "42");
  EXPECT_EQ(obj->generation(), 3);
  EXPECT_EQ(obj->creation_timestamp(), "2026-11-30T10:00:00Z");
  EXPECT_EQ(obj->deletion_timestamp(), std::optional<std::string_view>("2026-11-30T11:00:00Z"));
  // Sorted by key; the non-string value is skipped.
  ASSERT_EQ(obj->label_count(), 2u);
  EXPECT_EQ(obj->label(0), (std::pair<std::string_view, std::string_view>("app", "web")));
  EXPECT_EQ(obj->label(1), (std::pair<std::string_view, std::string_view>("tier", "front")));
  EXPECT_EQ(obj->label_value("tier"), std::optional<std::string_view>("front"));
  EXPECT_EQ(obj->label_value("n"), std::nullopt);
  ASSERT_EQ(obj->owner_count(), 2u);
  const OwnerRef rs = obj->owner_reference(0);
  EXPECT_EQ(rs.api_version, "apps/v1");
  EXPECT_EQ(rs.kind, "ReplicaSet");
  EXPECT_EQ(rs.name, "web-abc");
  EXPECT_EQ(rs.uid, "rs-1");
  EXPECT_EQ(rs.controller, std::optional<bool>(true));
  EXPECT_EQ(rs.block_owner_deletion, std::optional<bool>(false));
  const OwnerRef node = obj->owner_reference(1);
  EXPECT_EQ(node.controller, std::nullopt);
  EXPECT_EQ(node.block_owner_deletion, std::nullopt);
  ASSERT_TRUE(obj->controller_ref());
  EXPECT_EQ(obj->controller_ref()->name, "web-abc");
  EXPECT_EQ(obj->object(), pod(1));
}

TEST(CachedObjectTest, ClusterScopedAndMissingMetadata) {
  auto node = CachedObject::from_json(json::parse(R"({"kind":"Node","metadata":{"name":"n1"}})"));
  ASSERT_TRUE(node.ok());
  EXPECT_EQ((*node)->key(), "n1");
  EXPECT_EQ((*node)->namespace_(), "");
  EXPECT_EQ((*node)->name(), "n1");
  EXPECT_EQ((*node)->deletion_timestamp(), std::nullopt);
  EXPECT_FALSE((*node)->controller_ref());
  auto bare = CachedObject::from_json(json::parse(R"({"kind":"X"})"));
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ((*bare)->key(), "");
  EXPECT_EQ((*bare)->object(), json::parse(R"({"kind":"X"})"));
}

TEST(CachedObjectTest, RejectsNonObjects) {
  for (const char* text : {"[]", "\"pod\"", "null", "3"}) {
    auto r = CachedObject::from_json(json::parse(text));
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error(), "object has no meta: not a JSON object");
  }
}

TEST(CachedObjectTest, MatchesSelectors) {
  auto obj = CachedObject::from_json(pod(1)).value();
  struct Case {
    const char* selector;
    bool want;
  } cases[] = {
      {"", true},
      {"app=web", true},
      {"app=db", false},
      {"tier in (front,back)", true},
      {"tier notin (front)", false},
      {"!missing", true},
      {"missing", false},
      {"app=web,tier=back", false},
      {"n", false},
  };
  for (const auto& c : cases) {
    auto sel = api::labels::parse(c.selector);
    ASSERT_TRUE(sel.ok()) << c.selector;
    EXPECT_EQ(obj->matches(*sel), c.want) << c.selector;
  }
  EXPECT_FALSE(obj->matches(api::labels::Selector::nothing()));
}

TEST(CachedObjectTest, CodecRoundTripsBeforeAndAfterTraining) {
  ObjectCodec::Options o;
  o.samples_for_training = 20;
  ObjectCodec codec(o);
  std::vector<ObjectPtr> objs;
  for (int i = 0; i < 60; ++i)
    objs.push_back(CachedObject::from_json(pod(i), codec).value());
  EXPECT_TRUE(codec.has_dictionary());
  for (int i = 0; i < 60; ++i) {
    EXPECT_EQ(objs[i]->object(), pod(i)) << i;
    EXPECT_EQ(objs[i]->name(), "web-" + std::to_string(i));
  }
  // Compressed with the dictionary, a body is far smaller than its text.
  EXPECT_LT(objs[59]->body_bytes(), objs[59]->json_text().size() / 2);
}

TEST(CachedObjectTest, TinyObjectsStayText) {
  ObjectCodec codec;
  auto obj = CachedObject::from_json(json::parse(R"({"metadata":{"name":"a"}})"), codec).value();
  EXPECT_EQ(obj->json_text(), R"({"metadata":{"name":"a"}})");
  EXPECT_EQ(obj->body_bytes(), obj->json_text().size());
}

struct SizeSummary final : ObjectSummary {
  std::size_t members = 0;
  std::size_t footprint_bytes() const override { return 100; }
};

std::shared_ptr<const ObjectSummary> summarize_size(const json::object& obj) {
  auto s = std::make_shared<SizeSummary>();
  s->members = obj.size();
  return s;
}

TEST(CachedObjectTest, KeepsTheSummaryAndCountsItsBytes) {
  const json::value obj = json::parse(R"({"metadata":{"name":"a"},"spec":{},"status":{}})");
  auto plain = CachedObject::from_json(obj);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->summary(), nullptr);
  auto summarized = CachedObject::from_json(obj, nullptr, summarize_size);
  ASSERT_TRUE(summarized.ok());
  const auto* summary = dynamic_cast<const SizeSummary*>((*summarized)->summary().get());
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->members, 3u);
  EXPECT_EQ((*summarized)->footprint_bytes(), (*plain)->footprint_bytes() + 100);
  EXPECT_EQ((*summarized)->object(), obj);
}

TEST(CachedObjectTest, TombstonesAndKeys) {
  auto obj = CachedObject::from_json(pod(7)).value();
  DeletedObject live = obj;
  DeletedObject tomb = DeletedFinalStateUnknown{"prod/web-7", obj};
  DeletedObject empty_tomb = DeletedFinalStateUnknown{"prod/gone", nullptr};
  EXPECT_EQ(key_of(live), "prod/web-7");
  EXPECT_EQ(key_of(tomb), "prod/web-7");
  EXPECT_EQ(key_of(empty_tomb), "prod/gone");
  EXPECT_EQ(object_of(tomb), obj);
  EXPECT_EQ(object_of(empty_tomb), nullptr);

  EXPECT_EQ(make_key("ns", "a"), "ns/a");
  EXPECT_EQ(make_key("", "a"), "a");
  EXPECT_EQ(split_key("ns/a").value(), (std::pair<std::string, std::string>("ns", "a")));
  EXPECT_EQ(split_key("a").value(), (std::pair<std::string, std::string>("", "a")));
  auto bad = split_key("a/b/c");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "unexpected key format: \"a/b/c\"");
}

}  // namespace
}  // namespace kcm::cache
