// namespace-pod-counter: keeps the label example.kcm.dev/pods on every
// Namespace equal to the number of pods in that namespace.
//
// A complete controller on kcm's client framework, written to be copied:
// config -> clientset -> informers and listers -> rate-limited workqueue ->
// workers that read listers and write through the client -> events ->
// optional leader election. docs/writing-a-controller.md walks through it.
//
//   namespace-pod-counter --kubeconfig ~/.kcm-local/kubeconfig
//   kubectl get namespaces --show-labels
#include <CLI/CLI.hpp>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "api/json.h"
#include "api/labels.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "cache/wait.h"
#include "client/build_config.h"
#include "client/clientset.h"
#include "leaderelection/identity.h"
#include "leaderelection/leader_elector.h"
#include "leaderelection/lease_lock.h"
#include "leaderelection/lease_store_client.h"
#include "log/log.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"
#include "signals/shutdown_signals.h"
#include "workqueue/rate_limiters.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::example {
namespace {

constexpr std::string_view kName = "namespace-pod-counter";
constexpr std::string_view kLabel = "example.kcm.dev/pods";
const api::GroupVersionResource kPods{"", "v1", "pods"};
const api::GroupVersionResource kNamespaces{"", "v1", "namespaces"};

class NamespacePodCounter {
 public:
  NamespacePodCounter(std::shared_ptr<client::Clientset> clients,
                      cache::SharedInformerFactory& informers,
                      std::shared_ptr<record::EventRecorder> recorder)
      : clients_(std::move(clients)),
        recorder_(std::move(recorder)),
        pods_(informers.lister_for(kPods)),
        namespaces_(informers.lister_for(kNamespaces)),
        queue_(workqueue::default_controller_rate_limiter<std::string>(),
               {.name = std::string(kName)}) {
    // Handlers only compute keys: they run on the informer's threads, and the
    // queue deduplicates and retries. A pod's namespace never changes, so only
    // adds and deletes can change a count.
    auto pod_handler = std::make_shared<cache::EventHandlerFuncs>();
    pod_handler->add = [this](const cache::ObjectPtr& pod, bool) {
      queue_.add(std::string(pod->namespace_()));
    };
    pod_handler->remove = [this](const cache::DeletedObject& pod) {
      // key_of works for tombstones too: "namespace/name".
      auto key = cache::split_key(cache::key_of(pod));
      if (key.ok()) queue_.add(key->first);
    };
    auto ns_handler = std::make_shared<cache::EventHandlerFuncs>();
    ns_handler->add = [this](const cache::ObjectPtr& ns, bool) {
      queue_.add(std::string(ns->name()));
    };
    // Someone edited our label: put it back.
    ns_handler->update = [this](const cache::ObjectPtr& old_ns, const cache::ObjectPtr& ns) {
      if (old_ns->label_value(kLabel) != ns->label_value(kLabel))
        queue_.add(std::string(ns->name()));
    };
    synced_.push_back(register_handler(informers.informer_for(kPods), pod_handler));
    synced_.push_back(register_handler(informers.informer_for(kNamespaces), ns_handler));
  }

  // Starts the informers, waits for their caches, runs `workers` workers until
  // `stop`, then lets the workers finish the keys they hold.
  void run(cache::SharedInformerFactory& informers, int workers, std::stop_token stop) {
    informers.start(stop);
    std::vector<std::jthread> threads;
    if (cache::wait_for_named_cache_sync(kName, stop, synced_)) {
      log::info("Starting workers", {{"controller", kName}, {"count", workers}});
      for (int i = 0; i < workers; ++i)
        threads.emplace_back([this] {
          while (process_next_item()) {
          }
        });
      std::mutex mu;
      std::condition_variable_any cv;
      std::unique_lock lock(mu);
      cv.wait(lock, stop, [] { return false; });  // until stop is requested
    }
    log::info("Shutting down workers", {{"controller", kName}});
    // Informers first: their handler threads add to the queue and use `this`.
    informers.shutdown();
    // Workers finish the keys they hold, then get() ends them; `threads` joins.
    queue_.shut_down_with_drain();
  }

 private:
  static cache::InformerSynced register_handler(
      const std::shared_ptr<cache::SharedIndexInformer>& informer,
      std::shared_ptr<cache::ResourceEventHandler> handler) {
    auto registration = informer->add_event_handler(std::move(handler));
    if (!registration.ok()) return [] { return false; };  // only after the informer stopped
    return [r = *registration] { return r->has_synced(); };
  }

  // One key from the queue: sync it, then forget it (success) or retry it
  // with per-key exponential back-off (failure). false once the queue shut down.
  bool process_next_item() {
    const std::optional<std::string> key = queue_.get();
    if (!key) return false;
    auto synced = sync(*key);
    if (synced.ok()) {
      queue_.forget(*key);
    } else {
      log::error("Error syncing namespace, requeuing", {{"namespace", *key},
                                                        {"err", synced.error().message},
                                                        {"requeues", queue_.num_requeues(*key)}});
      queue_.add_rate_limited(*key);
    }
    queue_.done(*key);
    return true;
  }

