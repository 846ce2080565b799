#include "app/options.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/field_error.h"
#include "app/controller_names.h"
#include "featuregate/emulation_version.h"

namespace kcm::app {

using api::go_quote;

std::string_view kcm_version() {
  return "v1.33.0-kcm.0";
}

void Options::add_flags(FlagSet& f) {
  // DebuggingOptions: upstream registers them first, so their section leads --help.
  const std::string debugging = "Debugging";
  f.add_bool("contention-profiling", &contention_profiling,
             "Enable block profiling, if profiling is enabled", debugging);
  f.add_bool("profiling", &profiling, "Enable profiling via web interface host:port/debug/pprof/",
             debugging);
  const std::string generic = "Generic";
  f.add_string_slice("controllers", &controllers, controllers_flag_usage(), generic);
  add_component_globals_flags(f, generic);
  f.add_duration("min-resync-period", &min_resync_period,
                 "The resync period in reflectors will be random between MinResyncPeriod and "
                 "2*MinResyncPeriod.",
                 generic);
  f.add_duration("controller-start-interval", &controller_start_interval,
                 "Interval between starting controller managers.", generic);
  f.add_duration("controller-shutdown-timeout", &controller_shutdown_timeout,
                 "Time to wait for the controllers to shut down before terminating the "
                 "executable",
                 generic);
  f.add_bool("leader-elect", &leader_election.leader_elect,
             "Start a leader election client and gain leadership before executing the main "
             "loop. Enable this when running replicated components for high availability.",
             generic);
  f.add_duration("leader-elect-lease-duration", &leader_election.lease_duration,
                 "The duration that non-leader candidates will wait after observing a leadership "
                 "renewal until attempting to acquire leadership of a led but unrenewed leader "
                 "slot.",
                 generic);
  f.add_duration("leader-elect-renew-deadline", &leader_election.renew_deadline,
                 "The interval between attempts by the acting master to renew a leadership slot "
                 "before it stops leading. This must be less than the lease duration.",
                 generic);
  f.add_duration("leader-elect-retry-period", &leader_election.retry_period,
                 "The duration the clients should wait between attempting acquisition and renewal "
                 "of a leadership.",
                 generic);
  f.add_string("leader-elect-resource-lock", &leader_election.resource_lock,
               "The type of resource object that is used for locking during leader election. "
               "Supported options are 'leases'.",
               generic);
  f.add_string("leader-elect-resource-name", &leader_election.resource_name,
               "The name of resource object that is used for locking during leader election.",
               generic);
  f.add_string("leader-elect-resource-namespace", &leader_election.resource_namespace,
               "The namespace of resource object that is used for locking during leader "
               "election.",
               generic);

  const std::string serving = "Secure serving";
  f.add_string("bind-address", &bind_address,
               "The IP address on which to listen for the --secure-port port. If blank or an "
               "unspecified address (0.0.0.0 or ::), all interfaces and IP address families will "
               "be used.",
               serving);
  f.add_int32("secure-port", &secure_port,
              "The port on which to serve HTTPS with authentication and authorization. If 0, "
              "don't serve HTTPS at all.",
              serving);
  f.add_string("cert-dir", &cert_dir,
               "The directory where the TLS certs are located. If --tls-cert-file and "
               "--tls-private-key-file are provided, this flag will be ignored.",
               serving);
  f.add_string("tls-cert-file", &tls_cert_file,
               "File containing the default x509 Certificate for HTTPS.", serving);
  f.add_string("tls-private-key-file", &tls_private_key_file,
               "File containing the default x509 private key matching --tls-cert-file.", serving);

  f.add_int32("concurrent-deployment-syncs", &concurrent_deployment_syncs,
              "The number of deployment objects that are allowed to sync concurrently. Larger "
              "number = more responsive deployments, but more CPU (and network) load",
              "Deployment controller");
  f.add_int32("concurrent-replicaset-syncs", &concurrent_replicaset_syncs,
              "The number of replica sets that are allowed to sync concurrently. Larger number = "
              "more responsive replica management, but more CPU (and network) load",
              "Replicaset controller");
  f.add_int32("concurrent-gc-syncs", &concurrent_gc_syncs,
              "The number of garbage collector workers that are allowed to sync concurrently.",
              "Garbagecollector controller");
  f.add_bool("enable-garbage-collector", &enable_garbage_collector,
             "Enables the generic garbage collector. MUST be synced with the corresponding flag "
             "of the kube-apiserver.",
             "Garbagecollector controller");
  f.add_int32("concurrent-namespace-syncs", &concurrent_namespace_syncs,
              "The number of namespace objects that are allowed to sync concurrently. Larger "
              "number = more responsive namespace termination, but more CPU (and network) load",
              "Namespace controller");
  f.add_duration("namespace-sync-period", &namespace_sync_period,
                 "The period for syncing namespace life-cycle updates", "Namespace controller");

  const std::string misc = "Misc";
  f.add_string("kubeconfig", &kubeconfig,
               "Path to kubeconfig file with authorization and master location information "
               "(the master location can be overridden by the master flag).",
               misc);
  f.add_string("master", &master,
               "The address of the Kubernetes API server (overrides any value in kubeconfig).",
               misc);
  f.add_float32("kube-api-qps", &kube_api_qps,
                "QPS to use while talking with kubernetes apiserver.", misc);
  f.add_int32("kube-api-burst", &kube_api_burst,
              "Burst to use while talking with kubernetes apiserver.", misc);
  f.add_string("kube-api-content-type", &kube_api_content_type,
               "Content type of requests sent to apiserver.", misc);

  f.add_int32("v", &verbosity, "number for the log level verbosity", "Logs");
  f.set_shorthand("v", 'v');

  FlagSet::Flag version_flag;
  version_flag.name = "version";
  version_flag.type = "version";
  version_flag.usage =
      "--version, --version=raw prints version information and quits; --version=vX.Y.Z... "
      "sets the reported version";
  version_flag.section = "Global";
  version_flag.default_text = "false";
  version_flag.no_value_default = "true";
  version_flag.set = [this](std::string_view v) -> Result<void> {
    if (v == "false" || v == "true" || v == "raw" || v.starts_with('v')) {
      version = v == "false" ? "" : std::string(v);
      return {};
    }
    return fail(fmt::format("unsupported version value: {}", v));
  };
  version_flag.value = [this] { return version.empty() ? std::string("false") : version; };
  f.add(std::move(version_flag));
}

// --emulated-version and --feature-gates as ComponentGlobalsRegistry
// registers them. --feature-gates is a ColonSeparatedMultimapStringString,
// "[component:]Name=bool" entries, whose first use replaces the default and
// later uses add to it.
void Options::add_component_globals_flags(FlagSet& f, const std::string& section) {
  f.add_string_slice(
      "emulated-version", &emulated_version,
      "The versions different components emulate their capabilities (APIs, features, ...) of.\n"
      "If set, the component will emulate the behavior of this version instead of the underlying "
      "binary version.\nVersion format could only be major.minor, for example: "
      "'--emulated-version=wardle=1.2,kube=1.31'. Options are:\n" +
          featuregate::kube_emulation_option(featuregate::kube_emulation_range(kKubeMinorVersion)) +
          "If the component is not specified, defaults to \"kube\"",
      section);

  std::string options;
  for (const std::string& line : features.known_features())
    options += fmt::format("\n{}:{}", featuregate::kKubeComponent, line);
  FlagSet::Flag flag;
  flag.name = "feature-gates";
  flag.type = "colonSeparatedMultimapStringString";
  flag.usage =
      "Comma-separated list of component:key=value pairs that describe feature gates for "
      "alpha/experimental features of different components.\nIf the component is not "
      "specified, defaults to \"kube\". This flag can be repeatedly invoked. For example: "
      "--feature-gates 'wardle:featureA=true,wardle:featureB=false' --feature-gates "
      "'kube:featureC=true'Options are:" +
      options;
  flag.section = section;
  flag.set = [this, first = true](std::string_view value) mutable -> Result<void> {
    if (first) feature_gate_entries.clear();
    first = false;
    featuregate::append_component_entries(value, feature_gate_entries);
    return {};
  };
  // String(): "component:value" pairs, stable-sorted by component.
  flag.value = [this] {
    auto entries = feature_gate_entries;
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.component < b.component; });
    std::string out;
    for (const auto& entry : entries)
      out += fmt::format("{}{}:{}", out.empty() ? "" : ",", entry.component, entry.setting);
    return out;
  };
  f.add(std::move(flag));
}

