// SharedInformerFactory: one shared informer per GroupVersionResource, started
// together and waited on together (client-go informers/factory.go). It knows
// nothing of the REST client: a function makes the ListerWatcher of a resource.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "api/group_version.h"
#include "cache/lister.h"
#include "cache/lister_watcher.h"
#include "cache/shared_informer.h"

namespace kcm::cache {

// Makes the ListerWatcher of `gvr` in `namespace_` ("" for all namespaces).
using ListerWatcherFactory = std::function<std::shared_ptr<ListerWatcher>(
    const api::GroupVersionResource& gvr, const std::string& namespace_)>;

struct SharedInformerFactoryOptions {
  std::chrono::milliseconds default_resync{0};
  std::map<std::tuple<std::string, std::string, std::string>, std::chrono::milliseconds>
      custom_resync;       // by (group, version, resource)
  std::string namespace_;  // "" for all
  // Applied to every list and watch request (upstream WithTweakListOptions).
  std::function<void(client::ListOptions&)> tweak_list_options;
  TransformFunc transform;  // e.g. drop_managed_fields
  // Template for every informer (indexers get the namespace index added).
  SharedInformerOptions informer;
};

class SharedInformerFactory {
 public:
  SharedInformerFactory(ListerWatcherFactory make_lister_watcher,
                        SharedInformerFactoryOptions options = {});
  // Shuts down (stops and waits for) every informer.
  ~SharedInformerFactory();
  SharedInformerFactory(const SharedInformerFactory&) = delete;
  SharedInformerFactory& operator=(const SharedInformerFactory&) = delete;

  // The informer of `gvr`, created on first use (with the namespace index).
  std::shared_ptr<SharedIndexInformer> informer_for(const api::GroupVersionResource& gvr);
  // The informer of `gvr` if someone asked for it already, else null (never creates one).
  std::shared_ptr<SharedIndexInformer> find_informer(const api::GroupVersionResource& gvr);
  Lister lister_for(const api::GroupVersionResource& gvr);

  // Runs every informer not yet started, each on its own thread, until `stop`
  // or shutdown(). Call again for informers requested later.
  void start(std::stop_token stop);
  // Waits for the started informers' initial lists; per resource whether it synced.
  std::map<std::tuple<std::string, std::string, std::string>, bool> wait_for_cache_sync(
      std::stop_token stop);
  // Stops every informer and waits for their threads; start() does nothing afterwards.
  void shutdown();

 private:
  using Key = std::tuple<std::string, std::string, std::string>;
  static Key key_of(const api::GroupVersionResource& gvr) {
    return {gvr.group, gvr.version, gvr.resource};
  }

  const ListerWatcherFactory make_lister_watcher_;
  const SharedInformerFactoryOptions options_;

  std::mutex mu_;
  std::map<Key, std::shared_ptr<SharedIndexInformer>> informers_;
  std::map<Key, bool> started_;
  std::vector<std::jthread> threads_;
  std::vector<std::unique_ptr<std::stop_callback<std::function<void()>>>> forwards_;
  std::stop_source stop_all_;
  bool shutting_down_ = false;
};

}  // namespace kcm::cache
