#include "cache/informer_factory.h"

#include "cache/wait.h"
#include "log/thread_name.h"

namespace kcm::cache {

namespace {

// Applies the factory's tweak to every request of an informer.
class TweakedListerWatcher : public ListerWatcher {
 public:
  TweakedListerWatcher(std::shared_ptr<ListerWatcher> inner,
                       std::function<void(client::ListOptions&)> tweak)
      : inner_(std::move(inner)), tweak_(std::move(tweak)) {}
  Result<ListPage, api::Status> list(const client::ListOptions& options) override {
    client::ListOptions o = options;
    tweak_(o);
    return inner_->list(o);
  }
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions& options) override {
    client::ListOptions o = options;
    tweak_(o);
    return inner_->watch(o);
  }

 private:
  std::shared_ptr<ListerWatcher> inner_;
  std::function<void(client::ListOptions&)> tweak_;
};

}  // namespace

SharedInformerFactory::SharedInformerFactory(ListerWatcherFactory make_lister_watcher,
                                             SharedInformerFactoryOptions options)
    : make_lister_watcher_(std::move(make_lister_watcher)), options_(std::move(options)) {}

SharedInformerFactory::~SharedInformerFactory() {
  shutdown();
}

std::shared_ptr<SharedIndexInformer> SharedInformerFactory::informer_for(
    const api::GroupVersionResource& gvr) {
  std::lock_guard lock(mu_);
  const Key key = key_of(gvr);
  if (auto it = informers_.find(key); it != informers_.end()) return it->second;

  std::shared_ptr<ListerWatcher> lw = make_lister_watcher_(gvr, options_.namespace_);
  if (options_.tweak_list_options) {
    lw = std::make_shared<TweakedListerWatcher>(std::move(lw), options_.tweak_list_options);
  }
  SharedInformerOptions o = options_.informer;
  o.resync_period = options_.default_resync;
  if (auto it = options_.custom_resync.find(key); it != options_.custom_resync.end()) {
    o.resync_period = it->second;
  }
  if (o.indexers.count(std::string(kNamespaceIndex)) == 0) {
    o.indexers.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  }
  if (options_.transform) o.transform = options_.transform;
  if (o.reflector.name == ReflectorOptions{}.name) o.reflector.name = gvr.group_resource().string();
  if (o.reflector.type_description == ReflectorOptions{}.type_description) {
    o.reflector.type_description = gvr.group_resource().string();
  }
  auto informer = std::make_shared<SharedIndexInformer>(std::move(lw), std::move(o));
  informers_.emplace(key, informer);
  return informer;
}

std::shared_ptr<SharedIndexInformer> SharedInformerFactory::find_informer(
    const api::GroupVersionResource& gvr) {
  std::lock_guard lock(mu_);
  const auto it = informers_.find(key_of(gvr));
  return it == informers_.end() ? nullptr : it->second;
}

Lister SharedInformerFactory::lister_for(const api::GroupVersionResource& gvr) {
  return Lister(informer_for(gvr)->indexer(), gvr.group_resource());
}

void SharedInformerFactory::start(std::stop_token stop) {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  // The informers stop on the caller's stop or on shutdown().
  forwards_.push_back(std::make_unique<std::stop_callback<std::function<void()>>>(
      stop, std::function<void()>([this] { stop_all_.request_stop(); })));
  for (auto& [key, informer] : informers_) {
    if (started_[key]) continue;
    started_[key] = true;
    threads_.emplace_back([inf = informer, token = stop_all_.get_token()] {
      log::set_thread_name("informer");
      inf->run(token);
    });
  }
}

std::map<SharedInformerFactory::Key, bool> SharedInformerFactory::wait_for_cache_sync(
    std::stop_token stop) {
  std::map<Key, std::shared_ptr<SharedIndexInformer>> started;
  {
    std::lock_guard lock(mu_);
    for (auto& [key, informer] : informers_) {
      if (started_[key]) started.emplace(key, informer);
    }
  }
  std::map<Key, bool> out;
  for (auto& [key, informer] : started) {
    out[key] =
        ::kcm::cache::wait_for_cache_sync(stop, {[inf = informer] { return inf->has_synced(); }});
  }
  return out;
}

void SharedInformerFactory::shutdown() {
  std::vector<std::jthread> threads;
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true;
    stop_all_.request_stop();
    threads.swap(threads_);
  }
  for (auto& t : threads) {
    if (t.joinable()) t.join();
  }
  std::lock_guard lock(mu_);
  forwards_.clear();
}

}  // namespace kcm::cache
