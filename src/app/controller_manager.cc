#include "app/controller_manager.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

#include "app/build_info.h"
#include "app/configz.h"
#include "app/controller_context.h"
#include "app/controller_descriptor.h"
#include "app/controller_events.h"
#include "app/controller_manager_metrics.h"
#include "app/controller_runner.h"
#include "app/feature_metrics.h"
#include "app/healthcheck_slis.h"
#include "app/healthz.h"
#include "app/leader_metrics.h"
#include "app/options.h"
#include "app/rest_client_metrics.h"
#include "app/secure_server.h"
#include "app/serving_certificate.h"
#include "app/zpages.h"
#include "cache/informer_factory.h"
#include "client/build_config.h"
#include "client/clientset.h"
#include "client/rest_config.h"
#include "leaderelection/healthz_adaptor.h"
#include "leaderelection/identity.h"
#include "leaderelection/leader_elector.h"
#include "leaderelection/lease_lock.h"
#include "leaderelection/lease_store_client.h"
#include "log/log.h"
#include "metrics/registry.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"
#include "signals/shutdown_signals.h"
#include "workqueue/metrics_provider.h"
#include "workqueue/prometheus_metrics.h"

namespace kcm::app {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

constexpr std::string_view kComponent = "kube-controller-manager";
// HealthzAdaptor's tolerance past the lease's expiry (upstream 20s).
constexpr auto kLeaderElectionHealthTimeout = std::chrono::seconds(20);

// Exits at once, as upstream's klog.FlushAndExit: the controllers' threads are
// still running, so nothing may be destroyed.
[[noreturn]] void exit_now(int code) {
  std::_Exit(code);
}

// ResyncPeriod: MinResyncPeriod * [1, 2), so informers across controllers do
// not resync at the same moment.
milliseconds resync_period(nanoseconds min_resync) {
  std::mt19937_64 rng(std::random_device{}());
  const double factor = std::uniform_real_distribution<double>(1.0, 2.0)(rng);
  return std::chrono::duration_cast<milliseconds>(
      std::chrono::duration<double, std::nano>(static_cast<double>(min_resync.count()) * factor));
}

// Builds kcm and everything it serves, then runs it (Config then Run).
class ControllerManager {
 public:
  ControllerManager(Options options, std::map<std::string, std::string> flag_values)
      : options_(std::move(options)), flag_values_(std::move(flag_values)) {}

  int run(signals::ShutdownSignals& signals) {
    log::info("Starting", {{"version", kcm_version()}});
    if (auto ok = register_metrics(); !ok) return fatal(ok.error());
    if (auto ok = build_clients(); !ok) return fatal(ok.error());

    // kcm's own events (leader election): logged at -v=0, as upstream's
    // main broadcaster, and written through the main client. Controllers
    // have broadcasters of their own (ControllerEventBroadcasters).
    event_logging_ = broadcaster_.start_structured_logging(0);
    event_sink_ = broadcaster_.start_recording_to_sink(
        std::make_shared<record::ClientEventSink>(main_client_->rest()));

    std::vector<NamedHealthCheck> checks;
    if (options_.leader_election.leader_elect) {
      leader_health_ = std::make_shared<leaderelection::HealthzAdaptor>(
          nanoseconds(kLeaderElectionHealthTimeout));
      checks.push_back({std::string(leaderelection::HealthzAdaptor::name()),
                        [a = leader_health_] { return a->check(); }});
    }
    // Every check /healthz runs is counted for /metrics/slis.
    HealthCheckObserver observe_check;
    if (auto slis = HealthcheckSlis::create(); slis.ok()) {
      slis_ = std::move(*slis);
      observe_check = [sink = slis_](std::string_view check, std::string_view type, bool ok) {
        sink->observe(check, type, ok);
      };
    } else {
      log::error("Cannot create the SLI metrics", {{"err", slis.error()}});
    }
    healthz_ =
        std::make_shared<HealthzHandler>(std::move(checks), "/healthz", std::move(observe_check));
    if (auto ok = start_serving(); !ok) return fatal(ok.error());

    int code = 0;
    if (!options_.leader_election.leader_elect) {
      code = run_controllers_until(signals.token());
    } else {
      code = run_with_leader_election(signals);
    }
    shutdown();
    return code;
  }