  // Reads only the caches; writes only when the label is wrong.
  Result<void, api::Status> sync(const std::string& name) {
    auto ns = namespaces_.get(name);
    if (!ns.ok()) {
      if (ns.error().is(api::reason::kNotFound)) return {};  // deleted: nothing to keep
      return fail(ns.error());
    }
    if ((*ns)->deletion_timestamp()) return {};  // terminating: its pods are going away

    const std::size_t count =
        pods_.namespace_(name).list(api::labels::Selector::everything()).size();
    const std::string want = std::to_string(count);
    const std::optional<std::string_view> have = (*ns)->label_value(kLabel);
    if (have == want) return {};

    boost::json::object patch;
    patch["metadata"].emplace_object()["labels"].emplace_object()[kLabel] = want;
    auto patched = clients_->namespaces().patch(name, client::PatchType::kMerge,
                                                boost::json::serialize(patch));
    if (!patched.ok()) {
      if (patched.error().is(api::reason::kNotFound)) return {};  // deleted meanwhile
      return fail(std::move(patched).error());
    }
    log::info("Updated pod count", {{"namespace", name}, {"pods", count}});
    const record::ObjectReference ref{
        .kind = "Namespace", .name = name, .uid = std::string((*ns)->uid()), .api_version = "v1"};
    recorder_->eventf(ref, record::kEventTypeNormal, "PodsCounted", "Set label {}={} (was {})",
                      kLabel, want, have ? std::string(*have) : "unset");
    return {};
  }

  const std::shared_ptr<client::Clientset> clients_;
  const std::shared_ptr<record::EventRecorder> recorder_;
  const cache::Lister pods_;
  const cache::Lister namespaces_;
  workqueue::RateLimitingQueue<std::string> queue_;
  std::vector<cache::InformerSynced> synced_;
};

int run(int argc, char** argv) {
  std::string kubeconfig;
  std::string master;
  bool leader_elect = false;
  int workers = 2;
  int verbosity = 0;
  CLI::App app{
      "Keeps the label example.kcm.dev/pods on every Namespace equal to its number of pods."};
  app.add_option("--kubeconfig", kubeconfig, "Path to a kubeconfig file");
  app.add_option("--master", master, "The address of the API server (overrides the kubeconfig)");
  app.add_flag("--leader-elect", leader_elect,
               "Run only while holding the Lease kube-system/namespace-pod-counter");
  app.add_option("--workers", workers, "Namespaces synced concurrently")->check(CLI::Range(1, 64));
  app.add_option("-v,--v", verbosity, "Log verbosity (klog's -v)")->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  log::set_verbosity(verbosity);

  // Before any other thread starts: SIGINT/SIGTERM become a stop token.
  const signals::ShutdownSignals signals;

  // 1. Config and clientset.
  auto config = client::build_config_from_flags(master, kubeconfig);
  if (!config.ok()) {
    log::error("Cannot build client config", {{"err", config.error()}});
    return 1;
  }
  config->user_agent = client::default_user_agent(kName);
  auto clients = client::Clientset::create(*config);
  if (!clients.ok()) {
    log::error("Cannot create clientset", {{"err", clients.error()}});
    return 1;
  }

  // 2. Events: recorded through the API server as core/v1 Events.
  record::EventBroadcaster broadcaster;
  broadcaster.start_recording_to_sink(
      std::make_shared<record::ClientEventSink>((*clients)->rest()));
  const auto recorder = broadcaster.new_recorder({.component = std::string(kName)});

  // 3. Informers: one list+watch per resource, shared by every handler.
  cache::SharedInformerFactoryOptions informer_options;
  informer_options.transform = cache::drop_managed_fields;  // nobody reads them: save the memory
  cache::SharedInformerFactory informers(
      [cs = *clients](const api::GroupVersionResource& gvr, const std::string& ns) {
        return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
      },
      informer_options);
  NamespacePodCounter controller(*clients, informers, recorder);

  if (!leader_elect) {
    controller.run(informers, workers, signals.token());
    return 0;
  }

  // 4. Leader election: only the holder of the Lease runs the controller.
  auto identity = leaderelection::new_identity();
  if (!identity.ok()) {
    log::error("Cannot build leader election identity", {{"err", identity.error()}});
    return 1;
  }
  leaderelection::LeaderElectionConfig election;
  election.name = std::string(kName);
  election.lock = std::make_shared<leaderelection::LeaseLock>(
      std::make_shared<leaderelection::ClientLeaseStore>((*clients)->rest()),
      leaderelection::LeaseLockConfig{.namespace_ = "kube-system",
                                      .name = std::string(kName),
                                      .identity = *identity,
                                      .event_recorder = recorder});
  election.release_on_cancel = true;  // safe: run() returns only after the workers stopped
  election.callbacks.on_started_leading = [&](std::stop_token leading) {
    controller.run(informers, workers, leading);
  };
  election.callbacks.on_stopped_leading = [] { log::info("Stopped leading"); };
  leaderelection::LeaderElector::run_or_die(signals.token(), election);
  if (signals.requested()) return 0;
  log::error("Leader election lost");
  return 1;
}

}  // namespace
}  // namespace kcm::example

int main(int argc, char** argv) {
  return kcm::example::run(argc, argv);
}
