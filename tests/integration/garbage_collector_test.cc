// The garbage collector against a running kcm-local, built through kcm's
// controller descriptor (with the ReplicaSet controller for real pods):
// background, foreground and orphan cascades, dangling owners, and a
// dependent with one live and one dangling owner. As in kcm, resources no
// other controller watches (leases) are monitored through metadata-only
// informers; replicasets and pods through the ReplicaSet controller's.
#include "controllers/garbagecollector/garbage_collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/controller_descriptor.h"
#include "app/options.h"
#include "cache/informer_factory.h"
#include "integration_env.h"
#include "metrics/registry.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::garbagecollector {
namespace {

namespace json = boost::json;
using integration::eventually_ok;
using integration::string_at;

struct OwnerRef {
  std::string api_version = "coordination.k8s.io/v1";
  std::string kind = "Lease";
  std::string name;
  std::string uid;
  bool block = false;
};

class GarbageCollectorIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new e2e::LocalCluster(e2e::LocalCluster::Options{
        .extra_args = {"--nodes=1", "--pod-ready-delay=100ms", "--pod-terminate-delay=100ms"}});
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    ns_ = "gc-" + name;
    integration::ensure_namespace(*cs_, ns_);

    informers_ = std::make_unique<cache::SharedInformerFactory>(
        [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
        });
    metadata_informers_ = std::make_unique<cache::SharedInformerFactory>(
        [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->metadata(gvr, ns));
        });
    const app::ControllerContext ctx{
        .options = options_,
        .informers = *informers_,
        .metadata_informers = metadata_informers_.get(),
        .client = [this](std::string_view) -> Result<std::shared_ptr<client::Clientset>> {
          return cs_;
        },
        .recorder = [this](std::string_view, const client::Clientset&)
            -> std::shared_ptr<record::EventRecorder> { return events_; },
        .metrics = metrics_,
    };
    for (std::string_view name : {kControllerName, std::string_view("replicaset-controller")}) {
      const auto& all = app::controller_descriptors();
      const auto it = std::find_if(all.begin(), all.end(), [&](const app::ControllerDescriptor& d) {
        return d.name == name;
      });
      ASSERT_NE(it, all.end()) << name;
      auto controller = it->init(ctx);
      ASSERT_TRUE(controller.ok()) << controller.error();
      ASSERT_NE(*controller, nullptr);
      controllers_.push_back(std::move(*controller));
    }
    informers_->start(stop_.get_token());
    metadata_informers_->start(stop_.get_token());
    for (const auto& c : controllers_) {
      threads_.emplace_back([c = c.get(), token = stop_.get_token()] { c->run(token); });
    }
  }

  void TearDown() override {
    stop_.request_stop();
    threads_.clear();
    controllers_.clear();
    if (informers_) informers_->shutdown();
    if (metadata_informers_) metadata_informers_->shutdown();
  }

  // A Lease (kcm-local serves no ConfigMaps), optionally owned and with finalizers; returns its
  // uid.
  std::string create_lease(const std::string& name, const std::vector<OwnerRef>& owners = {},
                           const std::vector<std::string>& finalizers = {}) {
    json::object meta{{"name", name}, {"namespace", ns_}};
    if (!owners.empty()) {
      json::array refs;
      for (const OwnerRef& o : owners) {
        refs.push_back(json::object{{"apiVersion", o.api_version},
                                    {"kind", o.kind},
                                    {"name", o.name},
                                    {"uid", o.uid},
                                    {"blockOwnerDeletion", o.block}});
      }
      meta["ownerReferences"] = std::move(refs);
    }
    if (!finalizers.empty()) {
      json::array f;
      for (const auto& s : finalizers)
        f.push_back(json::string(s));
      meta["finalizers"] = std::move(f);
    }
    auto created = cs_->leases(ns_).create(json::object{{"apiVersion", "coordination.k8s.io/v1"},
                                                        {"kind", "Lease"},
                                                        {"metadata", std::move(meta)}});
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created.ok() ? string_at(*created, {"metadata", "uid"}) : "";
  }

  std::optional<json::value> get_lease(const std::string& name) {
    auto got = cs_->leases(ns_).get(name);
    if (!got.ok()) return std::nullopt;
    return std::move(*got);
  }
  bool lease_gone(const std::string& name) {
    auto got = cs_->leases(ns_).get(name);
    return !got.ok() && got.error().is(api::reason::kNotFound);
  }
  void delete_lease(const std::string& name, std::string policy) {
    auto deleted = cs_->leases(ns_).delete_object(
        name, client::DeleteOptions{.propagation_policy = std::move(policy)});
    ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  }
  static std::vector<std::string> finalizers_of(const json::value& obj) {
    std::vector<std::string> out;
    if (const json::value* f = api::find_path(obj, {"metadata", "finalizers"});
        f && f->is_array()) {
      for (const auto& v : f->get_array())
        out.emplace_back(v.as_string());
    }
    return out;
  }
  static std::size_t owner_count(const json::value& obj) {
    const json::value* refs = api::find_path(obj, {"metadata", "ownerReferences"});
    return refs && refs->is_array() ? refs->get_array().size() : 0;
  }

  std::size_t pods_of_replica_set() {
    auto list = cs_->pods(ns_).list_all({.label_selector = "app=gc"});
    EXPECT_TRUE(list.ok());
    return list.ok() ? list->items.size() : 0;
  }
  // A ReplicaSet "rs" with 2 pods (made by the ReplicaSet controller), then deleted with `policy`.
  void replica_set_with_pods_deleted(std::string policy) {
    auto created =
        cs_->replicasets(ns_).create(json::parse(R"({"apiVersion":"apps/v1","kind":"ReplicaSet",
      "metadata":{"name":"rs"},
      "spec":{"replicas":2,"selector":{"matchLabels":{"app":"gc"}},
        "template":{"metadata":{"labels":{"app":"gc"}},
                    "spec":{"containers":[{"name":"c","image":"nginx"}]}}}})"));
    ASSERT_TRUE(created.ok()) << created.error().message;
    ASSERT_TRUE(eventually_ok([&] { return pods_of_replica_set() == 2; }));
    auto deleted = cs_->replicasets(ns_).delete_object(
        "rs", client::DeleteOptions{.propagation_policy = std::move(policy)});
    ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  }
  bool replica_set_gone() {
    auto rs = cs_->replicasets(ns_).get("rs");
    return !rs.ok() && rs.error().is(api::reason::kNotFound);
  }

  static inline e2e::LocalCluster* cluster_ = nullptr;
  std::shared_ptr<client::Clientset> cs_;
  std::string ns_;
  app::Options options_;
  metrics::Registry metrics_;
  std::shared_ptr<record::FakeRecorder> events_ = std::make_shared<record::FakeRecorder>();
  std::unique_ptr<cache::SharedInformerFactory> informers_;
  std::unique_ptr<cache::SharedInformerFactory> metadata_informers_;
  std::vector<std::unique_ptr<app::Controller>> controllers_;
  std::stop_source stop_;
  std::vector<std::jthread> threads_;
};