 private:
  // Config(): the rest config from --master/--kubeconfig with kcm's client
  // settings, and the main clientset (user agent ".../kube-controller-manager").
  Result<void> build_clients() {
    auto config = client::build_config_from_flags(options_.master, options_.kubeconfig);
    if (!config.ok()) return fail(config.error());
    config->disable_compression = true;
    config->qps = options_.kube_api_qps;
    config->burst = options_.kube_api_burst;
    base_config_ = *config;
    auto main = client_for(kComponent);
    if (!main.ok()) return fail(main.error());
    main_client_ = *main;
    return {};
  }

  // ClientBuilder.Client(name): a copy of the config, its own limiter and
  // the user agent "<default>/<name>".
  Result<std::shared_ptr<client::Clientset>> client_for(std::string_view name,
                                                        milliseconds timeout = milliseconds(0),
                                                        ClientRateScale scale = {}) {
    client::RestConfig config = base_config_;
    client::add_user_agent(config, name);
    if (timeout.count() > 0) config.timeout = timeout;
    // A negative QPS (no limit) stays negative.
    config.qps = static_cast<float>(config.qps * scale.qps);
    config.burst = static_cast<int>(config.burst * scale.burst);
    client::ClientsetOptions clientset_options;
    clientset_options.rest.verbosity = [] { return log::verbosity(); };
    // Upstream silences API deprecation warnings (rest.NoWarnings).
    clientset_options.rest.warning_handler = [](const std::string&) {};
    return client::Clientset::create(config, clientset_options);
  }

  Result<void> register_metrics() {
    auto workqueue_metrics = workqueue::PrometheusMetricsProvider::create(*metrics_);
    if (!workqueue_metrics.ok()) return fail(workqueue_metrics.error());
    workqueue::set_metrics_provider(*workqueue_metrics);
    auto leader_metrics = LeaderElectionMetrics::create(*metrics_);
    if (!leader_metrics.ok()) return fail(leader_metrics.error());
    leader_metrics_ = *leader_metrics;
    auto managed = ControllerManagerMetrics::create(*metrics_);
    if (!managed.ok()) return fail(managed.error());
    controller_metrics_ = *managed;
    if (auto ok = register_build_info(*metrics_); !ok) return fail(ok.error());
    if (auto ok = register_feature_metrics(*metrics_, options_.features); !ok) {
      return fail(ok.error());
    }
    // Process-wide client hooks: every clientset built afterwards reports here.
    if (auto ok = register_rest_client_metrics(*metrics_); !ok)
      log::error("Cannot register the REST client metrics", {{"err", ok.error()}});
    return {};
  }

  // /flagz and /statusz, when their gates are on.
  std::shared_ptr<const Zpages> zpages() const {
    const bool flagz = options_.features.enabled("ComponentFlagz");
    const bool statusz = options_.features.enabled("ComponentStatusz");
    if (!flagz && !statusz) return nullptr;
    std::string binary(kcm_version());
    if (binary.starts_with('v')) binary.erase(0, 1);
    return std::make_shared<const Zpages>(
        ZpagesOptions{.flagz = flagz,
                      .statusz = statusz,
                      .flags = flag_values_,
                      .started = process_start_time(),
                      .go_version = current_build_info().go_version,
                      .binary_version = std::move(binary),
                      .emulation_version = featuregate::to_string(options_.emulation)});
  }

  Result<void> start_serving() {
    if (options_.secure_port == 0) return {};
    auto certificate = load_serving_certificate(certificate_sources(options_));
    if (!certificate.ok()) return fail(certificate.error());
    server_ =
        std::make_unique<SecureServer>(SecureServerOptions{.bind_address = options_.bind_address,
                                                           .port = options_.secure_port,
                                                           .profiling = options_.profiling},
                                       std::move(*certificate),
                                       SecureServerHandlers{.healthz = healthz_,
                                                            .registry = metrics_,
                                                            .slis = slis_,
                                                            .debug = debug_handlers_,
                                                            .configz = configz_answer(options_),
                                                            .zpages = zpages()});
    if (auto ok = server_->start(); !ok) return fail(ok.error());
    log::info("Serving securely",
              {{"address", fmt::format("{}:{}", options_.bind_address, server_->port())}});
    return {};
  }

