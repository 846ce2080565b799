// The framework's REST client against a kcm-local process: what a request
// costs the client in CPU (and in context switches), measured apart from any
// controller. Threads share one Clientset, as a controller's workers do:
//   get     GET /api/v1/namespaces/default (a small answer)
//   create  POST a pod (schedulerName nobody runs: no node touches it)
//   delete  DELETE it again (gracePeriodSeconds 0)
// For each phase: wall time, requests/s, this process's CPU and voluntary
// context switches per request, kcm-local's CPU per request. Prints a table
// and writes --json.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "bench/bench_flags.h"
#include "bench/kcm_local_process.h"
#include "client/clientset.h"

namespace kcm::bench {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

struct Config {
  std::string kcm_local;
  int requests = 20000;  // per phase
  int threads = 8;
  std::string json_out;
  std::string tmp_dir;
};

// Voluntary context switches of this process so far (waits in the kernel).
long own_voluntary_switches() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_nvcsw;
}

// kcm-local's CPU seconds so far; NaN (printed as such) when /proc can't tell.
double server_cpu(const KcmLocalProcess& server) {
  auto cpu = server.cpu_seconds();
  return cpu ? *cpu : std::nan("");
}

struct PhaseResult {
  std::string name;
  int requests = 0;
  int failures = 0;
  double wall_s = 0;
  double client_cpu_s = 0;
  double server_cpu_s = 0;
  long client_switches = 0;
};

std::string pod_body(int i) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bench-)" + std::to_string(i) +
         R"(","labels":{"app":"rest-client-bench"}},"spec":{"schedulerName":"nobody",)"
         R"("containers":[{"name":"app","image":"registry.example/app:1"}]}})";
}

// Runs `call(i)` for i in [0, requests) over `threads` threads.
template <class Call>
PhaseResult run_phase(const std::string& name, const Config& config, const KcmLocalProcess& server,
                      Call&& call) {
  std::atomic<int> next{0};
  std::atomic<int> failures{0};
  const double cpu_before = own_cpu_seconds();
  const long switches_before = own_voluntary_switches();
  const double server_before = server_cpu(server);
  const auto start = Clock::now();
  std::vector<std::jthread> workers;
  for (int t = 0; t < config.threads; ++t) {
    workers.emplace_back([&] {
      for (int i = next++; i < config.requests; i = next++) {
        if (!call(i)) ++failures;
      }
    });
  }
  workers.clear();  // joins
  PhaseResult r;
  r.name = name;
  r.requests = config.requests;
  r.failures = failures.load();
  r.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  r.client_cpu_s = own_cpu_seconds() - cpu_before;
  r.client_switches = own_voluntary_switches() - switches_before;
  r.server_cpu_s = server_cpu(server) - server_before;
  return r;
}

int run(const Config& config) {
  std::error_code ec;
  const fs::path work = run_directory(config.tmp_dir, "rest-client-bench");
  fs::remove_all(work, ec);
  KcmLocalOptions options;
  options.binary = config.kcm_local;
  options.data_dir = work / "kcm-local";
  options.fsync = false;
  auto server = KcmLocalProcess::start(options);
  if (!server) {
    std::fprintf(stderr, "rest_client_bench: %s\n", server.error().c_str());
    return 1;
  }
  client::RestConfig rest;
  rest.host = "https://127.0.0.1:" + std::to_string((*server)->port());
  rest.ca_pem = (*server)->ca_pem();
  rest.bearer_token = (*server)->token();
  rest.qps = -1;  // no client-side limit: the client's own cost is measured
  auto clients = client::Clientset::create(rest);
  if (!clients) {
    std::fprintf(stderr, "rest_client_bench: %s\n", clients.error().c_str());
    return 1;
  }
  const auto& api = (*clients)->rest();
  const auto& srv = **server;

  std::vector<PhaseResult> results;
  results.push_back(run_phase("get", config, srv, [&](int) {
    client::Request r;
    r.abs_path = "/api/v1/namespaces/default";
    return api->send(r).ok();
  }));
  results.push_back(run_phase("create", config, srv, [&](int i) {
    client::Request r;
    r.verb = "POST";
    r.abs_path = "/api/v1/namespaces/default/pods";
    r.body = pod_body(i);
    return api->send_for_meta(r).ok();
  }));
  results.push_back(run_phase("delete", config, srv, [&](int i) {
    client::Request r;
    r.verb = "DELETE";
    r.abs_path = "/api/v1/namespaces/default/pods/bench-" + std::to_string(i);
    r.body = R"({"gracePeriodSeconds":0})";
    return api->send_for_error(r).ok();
  }));
  (*server)->stop();
  fs::remove_all(work, ec);

  std::printf("rest_client_bench: %d requests per phase over %d threads, one Clientset\n\n",
              config.requests, config.threads);
  std::printf("  %-8s %8s %9s %9s %14s %14s %16s %9s\n", "phase", "wall s", "req/s", "failed",
              "client us/req", "server us/req", "client cs/req", "c/s cpu");
  json::array out;
  for (const auto& r : results) {
    const double n = r.requests;
    std::printf("  %-8s %8.2f %9.0f %9d %14.1f %14.1f %16.2f %9.3f\n", r.name.c_str(), r.wall_s,
                n / r.wall_s, r.failures, 1e6 * r.client_cpu_s / n, 1e6 * r.server_cpu_s / n,
                static_cast<double>(r.client_switches) / n,
                r.server_cpu_s > 0 ? r.client_cpu_s / r.server_cpu_s : 0.0);
    out.push_back({{"phase", r.name},
                   {"requests", r.requests},
                   {"failures", r.failures},
                   {"wall_s", r.wall_s},
                   {"client_cpu_s", r.client_cpu_s},
                   {"server_cpu_s", r.server_cpu_s},
                   {"client_voluntary_switches", r.client_switches}});
  }
  std::printf(
      "  (client: this process, all threads; server: kcm-local; cs: voluntary context switches; "
      "c/s cpu: client CPU / server CPU)\n");
  if (!config.json_out.empty()) {
    std::ofstream(config.json_out) << json::serialize(
        json::object{{"requests", config.requests}, {"threads", config.threads}, {"phases", out}});
    std::printf("wrote %s\n", config.json_out.c_str());
  }
  for (const auto& r : results) {
    if (r.failures > 0) {
      std::fprintf(stderr, "rest_client_bench: %d of %d %s requests failed\n", r.failures,
                   r.requests, r.name.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace kcm::bench

int main(int argc, char** argv) {
  kcm::bench::Config config;
  CLI::App app{"The REST client's CPU per request against kcm-local"};
  app.add_option("--kcm-local", config.kcm_local, "kcm-local executable (default: beside this)");
  app.add_option("--requests", config.requests, "Requests per phase")->check(CLI::PositiveNumber);
  app.add_option("--threads", config.threads, "Threads sharing the client")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", config.json_out, "Write the results as JSON to this file");
  app.add_option("--tmp-dir", config.tmp_dir, "Where the data directory goes ($TMPDIR or /tmp)");
  CLI11_PARSE(app, argc, argv);
  if (config.kcm_local.empty()) config.kcm_local = kcm::bench::beside_this_benchmark("kcm-local");
  if (auto found = kcm::bench::require_executable("kcm-local", config.kcm_local); !found) {
    std::fprintf(stderr, "rest_client_bench: %s\n", found.error().c_str());
    return 2;
  }
  return kcm::bench::run(config);
}