Result<std::vector<std::string>> Options::apply_component_globals() {
  const auto range = featuregate::kube_emulation_range(kKubeMinorVersion);
  auto emulated = featuregate::kube_emulation_version(emulated_version, range);
  if (!emulated) return fail(emulated.error());
  emulation = *emulated;
  features = featuregate::FeatureGate(featuregate::kube_features(), kKubeMinorVersion, emulation);
  auto kube = featuregate::kube_settings(feature_gate_entries);
  if (!kube) return fail(kube.error());
  return features.set(*kube);
}

Result<void> Options::validate() {
  std::vector<std::string> errors = featuregate::validate_emulation_version(
      emulation, featuregate::kube_emulation_range(kKubeMinorVersion));
  auto resolved = resolve_controllers(controllers);
  if (!resolved) {
    errors.push_back(resolved.error());
  } else {
    controllers = std::move(*resolved);
  }
  if (leader_election.leader_elect && leader_election.resource_lock != "leases") {
    errors.push_back("resourceLock value must be \"leases\"");
  }
  if (leader_election.leader_elect) {
    // client-go's NewLeaderElector checks, reported here instead of a panic.
    const auto& le = leader_election;
    if (le.lease_duration <= le.renew_deadline) {
      errors.push_back("leaseDuration must be greater than renewDeadline");
    }
    if (le.renew_deadline.count() <= static_cast<std::int64_t>(1.2 * le.retry_period.count())) {
      errors.push_back("renewDeadline must be greater than retryPeriod*JitterFactor");
    }
    if (le.lease_duration.count() < 1) errors.push_back("leaseDuration must be greater than zero");
    if (le.renew_deadline.count() < 1) errors.push_back("renewDeadline must be greater than zero");
    if (le.retry_period.count() < 1) errors.push_back("retryPeriod must be greater than zero");
  }
  if (secure_port < 0 || secure_port > 65535) {
    errors.push_back(
        fmt::format("--secure-port {} must be between 0 and 65535, inclusive. 0 for turning "
                    "off secure port",
                    secure_port));
  }
  const auto positive = [&](std::string_view flag, std::int32_t v) {
    if (v < 1) errors.push_back(fmt::format("{} must be greater than 0, got {}", flag, v));
  };
  positive("--concurrent-deployment-syncs", concurrent_deployment_syncs);
  positive("--concurrent-replicaset-syncs", concurrent_replicaset_syncs);
  positive("--concurrent-gc-syncs", concurrent_gc_syncs);
  positive("--concurrent-namespace-syncs", concurrent_namespace_syncs);
  if (kube_api_qps < 0) errors.push_back("--kube-api-qps must not be negative");
  if (kube_api_burst < 0) errors.push_back("--kube-api-burst must not be negative");
  if (kube_api_content_type != "application/vnd.kubernetes.protobuf" &&
      kube_api_content_type != "application/json") {
    errors.push_back(
        fmt::format("unsupported --kube-api-content-type {:?}", kube_api_content_type));
  }
  if (errors.empty()) return {};
  if (errors.size() == 1) return fail(errors.front());
  std::string joined = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    joined += (i ? ", " : "") + errors[i];
  }
  return fail(joined + "]");
}