  // WaitForAPIServer: GET /healthz every second for up to 10 seconds.
  Result<void> wait_for_api_server(std::stop_token stop) {
    std::string last;
    for (int attempt = 0; attempt < 10 && !stop.stop_requested(); ++attempt) {
      client::Request request;
      request.abs_path = "/healthz";
      request.max_retries = 0;
      request.timeout = std::chrono::seconds(1);
      auto response = main_client_->rest()->send(request);
      if (response.ok() && response->body == "ok") return {};
      last = response.ok() ? fmt::format("status: {}", response->body) : response.error().message;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return fail(fmt::format("failed to wait for apiserver being healthy: {}", last));
  }

  // run(ctx, descriptors): informers, controllers, their health checks, and
  // the wait for them to stop. Returns the exit code.
  int run_controllers_until(std::stop_token stop) {
    if (auto ok = wait_for_api_server(stop); !ok) {
      log::error("Error building controller context", {{"err", ok.error()}});
      return 1;
    }
    if (stop.stop_requested()) return 0;
    auto informer_client = client_for("shared-informers");
    if (!informer_client.ok()) {
      log::error("Error building controller context", {{"err", informer_client.error()}});
      return 1;
    }
    auto metadata_client = client_for("metadata-informers");
    if (!metadata_client.ok()) {
      log::error("Error building controller context", {{"err", metadata_client.error()}});
      return 1;
    }
    cache::SharedInformerFactoryOptions informer_options;
    informer_options.default_resync = resync_period(options_.min_resync_period);
    informer_options.transform = cache::drop_managed_fields;
    cache::SharedInformerFactory informers(
        [cs = *informer_client](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
        },
        informer_options);
    cache::SharedInformerFactory metadata_informers(
        [cs = *metadata_client](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->metadata(gvr, ns));
        },
        informer_options);

    // Shut down once the controllers have stopped (upstream: each
    // controller's Run defers its broadcaster's Shutdown).
    ControllerEventBroadcasters controller_events;
    const ControllerContext context{
        .options = options_,
        .informers = informers,
        .metadata_informers = &metadata_informers,
        .client = [this](std::string_view name) { return client_for(name); },
        .scaled_client = [this](std::string_view name,
                                ClientRateScale scale) { return client_for(name, {}, scale); },
        .recorder =
            [&controller_events](std::string_view component, const client::Clientset& client) {
              return controller_events.recorder(component, client);
            },
        .metrics = *metrics_,
    };
    const auto& descriptors = controller_descriptors();
    auto controllers = build_controllers(descriptors, options_.controllers, context);
    if (!controllers.ok()) {
      log::error("Error starting controllers", {{"err", controllers.error()}});
      return 1;
    }
    if (const auto missing = unimplemented_controllers(descriptors, options_.controllers);
        !missing.empty()) {
      std::string names;
      for (const std::string& n : missing)
        names += (names.empty() ? "" : ",") + n;
      if (log::v(1))
        log::info("Enabled controllers that kcm does not implement are not started",
                  {{"controllers", names}});
    }
    if (auto ok = healthz_->add_checks(controller_health_checks(*controllers)); !ok)
      log::error("Cannot add health checks", {{"err", ok.error()}});
    if (auto ok = install_debug_handlers(*controllers, *debug_handlers_); !ok)
      log::error("Cannot install the controllers' debug handlers", {{"err", ok.error()}});

    informers.start(stop);
    metadata_informers.start(stop);
    const RunHooks hooks{
        .started = [m = controller_metrics_](const std::string& n) { m->controller_started(n); },
        .stopped = [m = controller_metrics_](const std::string& n) { m->controller_stopped(n); }};
    const bool stopped =
        run_controllers(*controllers, stop, options_.controller_shutdown_timeout, hooks);
    if (!stopped) exit_now(1);
    informers.shutdown();
    metadata_informers.shutdown();
    controller_events.shutdown();
    return 0;
  }