TEST_F(GarbageCollectorIntegrationTest, BackgroundDeletionCollectsDependents) {
  const std::string owner = create_lease("owner");
  create_lease("dep-a", {{.name = "owner", .uid = owner}});
  create_lease("dep-b", {{.name = "owner", .uid = owner}});
  create_lease("unrelated");
  delete_lease("owner", "Background");
  EXPECT_TRUE(eventually_ok([&] { return lease_gone("dep-a") && lease_gone("dep-b"); }));
  EXPECT_FALSE(lease_gone("unrelated"));
}

TEST_F(GarbageCollectorIntegrationTest, ForegroundDeletionWaitsForBlockingDependents) {
  const std::string owner = create_lease("owner");
  // The dependent stays while its own finalizer is there.
  create_lease("dep", {{.name = "owner", .uid = owner, .block = true}}, {"example.com/hold"});
  delete_lease("owner", "Foreground");
  // GC deletes the dependent (it gets a deletionTimestamp); the owner waits.
  EXPECT_TRUE(eventually_ok([&] {
    auto dep = get_lease("dep");
    return dep && api::find_path(*dep, {"metadata", "deletionTimestamp"}) != nullptr;
  }));
  auto waiting = get_lease("owner");
  ASSERT_TRUE(waiting);
  EXPECT_NE(api::find_path(*waiting, {"metadata", "deletionTimestamp"}), nullptr);
  EXPECT_EQ(finalizers_of(*waiting), std::vector<std::string>{"foregroundDeletion"});
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(lease_gone("owner"));
  // Releasing the dependent lets the owner go.
  auto released = cs_->leases(ns_).patch("dep", client::PatchType::kMerge,
                                         R"({"metadata":{"finalizers":null}})");
  ASSERT_TRUE(released.ok()) << released.error().message;
  EXPECT_TRUE(eventually_ok([&] { return lease_gone("dep") && lease_gone("owner"); }));
}

