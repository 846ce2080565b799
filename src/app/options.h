// kcm's command line: kube-controller-manager's flag names, defaults and
// validation (../shared/spec/controller-manager.md §1), for the flags kcm
// implements.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/result.h"
#include "app/flag_set.h"
#include "featuregate/component_entries.h"
#include "featuregate/feature_gate.h"
#include "featuregate/kube_features.h"

namespace kcm::app {

// The Kubernetes minor version whose behaviour kcm follows (kcm_version()).
inline constexpr int kKubeMinorVersion = 33;

struct LeaderElectionOptions {
  bool leader_elect = true;
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "kube-controller-manager";
  std::string resource_namespace = "kube-system";
};

struct Options {
  std::string kubeconfig;
  std::string master;
  std::vector<std::string> controllers = {"*"};
  std::int32_t concurrent_deployment_syncs = 5;
  std::int32_t concurrent_replicaset_syncs = 5;
  std::int32_t concurrent_gc_syncs = 20;
  std::int32_t concurrent_namespace_syncs = 10;
  std::chrono::nanoseconds namespace_sync_period = std::chrono::minutes(5);
  bool enable_garbage_collector = true;
  float kube_api_qps = 20;
  std::int32_t kube_api_burst = 30;
  std::string kube_api_content_type = "application/vnd.kubernetes.protobuf";
  std::chrono::nanoseconds min_resync_period = std::chrono::hours(12);
  std::chrono::nanoseconds controller_start_interval{0};
  std::chrono::nanoseconds controller_shutdown_timeout = std::chrono::seconds(10);
  LeaderElectionOptions leader_election;
  std::string bind_address = "0.0.0.0";
  std::int32_t secure_port = 10257;
  std::string cert_dir;
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::int32_t verbosity = 0;
  bool profiling = true;              // --profiling: /debug/flags on the secure port
  bool contention_profiling = false;  // --contention-profiling: Go's block profile; no effect here
  std::string version;                // "", "true", "raw" or a version to report
  // --emulated-version as given: "[component=]major.minor" entries.
  std::vector<std::string> emulated_version;
  // The version kcm emulates: --emulated-version's, else its own.
  featuregate::MajorMinor emulation{1, kKubeMinorVersion};
  // --feature-gates as given.
  std::vector<featuregate::ComponentEntry> feature_gate_entries;
  // The feature gates at kcm's version; parse_command_line moves them to the
  // emulated version and applies --feature-gates to them.
  featuregate::FeatureGate features{featuregate::kube_features(), kKubeMinorVersion};

  // Registers every flag on `flags`, bound to this object's members.
  void add_flags(FlagSet& flags);

  // --emulated-version and --feature-gates, bound to emulated_version and
  // feature_gate_entries.
  void add_component_globals_flags(FlagSet& flags, const std::string& section);
  // ComponentGlobalsRegistry.Set: sets `emulation` from emulated_version,
  // moves `features` to it, then applies feature_gate_entries. Returns the
  // warnings to log. The emulated version's range is checked by validate().
  Result<std::vector<std::string>> apply_component_globals();

  // Options.Validate: every problem, aggregated as upstream prints them (one
  // error as itself, several as "[e1, e2]"). Resolves controller aliases in
  // `controllers` on success.
  Result<void> validate();
};

// The result of reading a command line: run, or exit with a code after
// printing `out` (stdout) and `err` (stderr).
struct CommandLine {
  bool run = false;
  int exit_code = 0;
  std::string out;
  std::string err;
  // `FLAG: --name="value"` for every flag (logged at V(1) when running).
  std::vector<std::string> flag_lines;
  // Every flag's value by name, for /flagz.
  std::map<std::string, std::string> flag_values;
  // Warnings to log (setting a GA or deprecated feature gate).
  std::vector<std::string> warnings;
  // An error upstream meets after logging has started (in --feature-gates,
  // --emulated-version or validation): logged as `"command failed"
  // err="..."`, then exit 1, as component-base's cli.Run does.
  std::string command_failed;
};

// Parses `args` (without argv[0]) into `options` as cobra would for
// kube-controller-manager: --help prints the usage and exits 0; a flag error
// prints the usage then "Error: <msg>" and exits 1; positional arguments are
// refused; bad --feature-gates or --emulated-version and invalid options set
// `command_failed`; --version prints "Kubernetes <version>" and exits 0.
CommandLine parse_command_line(const std::vector<std::string>& args, Options& options,
                               std::string_view command = "kcm");

// The version kcm reports (`--version`, /version of its metrics, user agents).
std::string_view kcm_version();

}  // namespace kcm::app
