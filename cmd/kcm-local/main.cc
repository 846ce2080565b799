// kcm-local: a small local Kubernetes control plane (API server, scheduler,
// simulated nodes). Parses the flags, starts the server and the simulated
// cluster, and serves until SIGINT/SIGTERM.
#include <CLI/CLI.hpp>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <limits>
#include <regex>

#include "featuregate/component_entries.h"
#include "featuregate/feature_gate.h"
#include "featuregate/kube_features.h"
#include "local/apiserver/api_server.h"
#include "local/cluster/cluster.h"
#include "local/registry/service_ranges.h"

namespace {

namespace apiserver = kcm::local::apiserver;
namespace cluster = kcm::local::cluster;
namespace featuregate = kcm::featuregate;
namespace registry = kcm::local::registry;
using kcm::fail;
using kcm::Result;

// "v1.32.4" or "1.32" => the /version answer (the minor selects which bundled
// kubectl the kubectl dispatcher runs).
Result<apiserver::VersionInfo> parse_kube_version(const std::string& text) {
  static const std::regex re(R"(^v?(\d+)\.(\d+)(?:\.(\d+))?$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) {
    return fail("--kube-version: expected MAJOR.MINOR[.PATCH], e.g. v1.32.4; got \"" + text + "\"");
  }
  apiserver::VersionInfo v;
  v.major = m[1];
  v.minor = m[2];
  v.git_version = "v" + std::string(m[1]) + "." + std::string(m[2]) + "." +
                  (m[3].matched ? std::string(m[3]) : std::string("0")) + "+kcm-local";
  return v;
}

// The gates of kcm-local's API at the version it reports (a gate newer than
// that version is unknown), with --feature-gates applied.
Result<registry::ApiFeatures> api_features(const apiserver::VersionInfo& version,
                                           const std::vector<std::string>& settings) {
  int minor = 0;
  const auto [end, ec] =
      std::from_chars(version.minor.data(), version.minor.data() + version.minor.size(), minor);
  if (ec != std::errc()) minor = std::numeric_limits<int>::max();  // digits, but too many
  featuregate::FeatureGate gates(featuregate::kube_features(), minor);
  std::vector<featuregate::ComponentEntry> entries;
  for (const auto& s : settings)
    featuregate::append_component_entries(s, entries);
  auto joined = featuregate::kube_settings(entries);
  if (!joined) return fail(joined.error());
  auto warnings = gates.set(*joined);
  if (!warnings) return fail(warnings.error());
  for (const auto& w : *warnings)
    std::fprintf(stderr, "kcm-local: warning: %s\n", w.c_str());
  const auto on = [&](std::string_view name) { return gates.known(name) && gates.enabled(name); };
  registry::ApiFeatures features;
  features.terminating_replicas = on(featuregate::kDeploymentReplicaSetTerminatingReplicas);
  return features;
}

Result<std::pair<std::string, unsigned short>> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return fail("--listen: expected HOST:PORT, e.g. 127.0.0.1:6443; got \"" + text + "\"");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string port_text = text.substr(colon + 1);
  if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5 ||
      std::stoul(port_text) > 65535) {
    return fail("--listen: invalid port \"" + port_text + "\"");
  }
  return std::pair<std::string, unsigned short>(host,
                                                static_cast<unsigned short>(std::stoul(port_text)));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kcm-local: a small local Kubernetes control plane for kcm and kubectl"};
  std::string data_dir = apiserver::default_data_dir().string();
  std::string listen = "127.0.0.1:6443";
  std::string kubeconfig_out;
  std::string kube_version = "v1.32.4";
  bool no_fsync = false;
  std::size_t history = 10000;
  app.add_option("--data-dir", data_dir, "Directory for the objects, credentials and kubeconfig")
      ->capture_default_str();
  app.add_option("--listen", listen, "HOST:PORT to serve HTTPS on (port 0: any free port)")
      ->capture_default_str();
  app.add_option("--kubeconfig-out", kubeconfig_out,
                 "Where to write the kubeconfig (default <data-dir>/kubeconfig)");
  app.add_option("--kube-version", kube_version,
                 "Kubernetes version reported by /version (selects kubectl's bundled client)")
      ->capture_default_str();
  app.add_option("--watch-history", history,
                 "Changes kept per resource for resuming watches (older ones get 410 Gone)")
      ->capture_default_str();
  app.add_flag("--unsafe-no-fsync", no_fsync,
               "Do not fsync writes (faster; a machine crash can lose acknowledged writes)");
  std::string nodes = "3";
  std::string pod_ready_delay = "1s";
  std::string pod_terminate_delay = "1s";
  // The last occurrence wins, so that wrappers can put defaults first.
  app.add_option("--nodes", nodes,
                 "Simulated nodes kcm-local-node-1..N with kubelets and a scheduler (0: the API "
                 "server alone; at most 200)")
      ->capture_default_str()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--pod-ready-delay", pod_ready_delay,
                 "How long a scheduled pod runs before it reports Ready (Go duration)")
      ->capture_default_str()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--pod-terminate-delay", pod_terminate_delay,
                 "At most how long a deleted pod takes to stop (Go duration; its grace period "
                 "also bounds it)")
      ->capture_default_str()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string service_cluster_ip_range = "10.96.0.0/12";
  std::string service_node_port_range = "30000-32767";
  app.add_option("--service-cluster-ip-range", service_cluster_ip_range,
                 "IPv4 CIDR the Services' cluster IPs come from (the kubernetes Service takes "
                 "its first address)")
      ->capture_default_str();
  app.add_option("--service-node-port-range", service_node_port_range,
                 "Ports NodePort and LoadBalancer Services get (first-last or base+size)")
      ->capture_default_str();
  std::vector<std::string> feature_gates;
  app.add_option("--feature-gates", feature_gates,
                 "Feature gates of the API server at --kube-version: [kube:]Name=true|false "
                 "pairs, comma-separated, repeatable (e.g. "
                 "DeploymentReplicaSetTerminatingReplicas=true, known from v1.33, on by default "
                 "from v1.35)")
      ->delimiter(',');
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  auto version = parse_kube_version(kube_version);
  if (!version) {
    std::fprintf(stderr, "kcm-local: %s\n", version.error().c_str());
    return 2;
  }
  auto features = api_features(*version, feature_gates);
  if (!features) {
    std::fprintf(stderr, "kcm-local: --feature-gates: %s\n", features.error().c_str());
    return 2;
  }
  auto service_ranges =
      registry::parse_service_ranges(service_cluster_ip_range, service_node_port_range);
  if (!service_ranges) {
    std::fprintf(stderr, "kcm-local: %s\n", service_ranges.error().c_str());
    return 2;
  }
  auto address = parse_listen(listen);
  if (!address) {
    std::fprintf(stderr, "kcm-local: %s\n", address.error().c_str());
    return 2;
  }
  cluster::ClusterOptions cluster_options;
  {
    auto n = cluster::parse_node_count(nodes);
    auto ready = cluster::parse_delay("--pod-ready-delay", pod_ready_delay);
    auto terminate = cluster::parse_delay("--pod-terminate-delay", pod_terminate_delay);
    for (const std::string* error : {n ? nullptr : &n.error(), ready ? nullptr : &ready.error(),
                                     terminate ? nullptr : &terminate.error()}) {
      if (error != nullptr) {
        std::fprintf(stderr, "kcm-local: %s\n", error->c_str());
        return 2;
      }
    }
    cluster_options.nodes = *n;
    cluster_options.pod_ready_delay = *ready;
    cluster_options.pod_terminate_delay = *terminate;
    // The kubelets report the version the API server does.
    cluster_options.kubelet_version =
        version->git_version.substr(0, version->git_version.find('+'));
  }

  // Signals are taken synchronously by this thread; the server threads never see them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  apiserver::ApiServerOptions options;
  options.data_dir = data_dir;
  options.host = address->first;
  options.port = address->second;
  options.kubeconfig_out = kubeconfig_out;
  options.version = *version;
  options.fsync = !no_fsync;
  options.history_per_resource = history;
  options.features = *features;
  options.service_ranges = *service_ranges;
  std::vector<std::string> warnings;
  auto server = apiserver::ApiServer::start(options, &warnings);
  for (const auto& w : warnings)
    std::fprintf(stderr, "kcm-local: warning: %s\n", w.c_str());
  if (!server) {
    std::fprintf(stderr, "kcm-local: %s\n", server.error().c_str());
    return 1;
  }
  std::unique_ptr<cluster::Cluster> simulated;
  if (cluster_options.nodes > 0) {
    auto started =
        cluster::Cluster::start((*server)->rest(), (*server)->resources(), cluster_options);
    if (!started) {
      std::fprintf(stderr, "kcm-local: %s\n", started.error().c_str());
      (*server)->stop();
      return 1;
    }
    simulated = std::move(*started);
  }
  const std::string kubeconfig = (*server)->kubeconfig().string();
  std::printf("kcm-local: serving on %s (data in %s)\n", (*server)->url().c_str(),
              data_dir.c_str());
  std::printf("kubeconfig: %s\n", kubeconfig.c_str());
  std::printf("export KUBECONFIG=%s\n", kubeconfig.c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  std::printf("kcm-local: %s received, shutting down\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
  std::fflush(stdout);
  // The cluster writes through the server's store: stop it first.
  if (simulated) simulated->stop();
  (*server)->stop();
  server->reset();
  return 0;
}