TEST_F(GarbageCollectorIntegrationTest, OrphanDeletionKeepsDependentsWithoutTheReference) {
  const std::string owner = create_lease("owner");
  const std::string other = create_lease("other");
  create_lease("dep", {{.name = "owner", .uid = owner}, {.name = "other", .uid = other}});
  create_lease("dep-only", {{.name = "owner", .uid = owner}});
  delete_lease("owner", "Orphan");
  EXPECT_TRUE(eventually_ok([&] { return lease_gone("owner"); }));
  auto dep = get_lease("dep");
  ASSERT_TRUE(dep);
  ASSERT_EQ(owner_count(*dep), 1u);
  EXPECT_EQ(
      string_at(api::find_path(*dep, {"metadata", "ownerReferences"})->get_array()[0], {"uid"}),
      other);
  auto only = get_lease("dep-only");
  ASSERT_TRUE(only);
  EXPECT_EQ(owner_count(*only), 0u);
  // Nothing deletes them later.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(lease_gone("dep-only"));
}

TEST_F(GarbageCollectorIntegrationTest, DependentOfOwnerThatNeverExistedIsDeleted) {
  create_lease("orphaned", {{.name = "ghost", .uid = "00000000-0000-0000-0000-000000000001"}});
  EXPECT_TRUE(eventually_ok([&] { return lease_gone("orphaned"); }));
}

TEST_F(GarbageCollectorIntegrationTest, OwnerWithSameNameButOtherUidIsDangling) {
  create_lease("owner");
  create_lease("dep", {{.name = "owner", .uid = "00000000-0000-0000-0000-000000000002"}});
  EXPECT_TRUE(eventually_ok([&] { return lease_gone("dep"); }));
  EXPECT_FALSE(lease_gone("owner"));
}

TEST_F(GarbageCollectorIntegrationTest, LiveAndDanglingOwnersKeepAndPatch) {
  const std::string live = create_lease("live");
  create_lease("dep", {{.name = "live", .uid = live},
                       {.name = "ghost", .uid = "00000000-0000-0000-0000-000000000003"}});
  EXPECT_TRUE(eventually_ok([&] {
    auto dep = get_lease("dep");
    return dep && owner_count(*dep) == 1;
  }));
  auto dep = get_lease("dep");
  ASSERT_TRUE(dep);
  EXPECT_EQ(
      string_at(api::find_path(*dep, {"metadata", "ownerReferences"})->get_array()[0], {"uid"}),
      live);
}

TEST_F(GarbageCollectorIntegrationTest, ReplicaSetBackgroundDeletionDeletesItsPods) {
  replica_set_with_pods_deleted("Background");
  EXPECT_TRUE(eventually_ok([&] { return pods_of_replica_set() == 0; }));
}

TEST_F(GarbageCollectorIntegrationTest, ReplicaSetForegroundDeletionGoesAfterItsPods) {
  replica_set_with_pods_deleted("Foreground");
  EXPECT_TRUE(eventually_ok([&] { return replica_set_gone(); }));
  EXPECT_EQ(pods_of_replica_set(), 0u);
}

TEST_F(GarbageCollectorIntegrationTest, ReplicaSetOrphanDeletionKeepsPods) {
  replica_set_with_pods_deleted("Orphan");
  EXPECT_TRUE(eventually_ok([&] { return replica_set_gone(); }));
  auto pods = cs_->pods(ns_).list_all({.label_selector = "app=gc"});
  ASSERT_TRUE(pods.ok());
  ASSERT_EQ(pods->items.size(), 2u);
  for (const auto& pod : pods->items)
    EXPECT_EQ(owner_count(pod), 0u);
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
