// pod-counter: your own controller-manager, assembled from kcm's framework.
//
// kcm runs many controllers in one process; this program runs one, the pod
// counter (src/controllers/podcounter), with everything a controller-manager
// adds around it. Each numbered step below is a piece kcm has too; replace
// the controller with yours, or construct several against the same informer
// factory, and you have a controller-manager of your own.
//
// The pod counter keeps the number of pods in the cluster in the label
// kcm.dev/pod-count on every control-plane node, and records a PodCounted
// event on each pod the first time it counts it.
//
//   pod-counter --kubeconfig ~/.kcm-local/kubeconfig
//   kubectl get nodes -L kcm.dev/pod-count
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "cache/informer_factory.h"
#include "cache/shared_informer.h"
#include "client/build_config.h"
#include "client/clientset.h"
#include "controllers/podcounter/pod_counter_controller.h"
#include "leaderelection/identity.h"
#include "leaderelection/leader_elector.h"
#include "leaderelection/lease_lock.h"
#include "leaderelection/lease_store_client.h"
#include "log/log.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"
#include "signals/shutdown_signals.h"

namespace {

using kcm::controllers::podcounter::PodCounterController;

constexpr const char* kName = "pod-counter";  // user agent, event source, Lease name

// The controller's whole life: informers up, caches synced (inside run),
// workers until `stop`, then the informers down. The controller owns nothing
// it did not create: the factory is shared, so whoever owns it starts and
// stops it (kcm does the same for all of its controllers at once).
void run_controller(kcm::cache::SharedInformerFactory& informers, PodCounterController& controller,
                    std::stop_token stop) {
  informers.start(stop);
  controller.run(/*workers=*/1, stop);  // one queue key: more workers would only wait
  informers.shutdown();
}

int run(int argc, char** argv) {
  std::string kubeconfig;
  std::string master;
  bool leader_elect = false;
  int verbosity = 0;
  CLI::App app{"Keeps the number of pods in the label kcm.dev/pod-count of control-plane nodes."};
  app.add_option("--kubeconfig", kubeconfig, "Path to a kubeconfig file");
  app.add_option("--master", master, "The address of the API server (overrides the kubeconfig)");
  app.add_flag("--leader-elect", leader_elect,
               "Run only while holding the Lease kube-system/pod-counter");
  app.add_option("-v,--v", verbosity, "Log verbosity (klog's -v)");
  CLI11_PARSE(app, argc, argv);
  kcm::log::set_verbosity(verbosity);

  // 0. SIGINT/SIGTERM become a stop token. First, before any thread starts:
  //    every later thread inherits the blocked signals.
  const kcm::signals::ShutdownSignals signals;

  // 1. Config: --master/--kubeconfig, else in-cluster (clientcmd's rules).
  auto config = kcm::client::build_config_from_flags(master, kubeconfig);
  if (!config.ok()) {
    kcm::log::error("Cannot build client config", {{"err", config.error()}});
    return 1;
  }
  config->user_agent = kcm::client::default_user_agent(kName);

  // 2. Clientset: one connection pool and QPS limiter for every request.
  auto clients = kcm::client::Clientset::create(*config);
  if (!clients.ok()) {
    kcm::log::error("Cannot create clientset", {{"err", clients.error()}});
    return 1;
  }

  // 3. Events: recorders queue them; the broadcaster writes them as core/v1
  //    Events (correlated, rate limited, retried) on its own thread.
  kcm::record::EventBroadcaster broadcaster;
  broadcaster.start_recording_to_sink(
      std::make_shared<kcm::record::ClientEventSink>((*clients)->rest()));
  const auto recorder = broadcaster.new_recorder({.component = kName});

  // 4. One shared informer factory: each resource is listed and watched once,
  //    however many controllers ask for it.
  kcm::cache::SharedInformerFactoryOptions informer_options;
  informer_options.transform = kcm::cache::drop_managed_fields;  // nobody reads them
  kcm::cache::SharedInformerFactory informers(
      [cs = *clients](const kcm::api::GroupVersionResource& gvr, const std::string& ns) {
        return std::make_shared<kcm::client::ResourceClient>(cs->resource(gvr, ns));
      },
      informer_options);

  // 5. The controllers: they request informers and register handlers; nothing
  //    runs yet.
  PodCounterController controller(*clients, informers, recorder);

  if (!leader_elect) {
    run_controller(informers, controller, signals.token());
    return 0;
  }

  // 6. Leader election (optional): of several copies only the holder of the
  //    Lease kube-system/pod-counter runs the controller; the others wait.
  auto identity = kcm::leaderelection::new_identity();
  if (!identity.ok()) {
    kcm::log::error("Cannot build leader election identity", {{"err", identity.error()}});
    return 1;
  }
  kcm::leaderelection::LeaderElectionConfig election;
  election.name = kName;
  election.lock = std::make_shared<kcm::leaderelection::LeaseLock>(
      std::make_shared<kcm::leaderelection::ClientLeaseStore>((*clients)->rest()),
      kcm::leaderelection::LeaseLockConfig{.namespace_ = "kube-system",
                                           .name = kName,
                                           .identity = *identity,
                                           .event_recorder = recorder});
  // Hand the Lease over at once on shutdown: safe because run_controller
  // returns only after the workers stopped.
  election.release_on_cancel = true;
  election.callbacks.on_started_leading = [&](std::stop_token leading) {
    run_controller(informers, controller, leading);
  };
  election.callbacks.on_stopped_leading = [] { kcm::log::info("Stopped leading"); };
  kcm::leaderelection::LeaderElector::run_or_die(signals.token(), election);

  // 7. Shutdown: a signal is a clean exit; a lost Lease is not (the caches and
  //    the queue are gone, so exit and let a restart start over).
  if (signals.requested()) return 0;
  kcm::log::error("Leader election lost");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