  int run_with_leader_election(signals::ShutdownSignals& signals) {
    auto identity = leaderelection::new_identity();
    if (!identity.ok()) return fatal(identity.error());
    const auto& le = options_.leader_election;
    // NewFromKubeconfig: its own client, timed out at max(1s, renewDeadline/2).
    const auto timeout = std::max<milliseconds>(
        std::chrono::seconds(1), std::chrono::duration_cast<milliseconds>(le.renew_deadline / 2));
    auto lock_client = client_for("leader-election", timeout);
    if (!lock_client.ok()) return fatal(lock_client.error());

    leaderelection::LeaderElectionConfig config;
    config.name = le.resource_name;
    config.lease_duration = le.lease_duration;
    config.renew_deadline = le.renew_deadline;
    config.retry_period = le.retry_period;
    config.lock = std::make_shared<leaderelection::LeaseLock>(
        std::make_shared<leaderelection::ClientLeaseStore>((*lock_client)->rest()),
        leaderelection::LeaseLockConfig{
            .namespace_ = le.resource_namespace,
            .name = le.resource_name,
            .identity = *identity,
            .event_recorder = broadcaster_.new_recorder({.component = std::string(kComponent)})});
    config.watch_dog = leader_health_;
    config.metrics = leader_metrics_adapter();
    config.release_on_cancel = false;  // as upstream: the next leader waits out the lease

    int code = 0;
    config.callbacks.on_started_leading = [&](std::stop_token leading) {
      code = run_controllers_until(leading);
    };
    config.callbacks.on_stopped_leading = [&signals] {
      if (signals.requested()) {
        log::info("Requested to terminate, exiting");
        return;  // run() waits for the controllers to drain
      }
      log::error("leaderelection lost");
      exit_now(1);
    };
    log::info("Attempting to acquire leader lease",
              {{"lease", le.resource_namespace + "/" + le.resource_name}});
    try {
      leaderelection::LeaderElector::run_or_die(signals.token(), std::move(config));
    } catch (const std::exception& e) {
      return fatal(e.what());
    }
    return code;
  }

  // leaderelection::LeaderMetrics over the Prometheus families.
  std::shared_ptr<leaderelection::LeaderMetrics> leader_metrics_adapter() {
    class Adapter final : public leaderelection::LeaderMetrics {
     public:
      explicit Adapter(std::shared_ptr<LeaderElectionMetrics> m) : m_(std::move(m)) {}
      void leader_on(std::string_view name) override { m_->leader_on(name); }
      void leader_off(std::string_view name) override { m_->leader_off(name); }
      void slowpath_exercised(std::string_view name) override { m_->slowpath_exercised(name); }

     private:
      std::shared_ptr<LeaderElectionMetrics> m_;
    };
    return std::make_shared<Adapter>(leader_metrics_);
  }

  void shutdown() {
    if (server_) server_->stop();
    broadcaster_.shutdown();
  }

  int fatal(const std::string& message) {
    log::error("Error running kcm", {{"err", message}});
    std::cerr << "Error: " << message << "\n";
    shutdown();
    return 1;
  }

  const Options options_;
  const std::map<std::string, std::string> flag_values_;
  client::RestConfig base_config_;
  std::shared_ptr<client::Clientset> main_client_;
  const std::shared_ptr<metrics::Registry> metrics_ = std::make_shared<metrics::Registry>();
  std::shared_ptr<LeaderElectionMetrics> leader_metrics_;
  std::shared_ptr<ControllerManagerMetrics> controller_metrics_;
  record::EventBroadcaster broadcaster_;
  std::shared_ptr<record::EventWatcher> event_logging_;
  std::shared_ptr<record::EventWatcher> event_sink_;
  std::shared_ptr<leaderelection::HealthzAdaptor> leader_health_;
  std::shared_ptr<HealthcheckSlis> slis_;
  std::shared_ptr<HealthzHandler> healthz_;
  const std::shared_ptr<ControllerDebugHandlers> debug_handlers_ =
      std::make_shared<ControllerDebugHandlers>();
  std::unique_ptr<SecureServer> server_;
};

}  // namespace

int run_controller_manager(const std::vector<std::string>& args) {
  Options options;
  const CommandLine command_line = parse_command_line(args, options);
  std::cout << command_line.out << std::flush;
  std::cerr << command_line.err << std::flush;
  if (!command_line.run && command_line.command_failed.empty()) return command_line.exit_code;

  log::set_verbosity(options.verbosity);
  for (const std::string& warning : command_line.warnings)
    log::warning(warning);
  if (log::v(1))
    for (const std::string& line : command_line.flag_lines)
      log::info(line);
  if (!command_line.command_failed.empty()) {
    log::error("command failed", {{"err", command_line.command_failed}});
    return command_line.exit_code;
  }

  // Before any thread starts, so every thread inherits the blocked signals.
  signals::ShutdownSignals signals;
  ControllerManager manager(std::move(options), command_line.flag_values);
  return manager.run(signals);
}

}  // namespace kcm::app
