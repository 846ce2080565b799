// The metadata-only client and informers (client-go's metadata client and
// metadatainformer) against a running kcm-local: every answer is a
// meta.k8s.io PartialObjectMetadata(List) that carries the object's metadata
// and nothing of its spec or status, and an informer over it syncs and follows
// changes as one over full objects does.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cache/informer_factory.h"
#include "integration_env.h"

namespace kcm::client {
namespace {

namespace json = boost::json;
using integration::string_at;

const api::GroupVersionResource kPods{"", "v1", "pods"};

json::value pod(const std::string& name) {
  return json::parse(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":")" +
                     name + R"(","labels":{"app":"meta"},"annotations":{"a":"b"}},
    "spec":{"containers":[{"name":"c","image":"nginx"}]}})");
}

// Only metadata: the shape upstream's apiserver answers for a PartialObjectMetadata Accept.
void expect_partial_object_metadata(const json::value& obj, const std::string& name) {
  SCOPED_TRACE(json::serialize(obj));
  ASSERT_TRUE(obj.is_object());
  EXPECT_EQ(string_at(obj, {"kind"}), "PartialObjectMetadata");
  EXPECT_EQ(string_at(obj, {"apiVersion"}), "meta.k8s.io/v1");
  EXPECT_EQ(string_at(obj, {"metadata", "name"}), name);
  EXPECT_FALSE(string_at(obj, {"metadata", "uid"}).empty());
  EXPECT_FALSE(string_at(obj, {"metadata", "resourceVersion"}).empty());
  EXPECT_EQ(string_at(obj, {"metadata", "labels", "app"}), "meta");
  EXPECT_EQ(string_at(obj, {"metadata", "annotations", "a"}), "b");
  EXPECT_EQ(obj.as_object().count("spec"), 0u);
  EXPECT_EQ(obj.as_object().count("status"), 0u);
}

class MetadataClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = std::make_unique<e2e::LocalCluster>(); }
  static void TearDownTestSuite() { cluster_.reset(); }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    ns_ = "meta-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name());
    for (char& c : ns_)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    integration::ensure_namespace(*cs_, ns_);
  }

  static std::unique_ptr<e2e::LocalCluster> cluster_;
  std::shared_ptr<Clientset> cs_;
  std::string ns_;
};

std::unique_ptr<e2e::LocalCluster> MetadataClientTest::cluster_;

TEST_F(MetadataClientTest, ListGetWatchPatchAndDeleteAnswerOnlyMetadata) {
  for (const std::string name : {"p0", "p1", "p2"})
    ASSERT_TRUE(cs_->pods(ns_).create(pod(name)).ok());
  ResourceClient metadata = cs_->metadata(kPods, ns_);

  // A list in pages of two: the continue token works as for full objects.
  auto page = metadata.list({.limit = 2});
  ASSERT_TRUE(page.ok()) << page.error().message;
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_FALSE(page->continue_token.empty());
  auto all = metadata.list_all({});
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->items.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    expect_partial_object_metadata(all->items[i], "p" + std::to_string(i));

  auto got = metadata.get("p1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  expect_partial_object_metadata(*got, "p1");

  auto watch = metadata.watch({.resource_version = all->resource_version});
  ASSERT_TRUE(watch.ok()) << watch.error().message;
  ASSERT_TRUE(cs_->pods(ns_).create(pod("p3")).ok());
  auto event = (*watch)->next();
  ASSERT_TRUE(event.ok()) << event.error().message;
  ASSERT_TRUE(event->has_value());
  EXPECT_EQ((*event)->type, WatchEventType::kAdded);
  expect_partial_object_metadata((*event)->object, "p3");
  (*watch)->stop();

  auto patched = metadata.patch("p2", PatchType::kMerge, R"({"metadata":{"labels":{"x":"y"}}})");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  expect_partial_object_metadata(*patched, "p2");
  EXPECT_EQ(string_at(*patched, {"metadata", "labels", "x"}), "y");
  // The patch changed the stored pod, spec and all kept.
  auto full = cs_->pods(ns_).get("p2");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(string_at(*full, {"metadata", "labels", "x"}), "y");
  EXPECT_EQ(string_at(*full, {"kind"}), "Pod");
  EXPECT_NE(api::find_path(*full, {"spec", "containers"}), nullptr);

  auto deleted = metadata.delete_object("p0", {.grace_period_seconds = 0});
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  auto gone = cs_->pods(ns_).get("p0");
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(gone.error().is(api::reason::kNotFound));
}

TEST_F(MetadataClientTest, MetadataInformerSyncsAndFollowsChanges) {
  ASSERT_TRUE(cs_->pods(ns_).create(pod("a")).ok());
  cache::SharedInformerFactory factory(
      [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
        return std::make_shared<ResourceClient>(cs->metadata(gvr, ns));
      },
      {.namespace_ = ns_});
  auto informer = factory.informer_for(kPods);
  std::stop_source stop;
  factory.start(stop.get_token());
  const auto synced = factory.wait_for_cache_sync(stop.get_token());
  ASSERT_EQ(synced.size(), 1u);
  EXPECT_TRUE(synced.begin()->second);

  auto cached = informer->indexer()->get(ns_, "a");
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(cached->label_value("app"), "meta");
  expect_partial_object_metadata(cached->object(), "a");

  ASSERT_TRUE(cs_->pods(ns_).create(pod("b")).ok());
  ASSERT_TRUE(cs_->pods(ns_)
                  .patch("a", PatchType::kMerge, R"({"metadata":{"labels":{"app":"changed"}}})")
                  .ok());
  EXPECT_TRUE(integration::eventually_ok([&] {
    auto a = informer->indexer()->get(ns_, "a");
    return informer->indexer()->get(ns_, "b") != nullptr && a != nullptr &&
           a->label_value("app") == "changed";
  }));
  ASSERT_TRUE(cs_->pods(ns_).delete_object("b", {.grace_period_seconds = 0}).ok());
  EXPECT_TRUE(
      integration::eventually_ok([&] { return informer->indexer()->get(ns_, "b") == nullptr; }));
  stop.request_stop();
  factory.shutdown();
}

}  // namespace
}  // namespace kcm::client