CommandLine parse_command_line(const std::vector<std::string>& args, Options& options,
                               std::string_view command) {
  FlagSet flags{std::string(command)};
  options.add_flags(flags);
  CommandLine cl;
  const std::string description = fmt::format(
      "The {} is a daemon that embeds the core control loops of Kubernetes: it watches the "
      "shared state of the cluster through the apiserver and makes changes attempting to move "
      "the current state towards the desired state.\n\n",
      command == "kcm" ? "Kubernetes controller manager (kcm)" : std::string(command));
  auto parsed = flags.parse(args);
  if (!parsed) {
    if (parsed.error() == FlagSet::kHelpRequested) {
      cl.out = description + flags.usage();
      return cl;
    }
    cl.exit_code = 1;
    cl.err = flags.usage() + "\nError: " + parsed.error() + "\n";
    return cl;
  }
  if (!parsed->empty()) {
    std::string list;
    for (std::size_t i = 0; i < parsed->size(); ++i) {
      list += (i ? " " : "") + go_quote((*parsed)[i]);  // Go's %q of a []string
    }
    cl.exit_code = 1;
    cl.err = fmt::format("Error: \"{}\" does not take any arguments, got [{}]\n", command, list);
    return cl;
  }
  // Upstream applies the feature gates before the command runs, --version
  // included, once logging has started.
  auto gates = options.apply_component_globals();
  if (!gates) {
    cl.exit_code = 1;
    cl.command_failed = gates.error();
    return cl;
  }
  cl.warnings = std::move(*gates);
  if (!options.version.empty()) {
    if (options.version == "raw") {
      cl.out = fmt::format("version.Info{{Major:\"1\", Minor:\"{}\", GitVersion:\"{}\"}}\n",
                           kKubeMinorVersion, kcm_version());
      return cl;
    }
    cl.out =
        fmt::format("Kubernetes {}\n", options.version == "true" ? kcm_version() : options.version);
    return cl;
  }
  // As upstream's RunE: the flags are printed, then the options validated.
  cl.flag_lines = flags.print_flags();
  cl.flag_values = flags.values();
  if (auto ok = options.validate(); !ok) {
    cl.exit_code = 1;
    cl.command_failed = ok.error();
    return cl;
  }
  cl.run = true;
  return cl;
}

}  // namespace kcm::app
