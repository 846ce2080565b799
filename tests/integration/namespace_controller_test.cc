// The namespace controller against a running kcm-local, built through kcm's
// controller descriptor as kcm runs it: a deleted namespace goes Terminating,
// its content is removed, a finalizer on a Lease holds it (and shows in
// its conditions), and once that finalizer is gone the namespace is removed.
#include "controllers/namespace/namespace_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "app/controller_descriptor.h"
#include "app/options.h"
#include "cache/informer_factory.h"
#include "integration_env.h"
#include "metrics/registry.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::ns {
namespace {

namespace json = boost::json;
using integration::eventually_ok;
using integration::string_at;

// The condition of `type` in a namespace's status (null when absent).
const json::object* condition(const json::value& ns, std::string_view type) {
  const json::value* conditions = api::find_path(ns, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_array()) return nullptr;
  for (const json::value& c : conditions->as_array()) {
    if (string_at(c, {"type"}) == type) return &c.as_object();
  }
  return nullptr;
}

std::string condition_text(const json::value& ns, std::string_view type) {
  const json::object* c = condition(ns, type);
  if (c == nullptr) return "<missing>";
  return string_at(*c, {"status"}) + " " + string_at(*c, {"reason"}) + ": " +
         string_at(*c, {"message"});
}

// A coordination.k8s.io Lease (kcm-local serves no ConfigMaps) with `finalizers`.
json::value lease(std::string_view name, json::array finalizers) {
  json::object meta{{"name", name}};
  if (!finalizers.empty()) meta["finalizers"] = std::move(finalizers);
  return json::object{{"apiVersion", "coordination.k8s.io/v1"},
                      {"kind", "Lease"},
                      {"metadata", std::move(meta)},
                      {"spec", json::object{{"holderIdentity", "test"}}}};
}

class NamespaceControllerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = std::make_unique<e2e::LocalCluster>(e2e::LocalCluster::Options{
        .extra_args = {"--nodes=1", "--pod-ready-delay=100ms", "--pod-terminate-delay=200ms"}});
  }
  static void TearDownTestSuite() { cluster_.reset(); }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    informers_ = std::make_unique<cache::SharedInformerFactory>(
        [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
        });
    const app::ControllerContext ctx{
        .options = options_,
        .informers = *informers_,
        .client = [this](std::string_view) -> Result<std::shared_ptr<client::Clientset>> {
          return cs_;
        },
        .recorder = [](std::string_view,
                       const client::Clientset&) -> std::shared_ptr<record::EventRecorder> {
          return std::make_shared<record::FakeRecorder>();
        },
        .metrics = metrics_,
    };
    const auto& all = app::controller_descriptors();
    const auto it = std::find_if(all.begin(), all.end(), [](const app::ControllerDescriptor& d) {
      return d.name == kControllerName;
    });
    ASSERT_NE(it, all.end());
    auto controller = it->init(ctx);
    ASSERT_TRUE(controller.ok()) << controller.error();
    ASSERT_NE(*controller, nullptr);
    controller_ = std::move(*controller);
    informers_->start(stop_.get_token());
    thread_ = std::jthread([c = controller_.get(), token = stop_.get_token()] { c->run(token); });
  }

  void TearDown() override {
    stop_.request_stop();
    if (thread_.joinable()) thread_.join();
    controller_.reset();
    if (informers_) informers_->shutdown();
  }

  void create(client::ResourceClient resources, const json::value& obj) {
    auto r = resources.create(obj);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  static inline std::unique_ptr<e2e::LocalCluster> cluster_;
  app::Options options_;
  metrics::Registry metrics_;
  std::shared_ptr<client::Clientset> cs_;
  std::unique_ptr<cache::SharedInformerFactory> informers_;
  std::unique_ptr<app::Controller> controller_;
  std::stop_source stop_;
  std::jthread thread_;
};

