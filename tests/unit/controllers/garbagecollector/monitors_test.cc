// Which informers the garbage collector's monitors watch: the full shared one
// when a controller asked for it before the GC ran, else a metadata-only one;
// and re-discovery adding and removing monitors.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cache/informer_factory.h"
#include "controllers/garbagecollector/garbage_collector.h"
#include "eventually.h"
#include "gc_fixtures.h"

namespace kcm::controllers::garbagecollector {
namespace {

using namespace fixtures;  // NOLINT(google-build-using-namespace)
using namespace std::chrono_literals;
using test_support::eventually;

// Lists fixed items, then streams whatever push() sends until stopped.
class ScriptedListerWatcher final : public cache::ListerWatcher {
 public:
  explicit ScriptedListerWatcher(std::vector<api::json::value> items) : items_(std::move(items)) {}

  Result<cache::ListPage, api::Status> list(const client::ListOptions&) override {
    return cache::ListPage{.items = items_, .resource_version = "1", .continue_token = ""};
  }
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions&) override {
    return std::unique_ptr<client::WatchStream>(std::make_unique<Stream>(channel_));
  }
  void push(const Obj& o) {
    {
      const std::lock_guard lock(channel_->mu);
      channel_->events.push_back({client::WatchEventType::kAdded, fixtures::to_json(o)});
    }
    channel_->cv.notify_all();
  }

 private:
  struct Channel {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<client::WatchEvent> events;
  };
  class Stream final : public client::WatchStream {
   public:
    explicit Stream(std::shared_ptr<Channel> channel) : channel_(std::move(channel)) {}
    Result<std::optional<client::WatchEvent>, api::Status> next() override {
      std::unique_lock lock(channel_->mu);
      channel_->cv.wait(lock, [&] { return stopped_ || !channel_->events.empty(); });
      if (stopped_) return std::optional<client::WatchEvent>();
      client::WatchEvent e = std::move(channel_->events.front());
      channel_->events.pop_front();
      return std::optional<client::WatchEvent>(std::move(e));
    }
    void stop() override {
      {
        const std::lock_guard lock(channel_->mu);
        stopped_ = true;
      }
      channel_->cv.notify_all();
    }

   private:
    std::shared_ptr<Channel> channel_;
    bool stopped_ = false;
  };

  const std::vector<api::json::value> items_;
  const std::shared_ptr<Channel> channel_ = std::make_shared<Channel>();
};

// The lister-watchers a factory made, by resource.
struct Servers {
  std::map<std::string, std::vector<api::json::value>> items;
  std::map<std::string, std::shared_ptr<ScriptedListerWatcher>> made;
  std::mutex mu;

