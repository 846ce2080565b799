// The command-line flags the controller benchmarks share (where kcm-local and
// kcm are, timeouts, output), and resolving their defaults.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "api/result.h"

namespace kcm::bench {

struct CommonFlags {
  std::string kcm_local;  // default: beside the benchmark
  std::string kcm;        // default: beside the benchmark
  std::string tmp_dir;    // default: $TMPDIR or /tmp, plus a per-run directory
  bool keep_data = false;
  std::string json_out;
  int nodes = 0;                      // 0: enough for the pods
  std::string pod_ready_delay = "0";  // kcm-local's, Go duration syntax
  std::string pod_terminate_delay = "0";
  int connections = 8;
  int timeout_s = 900;  // per phase
  double idle_s = 5;
  bool server_view = false;  // also count kcm's writes from the server's watches
  std::vector<std::string> kcm_args;
  bool quick = false;
};

void add_common_flags(CLI::App& app, CommonFlags& flags);

// Fills the defaults; an error when an executable is missing. `name` names
// the per-run directory ("<tmp>/<name>-<pid>").
Result<void> resolve_common_flags(CommonFlags& flags, const std::string& name);

// The executable `name` in this benchmark's directory (the flags' default).
std::string beside_this_benchmark(const std::string& name);
// An error naming the flag to use when `path` is not an executable.
Result<void> require_executable(const std::string& what, const std::string& path);
// "<tmp_dir or $TMPDIR or /tmp>/<name>-<pid>": a run's own data directory.
std::string run_directory(const std::string& tmp_dir, const std::string& name);

}  // namespace kcm::bench
