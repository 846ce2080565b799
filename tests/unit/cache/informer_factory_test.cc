#include "cache/informer_factory.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace kcm::cache {
namespace {

using namespace std::chrono_literals;
using testing::eventually;
using testing::FakeApiServer;
using testing::make_object;

const api::GroupVersionResource kPods{"", "v1", "pods"};
const api::GroupVersionResource kDeployments{"apps", "v1", "deployments"};

struct Servers {
  std::map<std::string, std::shared_ptr<FakeApiServer>> by_resource;
  std::vector<std::string> namespaces_asked;
  ListerWatcherFactory factory() {
    return [this](const api::GroupVersionResource& gvr, const std::string& ns) {
      namespaces_asked.push_back(ns);
      auto& s = by_resource[gvr.resource];
      if (!s) s = std::make_shared<FakeApiServer>();
      return std::shared_ptr<ListerWatcher>(s);
    };
  }
};

SharedInformerFactoryOptions fast() {
  SharedInformerFactoryOptions o;
  o.informer.reflector.backoff.initial = 1ms;
  o.informer.reflector.backoff.cap = 5ms;
  o.informer.reflector.watch_error_handler = [](const api::Status&) {};
  return o;
}

TEST(SharedInformerFactoryTest, FindInformerNeverCreatesOne) {
  Servers servers;
  SharedInformerFactory factory(servers.factory(), fast());
  EXPECT_EQ(factory.find_informer(kPods), nullptr);
  // Asking made no informer: nothing to start or wait for, no lister-watcher made.
  std::stop_source stop;
  factory.start(stop.get_token());
  EXPECT_TRUE(factory.wait_for_cache_sync(stop.get_token()).empty());
  EXPECT_TRUE(servers.namespaces_asked.empty());

  auto pods = factory.informer_for(kPods);
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(factory.find_informer(kPods), pods);
  EXPECT_EQ(factory.find_informer(kDeployments), nullptr);
  EXPECT_EQ(factory.find_informer({"", "v2", "pods"}), nullptr);
  EXPECT_EQ(servers.namespaces_asked.size(), 1u);
  factory.shutdown();
}

TEST(SharedInformerFactoryTest, OneInformerPerResourceStartedAndSynced) {
  Servers servers;
  SharedInformerFactoryOptions o = fast();
  o.namespace_ = "team";
  SharedInformerFactory factory(servers.factory(), o);
  auto pods = factory.informer_for(kPods);
  EXPECT_EQ(factory.informer_for(kPods), pods);
  servers.by_resource["pods"]->create(make_object("team", "a", {{"app", "web"}}));
  servers.by_resource["pods"]->create(make_object("team", "b", {{"app", "db"}}));

  std::stop_source stop;
  factory.start(stop.get_token());
  // A late informer is started by a second start().
  auto deps = factory.informer_for(kDeployments);
  EXPECT_FALSE(deps->has_started());
  factory.start(stop.get_token());
  const auto synced = factory.wait_for_cache_sync(stop.get_token());
  ASSERT_EQ(synced.size(), 2u);
  for (const auto& [key, ok] : synced)
    EXPECT_TRUE(ok);
  EXPECT_EQ(servers.namespaces_asked, (std::vector<std::string>{"team", "team"}));
  // The namespace index is always there.
  EXPECT_EQ(pods->indexer()->by_index(kNamespaceIndex, "team").value().size(), 2u);

  Lister lister = factory.lister_for(kPods);
  auto web = api::labels::parse("app=web").value();
  ASSERT_EQ(lister.list(web).size(), 1u);
  EXPECT_EQ(lister.namespace_("team").list(web).front()->name(), "a");
  EXPECT_TRUE(lister.namespace_("other").list(api::labels::Selector::everything()).empty());
  EXPECT_EQ(lister.namespace_("team").get("b").value()->name(), "b");
  auto missing = lister.namespace_("team").get("zzz");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "pods \"zzz\" not found");
  EXPECT_EQ(missing.error().reason, "NotFound");
  EXPECT_EQ(lister.get("team/a").value()->name(), "a");
  api::LabelSelector sel;
  sel.match_labels = {{"app", "db"}};
  EXPECT_EQ(lister.list(sel).value().front()->name(), "b");

  factory.shutdown();
  EXPECT_TRUE(pods->is_stopped());
  EXPECT_TRUE(deps->is_stopped());
  factory.start(stop.get_token());  // nothing after shutdown
}

TEST(SharedInformerFactoryTest, TweakAndResync) {
  Servers servers;
  SharedInformerFactoryOptions o = fast();
  o.tweak_list_options = [](client::ListOptions& opt) { opt.label_selector = "app=web"; };
  o.default_resync = 12h;
  SharedInformerFactory factory(servers.factory(), o);
  auto pods = factory.informer_for(kPods);
  auto& server = *servers.by_resource["pods"];
  server.create(make_object("ns", "a", {{"app", "web"}}));
  server.create(make_object("ns", "b", {{"app", "db"}}));
  std::stop_source stop;
  factory.start(stop.get_token());
  ASSERT_TRUE(factory.wait_for_cache_sync(stop.get_token()).begin()->second);
  EXPECT_EQ(pods->indexer()->list_keys(), (std::vector<std::string>{"ns/a"}));
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  EXPECT_EQ(server.watch_calls().back().label_selector, "app=web");
  server.create(make_object("ns", "c", {{"app", "web"}}));
  server.create(make_object("ns", "d", {{"app", "db"}}));
  ASSERT_TRUE(eventually([&] { return pods->indexer()->size() == 2; }));
  stop.request_stop();
  factory.shutdown();
  EXPECT_TRUE(pods->is_stopped());
}

TEST(ListerTest, WithoutNamespaceIndexScans) {
  auto idx = std::make_shared<Indexer>();
  idx->add(testing::cached("a", "x", "1", {{"k", "v"}}));
  idx->add(testing::cached("b", "y", "1", {{"k", "v"}}));
  Lister lister(idx, {"apps", "replicasets"});
  EXPECT_EQ(lister.namespace_("a").list(api::labels::Selector::everything()).size(), 1u);
  EXPECT_EQ(lister.namespace_("").list(api::labels::parse("k=v").value()).size(), 2u);
  EXPECT_EQ(lister.get("nope").error().message, "replicasets.apps \"nope\" not found");
  api::LabelSelector bad;
  bad.match_expressions.push_back({"k", "Foo", {"v"}});
  EXPECT_FALSE(lister.list(bad).ok());
}

}  // namespace
}  // namespace kcm::cache