  cache::ListerWatcherFactory factory() {
    return [this](const api::GroupVersionResource& gvr, const std::string&) {
      const std::lock_guard lock(mu);
      auto lw = std::make_shared<ScriptedListerWatcher>(items[gvr.resource]);
      made[gvr.resource] = lw;
      return std::shared_ptr<cache::ListerWatcher>(lw);
    };
  }
  std::shared_ptr<ScriptedListerWatcher> of(const std::string& resource) {
    const std::lock_guard lock(mu);
    return made.contains(resource) ? made[resource] : nullptr;
  }
};

class NoApi final : public GcApi {
 public:
  Result<api::json::value, api::Status> get(const ResourceMapping& r, const std::string&,
                                            const std::string& name) override {
    return fail(api::not_found(r.resource.group_resource(), name));
  }
  Result<api::json::value, api::Status> patch(const ResourceMapping& r, const std::string&,
                                              const std::string& name, client::PatchType,
                                              std::string_view) override {
    return fail(api::not_found(r.resource.group_resource(), name));
  }
  Result<void, api::Status> delete_object(const ResourceMapping& r, const std::string&,
                                          const std::string& name,
                                          const client::DeleteOptions&) override {
    return fail(api::not_found(r.resource.group_resource(), name));
  }
};

client::ApiResource deletable(std::string group, std::string name, std::string kind) {
  return {{std::move(group), "v1"},
          std::move(name),
          std::move(kind),
          true,
          {"delete", "get", "list", "patch", "watch"}};
}

cache::SharedInformerFactoryOptions quiet() {
  cache::SharedInformerFactoryOptions o;
  o.informer.reflector.backoff.initial = 1ms;
  o.informer.reflector.backoff.cap = 5ms;
  o.informer.reflector.watch_error_handler = [](const api::Status&) {};
  return o;
}

const api::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
const api::GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases"};
const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

TEST(GarbageCollectorMonitorsTest, SharedInformersWhenAskedForElseMetadataOnesAndRediscovery) {
  Servers full_servers;
  Servers metadata_servers;
  full_servers.items["configmaps"] = {fixtures::to_json(Obj{.name = "cm", .uid = "c1"})};
  metadata_servers.items["configmaps"] = {fixtures::to_json(Obj{.name = "cm", .uid = "c1"})};
  metadata_servers.items["leases"] = {fixtures::to_json(Obj{
      .api_version = "meta.k8s.io/v1", .kind = "PartialObjectMetadata", .name = "l", .uid = "l1"})};
  metadata_servers.items["widgets"] = {fixtures::to_json(Obj{
      .api_version = "meta.k8s.io/v1", .kind = "PartialObjectMetadata", .name = "w", .uid = "w1"})};
  cache::SharedInformerFactory full(full_servers.factory(), quiet());
  cache::SharedInformerFactory metadata(metadata_servers.factory(), quiet());

  std::atomic<bool> rediscovered = false;
  GarbageCollectorOptions options;
  options.api = std::make_shared<NoApi>();
  options.discovery_period = 20ms;
  options.metadata_informers = &metadata;
  options.discover = [&]() -> Result<client::PreferredResources, api::Status> {
    if (rediscovered) {
      return client::PreferredResources{
          .resources = {deletable("", "configmaps", "ConfigMap"),
                        deletable("example.com", "widgets", "Widget")}};
    }
    return client::PreferredResources{
        .resources = {deletable("", "configmaps", "ConfigMap"),
                      deletable("coordination.k8s.io", "leases", "Lease")}};
  };
  GarbageCollector gc(nullptr, &full, nullptr, options);
  // The constructor made no monitors: a controller built after the GC still
  // shares its informer with it.
  EXPECT_EQ(metadata.find_informer(kConfigMaps), nullptr);
  EXPECT_EQ(metadata.find_informer(kLeases), nullptr);
  const auto configmaps = full.informer_for(kConfigMaps);

  std::stop_source stop;
  std::thread runner([&] { gc.run(1, stop.get_token()); });
  ASSERT_TRUE(
      eventually([&] { return gc.graph_builder().node("c1") && gc.graph_builder().node("l1"); }));
  EXPECT_TRUE(eventually([&] { return gc.is_synced(); }));
  EXPECT_EQ(metadata.find_informer(kConfigMaps), nullptr);
  EXPECT_EQ(metadata_servers.of("configmaps"), nullptr);
  EXPECT_EQ(full.find_informer(kLeases), nullptr);
  const auto leases = metadata.find_informer(kLeases);
  ASSERT_NE(leases, nullptr);
  // The GC started the informers it watches.
  EXPECT_TRUE(leases->has_started());
  EXPECT_TRUE(configmaps->has_started());
  EXPECT_EQ(gc.graph_builder().node("l1")->identity.kind, "Lease");
  EXPECT_EQ(gc.graph_builder().node("l1")->identity.api_version, "coordination.k8s.io/v1");

  // Re-discovery: widgets (a new CRD) get a metadata monitor, leases lose theirs.
  rediscovered = true;
  ASSERT_TRUE(eventually([&] { return gc.graph_builder().node("w1").has_value(); }));
  EXPECT_EQ(gc.graph_builder().node("w1")->identity.kind, "Widget");
  ASSERT_NE(metadata.find_informer(kWidgets), nullptr);
  EXPECT_TRUE(metadata.find_informer(kWidgets)->has_started());
  EXPECT_EQ(full.find_informer(kWidgets), nullptr);
  // A lease event no longer reaches the graph; a configmap event still does.
  metadata_servers.of("leases")->push(Obj{.name = "l2", .uid = "l2", .resource_version = "2"});
  full_servers.of("configmaps")->push(Obj{.name = "cm2", .uid = "c2", .resource_version = "2"});
  ASSERT_TRUE(eventually([&] { return gc.graph_builder().node("c2").has_value(); }));
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(gc.graph_builder().node("l2").has_value());

  stop.request_stop();
  runner.join();
}

// Upstream's IsSynced is false while there are no monitors: when the first
// discovery fails, the workers wait, and discovery is retried every period
// until it succeeds.
TEST(GarbageCollectorMonitorsTest, NotSyncedUntilAFailedFirstDiscoverySucceeds) {
  Servers servers;
  servers.items["configmaps"] = {fixtures::to_json(Obj{.name = "cm", .uid = "c1"})};
  cache::SharedInformerFactory full(servers.factory(), quiet());
  cache::SharedInformerFactory metadata(servers.factory(), quiet());
  std::atomic<bool> down = true;
  std::atomic<int> discoveries = 0;
  GarbageCollectorOptions options;
  options.api = std::make_shared<NoApi>();
  options.discovery_period = 20ms;
  options.metadata_informers = &metadata;
  options.discover = [&]() -> Result<client::PreferredResources, api::Status> {
    ++discoveries;
    if (down) return fail(api::service_unavailable("discovery down"));
    return client::PreferredResources{.resources = {deletable("", "configmaps", "ConfigMap")}};
  };
  GarbageCollector gc(nullptr, &full, nullptr, options);
  std::stop_source stop;
  std::thread runner([&] { gc.run(1, stop.get_token()); });

  ASSERT_TRUE(eventually([&] { return discoveries >= 3; }));  // retried while down
  EXPECT_FALSE(gc.is_synced());
  EXPECT_FALSE(gc.graph_builder().node("c1").has_value());

  down = false;
  ASSERT_TRUE(eventually([&] { return gc.is_synced(); }));
  // The graph builder processes what the monitors hand it on its own thread.
  EXPECT_TRUE(eventually([&] { return gc.graph_builder().node("c1").has_value(); }));
  EXPECT_TRUE(gc.rest_mapper().mapping("v1", "ConfigMap").ok());

  stop.request_stop();
  runner.join();
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
