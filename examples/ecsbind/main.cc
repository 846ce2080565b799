// ecsbind-controller: a controller-manager of its own for a resource of its
// own. It keeps a Node for every EcsBind (examples/ecsbind/crd.yaml), and
// adds around that controller what every controller-manager has: flags,
// events, one shared informer factory, leader election, and an HTTPS
// endpoint with /healthz and /metrics. docs/your-own-controller.md walks
// through it.
//
//   kubectl apply -f examples/ecsbind/crd.yaml
//   ecsbind-controller --kubeconfig ~/.kcm-local/kubeconfig --secure-port 10270
//   kubectl get ecsbinds; kubectl get nodes -L ecsbind.kcm.dev/instance-id
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/duration.h"
#include "app/build_info.h"
#include "app/healthz.h"
#include "app/leader_metrics.h"
#include "app/rest_client_metrics.h"
#include "app/secure_server.h"
#include "app/serving_certificate.h"
#include "cache/informer_factory.h"
#include "client/build_config.h"
#include "client/clientset.h"
#include "ecsbind/controller.h"
#include "leaderelection/healthz_adaptor.h"
#include "leaderelection/identity.h"
#include "leaderelection/leader_elector.h"
#include "leaderelection/lease_lock.h"
#include "leaderelection/lease_store_client.h"
#include "log/log.h"
#include "metrics/counter.h"
#include "metrics/registry.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"
#include "signals/shutdown_signals.h"
#include "workqueue/metrics_provider.h"
#include "workqueue/prometheus_metrics.h"

namespace {

using kcm::ecsbind::EcsBindController;

constexpr const char* kName = "ecsbind-controller";  // user agent, event source, Lease name

struct Flags {
  std::string kubeconfig;
  std::string master;
  int workers = 2;
  bool leader_elect = false;
  std::string lease_duration = "15s";
  std::string renew_deadline = "10s";
  std::string retry_period = "2s";
  std::string bind_address = "0.0.0.0";
  std::int32_t secure_port = 10270;
  std::string cert_dir;
  int verbosity = 0;
};

// leaderelection::LeaderMetrics over the leader_election_master_status family.
class LeaderMetricsAdapter final : public kcm::leaderelection::LeaderMetrics {
 public:
  explicit LeaderMetricsAdapter(std::shared_ptr<kcm::app::LeaderElectionMetrics> m)
      : m_(std::move(m)) {}
  void leader_on(std::string_view name) override { m_->leader_on(name); }
  void leader_off(std::string_view name) override { m_->leader_off(name); }
  void slowpath_exercised(std::string_view name) override { m_->slowpath_exercised(name); }