TEST_F(NamespaceControllerTest, DeletedNamespaceIsEmptiedThenRemoved) {
  const std::string ns = "nsc-doomed";
  integration::ensure_namespace(*cs_, ns);
  for (const char* name : {"a", "b"}) {
    create(cs_->leases(ns), lease(name, {}));
  }
  create(cs_->leases(ns), lease("held", {"example.com/hold"}));
  for (const char* name : {"p1", "p2"}) {
    create(cs_->pods(ns),
           json::object{
               {"apiVersion", "v1"},
               {"kind", "Pod"},
               {"metadata", json::object{{"name", name}, {"labels", json::object{{"app", "x"}}}}},
               {"spec", json::object{{"terminationGracePeriodSeconds", 2},
                                     {"containers", json::array{json::object{
                                                        {"name", "c"}, {"image", "nginx"}}}}}}});
  }
  // A ReplicaSet no controller acts on: the namespace controller deletes it itself.
  create(
      cs_->replicasets(ns),
      json::object{
          {"apiVersion", "apps/v1"},
          {"kind", "ReplicaSet"},
          {"metadata", json::object{{"name", "rs"}}},
          {"spec",
           json::object{
               {"replicas", 0},
               {"selector", json::object{{"matchLabels", json::object{{"app", "rs"}}}}},
               {"template",
                json::object{{"metadata", json::object{{"labels", json::object{{"app", "rs"}}}}},
                             {"spec", json::object{{"containers", json::array{json::object{
                                                                      {"name", "c"},
                                                                      {"image", "nginx"}}}}}}}}}}});

  auto deleted = cs_->namespaces().delete_object(ns);
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  // The server marks it and refuses new content at once.
  auto marked = cs_->namespaces().get(ns);
  ASSERT_TRUE(marked.ok()) << marked.error().message;
  EXPECT_EQ(string_at(*marked, {"status", "phase"}), "Terminating");
  auto refused = cs_->leases(ns).create(lease("late", {}));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "leases.coordination.k8s.io \"late\" is forbidden: unable to create new content in "
            "namespace " +
                ns + " because it is being terminated");

  // Everything but the held Lease goes (pods may still be terminating on the
  // first passes); the conditions then say why the rest stays.
  const std::string finalizers_remaining =
      "True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: "
      "example.com/hold in 1 resource instances";
  const std::string content_remaining =
      "True SomeResourcesRemain: Some resources are remaining: leases.coordination.k8s.io has 1 "
      "resource instances";
  json::value seen;
  EXPECT_TRUE(eventually_ok(
      [&] {
        auto got = cs_->namespaces().get(ns);
        if (!got.ok()) return false;
        seen = *got;
        return condition_text(seen, kFinalizersRemaining) == finalizers_remaining &&
               condition_text(seen, kContentRemaining) == content_remaining &&
               condition_text(seen, kDeletionContentFailure).starts_with("False");
      },
      std::chrono::seconds(60)))
      << json::serialize(seen);
  EXPECT_EQ(string_at(seen, {"status", "phase"}), "Terminating");
  EXPECT_EQ(condition_text(seen, kDeletionDiscoveryFailure),
            "False ResourcesDiscovered: All resources successfully discovered");
  EXPECT_EQ(condition_text(seen, kDeletionGroupVersionParsingFailure),
            "False ParsedGroupVersions: All legacy kube types successfully parsed");
  EXPECT_EQ(condition_text(seen, kDeletionContentFailure),
            "False ContentDeleted: All content successfully deleted, may be waiting on "
            "finalization");
  auto held = cs_->leases(ns).get("held");
  ASSERT_TRUE(held.ok()) << held.error().message;
  EXPECT_FALSE(string_at(*held, {"metadata", "deletionTimestamp"}).empty());
  for (auto resources : {cs_->pods(ns), cs_->replicasets(ns)}) {
    auto left = resources.list({});
    ASSERT_TRUE(left.ok()) << left.error().message;
    EXPECT_TRUE(left->items.empty()) << resources.resource().resource;
  }
  const json::value* finalizers = api::find_path(seen, {"spec", "finalizers"});
  ASSERT_NE(finalizers, nullptr);
  EXPECT_EQ(*finalizers, (json::array{"kubernetes"}));

  // Release the Lease: the namespace is finalized and removed.
  auto released = cs_->leases(ns).patch("held", client::PatchType::kMerge,
                                        R"({"metadata":{"finalizers":null}})");
  ASSERT_TRUE(released.ok()) << released.error().message;
  EXPECT_TRUE(eventually_ok(
      [&] {
        auto got = cs_->namespaces().get(ns);
        return !got.ok() && got.error().is(api::reason::kNotFound);
      },
      std::chrono::seconds(60)));
}

TEST_F(NamespaceControllerTest, LiveNamespacesAreLeftAlone) {
  const std::string ns = "nsc-alive";
  integration::ensure_namespace(*cs_, ns);
  create(cs_->leases(ns), lease("keep", {}));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  auto kept = cs_->leases(ns).get("keep");
  EXPECT_TRUE(kept.ok());
  auto got = cs_->namespaces().get(ns);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(string_at(*got, {"status", "phase"}), "Active");
  EXPECT_EQ(condition(*got, kContentRemaining), nullptr);
}

}  // namespace
}  // namespace kcm::controllers::ns
