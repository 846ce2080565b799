#include "bench/bench_flags.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace kcm::bench {

namespace fs = std::filesystem;

void add_common_flags(CLI::App& app, CommonFlags& flags) {
  app.add_flag("--quick", flags.quick, "Small sizes for a smoke run (explicit sizes win)");
  app.add_option("--json", flags.json_out, "Write the results as JSON to this file");
  app.add_option("--kcm-local", flags.kcm_local,
                 "kcm-local executable (default: beside this benchmark)");
  app.add_option("--kcm", flags.kcm, "kcm executable (default: beside this benchmark)");
  app.add_option("--nodes", flags.nodes, "Simulated nodes (0: enough for the pods, 110 each)")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  app.add_option("--pod-ready-delay", flags.pod_ready_delay,
                 "kcm-local's --pod-ready-delay (how long a scheduled pod runs before Ready)")
      ->capture_default_str();
  app.add_option("--pod-terminate-delay", flags.pod_terminate_delay,
                 "kcm-local's --pod-terminate-delay (at most how long a deleted pod takes to stop)")
      ->capture_default_str();
  app.add_option("--connections", flags.connections,
                 "The benchmark's concurrent connections for creates and patches")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--timeout", flags.timeout_s, "Seconds to wait for each phase to complete")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--idle-seconds", flags.idle_s, "kcm's idle time before its idle RSS is read")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--server-view", flags.server_view,
               "Also count kcm's writes from watches of pods, ReplicaSets, Deployments and "
               "Events (always on when kcm's /metrics has no rest_client_requests_total)");
  app.add_option("--kcm-arg", flags.kcm_args, "An extra argument for kcm (repeatable)");
  app.add_option("--tmp-dir", flags.tmp_dir, "Where the data directory goes ($TMPDIR or /tmp)");
  app.add_flag("--keep-data", flags.keep_data, "Keep the data directory and the logs");
}

Result<void> resolve_common_flags(CommonFlags& flags, const std::string& name) {
  if (flags.kcm_local.empty()) flags.kcm_local = beside_this_benchmark("kcm-local");
  if (flags.kcm.empty()) flags.kcm = beside_this_benchmark("kcm");
  if (auto r = require_executable("kcm-local", flags.kcm_local); !r) return r;
  if (auto r = require_executable("kcm", flags.kcm); !r) return r;
  flags.tmp_dir = run_directory(flags.tmp_dir, name);
  return {};
}

std::string beside_this_benchmark(const std::string& name) {
  std::error_code ec;
  return (fs::read_symlink("/proc/self/exe", ec).parent_path() / name).string();
}

Result<void> require_executable(const std::string& what, const std::string& path) {
  if (::access(path.c_str(), X_OK) != 0) {
    return fail(what + " not found at " + path + " (use --" + what + ")");
  }
  return {};
}

std::string run_directory(const std::string& tmp_dir, const std::string& name) {
  std::string base = tmp_dir;
  if (base.empty()) {
    const char* t = std::getenv("TMPDIR");
    base = (t != nullptr && *t != '\0') ? t : "/tmp";
  }
  return (fs::path(base) / (name + "-" + std::to_string(::getpid()))).string();
}

}  // namespace kcm::bench