 private:
  std::shared_ptr<kcm::app::LeaderElectionMetrics> m_;
};

int fatal(const std::string& what, const std::string& err) {
  kcm::log::error(what, {{"err", err}});
  return 1;
}

// The controller's whole life: informers up, caches synced (inside run),
// workers until `stop`, then the informers down.
void run_controller(kcm::cache::SharedInformerFactory& informers, EcsBindController& controller,
                    int workers, std::stop_token stop) {
  informers.start(stop);
  controller.run(workers, stop);
  informers.shutdown();
}

int run(int argc, char** argv) {
  Flags flags;
  CLI::App app{"Keeps a Node for every EcsBind (ecsbind.kcm.dev/v1)."};
  app.option_defaults()->always_capture_default();  // --help shows them
  app.add_option("--kubeconfig", flags.kubeconfig, "Path to a kubeconfig file");
  app.add_option("--master", flags.master,
                 "The address of the API server (overrides the kubeconfig)");
  app.add_option("--workers", flags.workers, "EcsBinds reconciled at once")
      ->check(CLI::PositiveNumber);
  app.add_flag("--leader-elect", flags.leader_elect,
               "Run only while holding the Lease kube-system/ecsbind-controller");
  app.add_option("--leader-elect-lease-duration", flags.lease_duration,
                 "How long non-leaders wait after the last renewal before taking over");
  app.add_option("--leader-elect-renew-deadline", flags.renew_deadline,
                 "How long the leader retries renewing before it gives up leading");
  app.add_option("--leader-elect-retry-period", flags.retry_period,
                 "How long to wait between tries to acquire or renew the Lease");
  app.add_option("--bind-address", flags.bind_address, "The address to serve HTTPS on");
  app.add_option("--secure-port", flags.secure_port,
                 "The port to serve /healthz and /metrics on over HTTPS; 0 disables")
      ->check(CLI::Range(0, 65535));
  app.add_option("--cert-dir", flags.cert_dir,
                 "Where the serving certificate is kept (generated in memory when unset)");
  app.add_option("-v,--v", flags.verbosity, "Log verbosity (klog's -v)");
  CLI11_PARSE(app, argc, argv);
  kcm::log::set_verbosity(flags.verbosity);

  std::chrono::nanoseconds lease_duration{}, renew_deadline{}, retry_period{};
  for (auto [text, out] : {std::pair{&flags.lease_duration, &lease_duration},
                           std::pair{&flags.renew_deadline, &renew_deadline},
                           std::pair{&flags.retry_period, &retry_period}}) {
    auto d = kcm::api::parse_duration(*text);
    if (!d.ok()) return fatal("Invalid leader election duration", d.error());
    *out = *d;
  }

  // 0. SIGINT/SIGTERM become a stop token. First, before any thread starts:
  //    every later thread inherits the blocked signals.
  const kcm::signals::ShutdownSignals signals;

  // 1. Metrics: one registry that /metrics serves. The workqueue and REST
  //    client report into it once their providers are installed (before any
  //    queue or client exists); the controller adds a counter of its own.
  const auto registry = std::make_shared<kcm::metrics::Registry>();
  auto workqueue_metrics = kcm::workqueue::PrometheusMetricsProvider::create(*registry);
  if (!workqueue_metrics.ok()) return fatal("Cannot register metrics", workqueue_metrics.error());
  kcm::workqueue::set_metrics_provider(*workqueue_metrics);
  if (auto ok = kcm::app::register_rest_client_metrics(*registry); !ok.ok())
    kcm::log::error("Cannot register the REST client metrics", {{"err", ok.error()}});
  if (auto ok = kcm::app::register_build_info(*registry); !ok.ok())
    return fatal("Cannot register metrics", ok.error());
  auto leader_metrics = kcm::app::LeaderElectionMetrics::create(*registry);
  if (!leader_metrics.ok()) return fatal("Cannot register metrics", leader_metrics.error());
  auto reconciles =
      kcm::metrics::CounterVec::create({.ns = "ecsbind",
                                        .subsystem = "",
                                        .name = "reconciles_total",
                                        .help = "EcsBind reconciles by result",
                                        .stability = kcm::metrics::StabilityLevel::kAlpha},
                                       {"result"});
  if (!reconciles.ok()) return fatal("Cannot register metrics", reconciles.error());
  if (auto ok = registry->register_collector(*reconciles); !ok.ok())
    return fatal("Cannot register metrics", ok.error());

  // 2. Config and clientset: --master/--kubeconfig, else in-cluster; one
  //    connection pool and QPS limiter for every request.
  auto config = kcm::client::build_config_from_flags(flags.master, flags.kubeconfig);
  if (!config.ok()) return fatal("Cannot build client config", config.error());
  config->user_agent = kcm::client::default_user_agent(kName);
  auto clients = kcm::client::Clientset::create(*config);
  if (!clients.ok()) return fatal("Cannot create clientset", clients.error());

  // 3. Events: recorders queue them; the broadcaster writes them as core/v1
  //    Events (correlated, rate limited, retried) on its own thread.
  kcm::record::EventBroadcaster broadcaster;
  const auto sink = broadcaster.start_recording_to_sink(
      std::make_shared<kcm::record::ClientEventSink>((*clients)->rest()));
  const auto recorder = broadcaster.new_recorder({.component = kName});

  // 4. Health and metrics over HTTPS. The leaderElection check fails when we
  //    hold the Lease but stopped renewing it (a stuck process).
  std::vector<kcm::app::NamedHealthCheck> checks;
  std::shared_ptr<kcm::leaderelection::HealthzAdaptor> leader_health;
  if (flags.leader_elect) {
    leader_health = std::make_shared<kcm::leaderelection::HealthzAdaptor>(std::chrono::seconds(20));
    checks.push_back({std::string(kcm::leaderelection::HealthzAdaptor::name()),
                      [a = leader_health] { return a->check(); }});
  }
  auto healthz = std::make_shared<kcm::app::HealthzHandler>(std::move(checks));
  std::unique_ptr<kcm::app::SecureServer> server;
  if (flags.secure_port != 0) {
    auto certificate = kcm::app::load_serving_certificate({.bind_address = flags.bind_address,
                                                           .cert_dir = flags.cert_dir,
                                                           .tls_cert_file = "",
                                                           .tls_private_key_file = "",
                                                           .pair_name = kName});
    if (!certificate.ok()) return fatal("Cannot load serving certificate", certificate.error());
    server = std::make_unique<kcm::app::SecureServer>(
        kcm::app::SecureServerOptions{.bind_address = flags.bind_address,
                                      .port = flags.secure_port},
        std::move(*certificate),
        kcm::app::SecureServerHandlers{.healthz = healthz, .registry = registry});
    if (auto ok = server->start(); !ok.ok()) return fatal("Cannot serve", ok.error());
    kcm::log::info("Serving securely",
                   {{"address", flags.bind_address}, {"port", static_cast<int>(server->port())}});
  }

  // 5. One shared informer factory: each resource is listed and watched once,
  //    however many controllers ask for it.
  kcm::cache::SharedInformerFactoryOptions informer_options;
  informer_options.transform = kcm::cache::drop_managed_fields;  // nobody reads them
  kcm::cache::SharedInformerFactory informers(
      [cs = *clients](const kcm::api::GroupVersionResource& gvr, const std::string& ns) {
        return std::make_shared<kcm::client::ResourceClient>(cs->resource(gvr, ns));
      },
      informer_options);

  // 6. The controller: it requests its informers and registers handlers;
  //    nothing runs yet.
  EcsBindController controller(*clients, informers, recorder, *reconciles);

  int code = 0;
  if (!flags.leader_elect) {
    run_controller(informers, controller, flags.workers, signals.token());
  } else {
    // 7. Leader election: of several copies only the holder of the Lease
    //    kube-system/ecsbind-controller runs the controller.
    auto identity = kcm::leaderelection::new_identity();
    if (!identity.ok()) return fatal("Cannot build leader election identity", identity.error());
    kcm::leaderelection::LeaderElectionConfig election;
    election.name = kName;
    election.lease_duration = lease_duration;
    election.renew_deadline = renew_deadline;
    election.retry_period = retry_period;
    election.lock = std::make_shared<kcm::leaderelection::LeaseLock>(
        std::make_shared<kcm::leaderelection::ClientLeaseStore>((*clients)->rest()),
        kcm::leaderelection::LeaseLockConfig{.namespace_ = "kube-system",
                                             .name = kName,
                                             .identity = *identity,
                                             .event_recorder = recorder});
    election.watch_dog = leader_health;
    election.metrics = std::make_shared<LeaderMetricsAdapter>(*leader_metrics);
    // Hand the Lease over at once on shutdown: safe because run_controller
    // returns only after the workers stopped.
    election.release_on_cancel = true;
    election.callbacks.on_started_leading = [&](std::stop_token leading) {
      run_controller(informers, controller, flags.workers, leading);
    };
    election.callbacks.on_stopped_leading = [] { kcm::log::info("Stopped leading"); };
    kcm::leaderelection::LeaderElector::run_or_die(signals.token(), election);
    // A lost Lease is not a clean exit: the caches and the queue are gone,
    // so exit and let a restart start over.
    if (!signals.requested()) {
      kcm::log::error("Leader election lost");
      code = 1;
    }
  }

  // 8. Shutdown: the controller has drained; stop serving last, so /healthz
  //    answers until the end.
  if (server) server->stop();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
