// The rig of the controller benchmarks (replicaset_bench, deployment_bench):
// kcm-local (fresh data directory, --unsafe-no-fsync, simulated nodes whose
// pods turn Ready at once) and kcm run against it, both as separate
// processes; snapshots of what both have used (CPU, memory), of the store's
// revision (every write the server committed: kcm's, the simulated nodes',
// the benchmark's) and of kcm's rest_client_requests_total; the figures of a
// phase between two snapshots; the server's physical write rate.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/result.h"
#include "bench/api_client.h"
#include "bench/child_process.h"
#include "bench/kcm_local_process.h"

namespace kcm::bench {

using Clock = std::chrono::steady_clock;

struct HarnessOptions {
  std::filesystem::path kcm_local;  // executables
  std::filesystem::path kcm;
  std::filesystem::path work_dir;  // the data directory and the logs go here
  int nodes = 3;
  std::string pod_ready_delay = "0";
  std::string pod_terminate_delay = "0";
  std::string controllers;  // kcm's --controllers
  std::vector<std::string> kcm_extra_args;
  int connections = 8;      // the benchmark's concurrent connections for batches
  double idle_seconds = 5;  // kcm's idle time before its idle RSS is read
};

// kcm's rest_client_requests_total, summed by method; absent when kcm's
// /metrics has no such family.
struct KcmRequests {
  bool present = false;
  std::map<std::string, double> by_method;       // "POST" -> n
  std::map<std::string, double> by_method_code;  // "POST 201" -> n
  // POST + PUT + PATCH + DELETE, failed attempts (e.g. 409) included.
  double writes() const;
};

struct Snapshot {
  Clock::time_point at;
  double kcm_cpu_seconds = 0;
  double server_cpu_seconds = 0;
  double bench_cpu_seconds = 0;
  std::uint64_t kcm_rss_bytes = 0;
  std::uint64_t kcm_peak_rss_bytes = 0;  // VmHWM: the peak since kcm started
  std::uint64_t server_rss_bytes = 0;
  std::uint64_t server_revision = 0;
  KcmRequests kcm_requests;
  // kcm's workqueue_work_duration_seconds_count by queue: items processed (syncs).
  std::map<std::string, double> kcm_syncs;
  std::string load;
};

struct PhaseFigures {
  double seconds = 0;
  double kcm_cpu_seconds = 0;
  double server_cpu_seconds = 0;
  double bench_cpu_seconds = 0;
  std::uint64_t kcm_peak_rss_bytes = 0;
  std::uint64_t kcm_rss_end_bytes = 0;
  std::uint64_t server_rss_end_bytes = 0;
  std::uint64_t server_writes = 0;  // revisions the store committed in the phase
  bool kcm_requests_present = false;
  double kcm_writes = 0;  // from rest_client_requests_total, when present
  std::map<std::string, double> kcm_requests_by_method;
  std::map<std::string, double> kcm_requests_by_method_code;
  std::map<std::string, double> kcm_syncs_by_queue;  // "replicaset" -> syncs in the phase
  std::string load_end;

  double server_writes_per_second() const;
  boost::json::object to_json() const;
};

// The figures from `begin` to `end`.
PhaseFigures phase_between(const Snapshot& begin, const Snapshot& end);
// Two phases run one after the other, as one (times, CPU and writes added).
PhaseFigures combine(const PhaseFigures& a, const PhaseFigures& b);

class ControllerHarness {
 public:
  // Starts kcm-local with a client of `options.connections` connections.
  static Result<std::unique_ptr<ControllerHarness>> start(const HarnessOptions& options);
  ~ControllerHarness();  // stops kcm, then kcm-local
  ControllerHarness(const ControllerHarness&) = delete;
  ControllerHarness& operator=(const ControllerHarness&) = delete;

  ApiClient& api() { return *api_; }
  const KcmLocalProcess& server() const { return *server_; }

  Result<void> create_namespace(const std::string& name);

  // Starts kcm, waits for its /healthz to answer ok, lets it idle for
  // idle_seconds and reads its RSS then.
  Result<void> start_kcm();
  std::uint64_t kcm_idle_rss_bytes() const { return kcm_idle_rss_; }
  pid_t kcm_pid() const { return kcm_ ? kcm_->pid() : -1; }

  // Stops kcm (its exit still goes into finish()'s report): the server can
  // then be measured again without kcm's watches.
  void stop_kcm();

  // kcm's /metrics page.
  Result<std::string> kcm_metrics();

  // Reads both processes now. `at` and `revision` replace the time and the
  // store revision (for the end of a phase: when and at which revision the
  // last awaited change was seen), else they are read now.
  Result<Snapshot> snapshot(std::optional<Clock::time_point> at = std::nullopt,
                            std::optional<std::uint64_t> revision = std::nullopt);

  // Empty while kcm and kcm-local run; otherwise which one ended and how.
  std::string crashed();

  // Objects in a collection (a list with limit=1 and its remainingItemCount).
  Result<std::uint64_t> count(const std::string& collection);

  // The pods of a namespace by phase and Ready condition ("Running/Ready=False": 3),
  // for explaining a phase that did not complete.
  Result<std::map<std::string, std::uint64_t>> pod_census(const std::string& ns);

  // Stops kcm, then kcm-local; their exits and stderr go into `out`;
  // removes the data directory unless `keep_data`.
  void finish(boost::json::object& out, bool keep_data);

 private:
  ControllerHarness() = default;

  HarnessOptions options_;
  std::unique_ptr<KcmLocalProcess> server_;
  std::unique_ptr<ApiClient> api_;
  std::unique_ptr<ChildProcess> kcm_;
  std::unique_ptr<ApiClient> kcm_api_;  // kcm's HTTPS endpoint
  std::uint64_t kcm_idle_rss_ = 0;
};

// The server's physical write rate: the benchmark itself creates `pods` pods
// (that no scheduler or node touches) and deletes them again, over
// `connections` concurrent connections, as fast as the server answers.
struct Calibration {
  std::size_t pods = 0;
  int connections = 0;
  double seconds = 0;
  std::uint64_t writes = 0;  // revisions committed: the creates and deletes
  double writes_per_second = 0;
  double create_seconds = 0, delete_seconds = 0;
  double server_cpu_seconds = 0;
  double bench_cpu_seconds = 0;
  std::size_t errors = 0;
  std::string first_error;
  boost::json::object to_json() const;
};
Result<Calibration> calibrate_pod_writes(ControllerHarness& harness, const std::string& ns,
                                         std::size_t pods, const boost::json::object& pod_template);

// ---------------------------------------------------------------------------
// Shared pieces of the benchmark programs.

// A pod template: one container `image` with small requests, labels `labels`.
boost::json::object pod_template(const boost::json::object& labels, const std::string& image);

// Simulated nodes for `pods` pods (110 each, 10 % spare, one more), or an
// error beyond kcm-local's 200 nodes.
Result<int> nodes_for_pods(std::size_t pods);

double mib(std::uint64_t bytes);
std::string command_output(const std::string& command);
// nproc, CPU model, memory, load.
boost::json::object machine_info();

}  // namespace kcm::bench
