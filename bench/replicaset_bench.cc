// kcm's ReplicaSet controller end to end (issue 5). Starts kcm-local
// (--unsafe-no-fsync, --pod-ready-delay 0, enough simulated nodes) and kcm
// (--controllers=replicaset-controller, client rate limits lifted) as
// separate processes, reads kcm's idle RSS, creates N ReplicaSets of M
// replicas (distinct selectors) and waits, through a watch, until every one
// reports status.readyReplicas == M. Prints the wall time from the first
// create, kcm's CPU and memory, kcm-local's CPU, the writes the server
// committed and the writes kcm made; writes --json. See docs/benchmarks.md.
#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>

#include "bench/bench_flags.h"
#include "bench/collection_watch.h"
#include "bench/completion_tracker.h"
#include "bench/controller_harness.h"
#include "bench/observed_writes.h"
#include "bench/proc_stats.h"

namespace kcm::bench {

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr std::string_view kNamespace = "bench";
constexpr std::string_view kImage = "registry.example.com/bench/app:1";

struct Config {
  CommonFlags common;
  int replicasets = 100;
  int replicas = 100;
};

std::string replica_set_body(int index, int replicas) {
  const std::string app = "rs-" + std::to_string(index);
  const json::object labels{{"app", app}};
  json::object rs{{"apiVersion", "apps/v1"},
                  {"kind", "ReplicaSet"},
                  {"metadata", json::object{{"name", app}, {"namespace", kNamespace}}}};
  rs["spec"] = json::object{{"replicas", replicas},
                            {"selector", json::object{{"matchLabels", labels}}},
                            {"template", pod_template(labels, std::string(kImage))}};
  return json::serialize(rs);
}

void print_phase(const PhaseFigures& f, const json::object& observed) {
  std::printf("  kcm CPU             %.2f s (%.0f%% of one core)\n", f.kcm_cpu_seconds,
              f.seconds > 0 ? 100 * f.kcm_cpu_seconds / f.seconds : 0);
  std::printf("  kcm RSS             peak %.1f MiB, at the end %.1f MiB\n",
              mib(f.kcm_peak_rss_bytes), mib(f.kcm_rss_end_bytes));
  std::printf("  kcm-local CPU       %.2f s (API server + simulated scheduler and kubelets)\n",
              f.server_cpu_seconds);
  std::printf("  server writes       %llu committed (%.0f/s)\n",
              static_cast<unsigned long long>(f.server_writes), f.server_writes_per_second());
  if (f.kcm_requests_present) {
    std::printf("  kcm writes          %.0f (rest_client_requests_total:", f.kcm_writes);
    for (const auto& [method, n] : f.kcm_requests_by_method)
      std::printf(" %s %.0f", method.c_str(), n);
    std::printf(")\n");
  } else {
    std::printf("  kcm writes          rest_client_requests_total absent from kcm's /metrics\n");
  }
  if (!observed.empty()) {
    std::printf("  kcm writes seen     %llu by the server's watches (%s)\n",
                static_cast<unsigned long long>(observed.at("total").to_number<std::uint64_t>()),
                json::serialize(observed).c_str());
  }
  std::printf("  benchmark CPU       %.2f s\n", f.bench_cpu_seconds);
}

int run(int argc, char** argv) {
  Config config;
  CLI::App app{"kcm's ReplicaSet controller on kcm-local: N ReplicaSets x M replicas to Ready"};
  add_common_flags(app, config.common);
  auto* o_rs = app.add_option("--replicasets", config.replicasets, "ReplicaSets to create")
                   ->check(CLI::PositiveNumber)
                   ->capture_default_str();
  auto* o_replicas = app.add_option("--replicas", config.replicas, "Replicas of each")
                         ->check(CLI::PositiveNumber)
                         ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (config.common.quick) {
    if (o_rs->count() == 0) config.replicasets = 5;
    if (o_replicas->count() == 0) config.replicas = 20;
  }
  if (auto ok = resolve_common_flags(config.common, "kcm-replicaset-bench"); !ok) {
    std::fprintf(stderr, "replicaset_bench: %s\n", ok.error().c_str());
    return 2;
  }
  const std::size_t pods = static_cast<std::size_t>(config.replicasets) * config.replicas;
  int nodes = config.common.nodes;
  if (nodes == 0) {
    auto n = nodes_for_pods(pods);
    if (!n) {
      std::fprintf(stderr, "replicaset_bench: %s\n", n.error().c_str());
      return 2;
    }
    nodes = *n;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string commit =
      command_output("git -C " KCM_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null");
  json::object machine = machine_info();
  std::printf("replicaset_bench: %d ReplicaSets x %d replicas (%zu pods), %d simulated nodes\n",
              config.replicasets, config.replicas, pods, nodes);
  std::printf("machine: %u cpus, %s, load %s; commit %s\n", std::thread::hardware_concurrency(),
              machine["memory"].as_string().c_str(), load_average().c_str(), commit.c_str());

  json::object results;
  std::vector<std::string> problems;
  auto problem = [&](std::string p) {
    std::fprintf(stderr, "replicaset_bench: %s\n", p.c_str());
    problems.push_back(std::move(p));
  };

  HarnessOptions options;
  options.kcm_local = config.common.kcm_local;
  options.kcm = config.common.kcm;
  options.work_dir = config.common.tmp_dir;
  options.nodes = nodes;
  options.pod_ready_delay = config.common.pod_ready_delay;
  options.pod_terminate_delay = config.common.pod_terminate_delay;
  options.controllers = "replicaset-controller";
  options.kcm_extra_args = config.common.kcm_args;
  options.connections = config.common.connections;
  options.idle_seconds = config.common.idle_s;
  auto harness = ControllerHarness::start(options);
  if (!harness) {
    std::fprintf(stderr, "replicaset_bench: %s\n", harness.error().c_str());
    return 1;
  }
  ControllerHarness& h = **harness;
  const std::string ns(kNamespace);
  const std::string rs_collection = "/apis/apps/v1/namespaces/" + ns + "/replicasets";

  // Runs the measured part; returns early on a fatal problem.
  [&] {
    if (auto ok = h.create_namespace(ns); !ok) return problem(ok.error());
    if (auto ok = h.start_kcm(); !ok) return problem(ok.error());
    results["kcm_idle_rss_bytes"] = h.kcm_idle_rss_bytes();
    std::printf("kcm idle RSS: %.1f MiB (after %.0f s idle)\n", mib(h.kcm_idle_rss_bytes()),
                config.common.idle_s);

    auto before = h.snapshot();
    if (!before) return problem(before.error());
    const bool count_from_watches = config.common.server_view || !before->kcm_requests.present;
    if (!before->kcm_requests.present) {
      std::printf(
          "kcm's /metrics has no rest_client_requests_total: counting kcm's writes from "
          "the server's watches instead\n");
    }
    const int replicas = config.replicas;
    CompletionTracker tracker(static_cast<std::size_t>(config.replicasets),
                              [replicas](const json::object& rs) {
                                return int_at(rs, {"status", "readyReplicas"}) == replicas;
                              });
    ObservedWrites observed({"replicaset-controller"});
    const CollectionWatch::Handler count_rs = observed.replica_sets();
    auto rs_watch = CollectionWatch::start(h.api(), rs_collection,
                                           [&](WatchEventType t, const json::object& o) {
                                             tracker.observe(t, o);
                                             if (count_from_watches) count_rs(t, o);
                                           });
    if (!rs_watch) return problem(rs_watch.error());
    std::vector<std::unique_ptr<CollectionWatch>> extra_watches;
    if (count_from_watches) {
      for (auto [collection, handler] :
           {std::pair{"/api/v1/namespaces/" + ns + "/pods", observed.pods()},
            std::pair{"/api/v1/namespaces/" + ns + "/events", observed.events()}}) {
        auto w = CollectionWatch::start(h.api(), collection, handler);
        if (!w) return problem(w.error());
        extra_watches.push_back(std::move(*w));
      }
    }

    std::vector<ApiRequest> creates;
    for (int i = 0; i < config.replicasets; ++i) {
      creates.push_back(ApiRequest{.verb = http::verb::post,
                                   .target = rs_collection,
                                   .body = replica_set_body(i, config.replicas),
                                   .expect = 201});
    }
    auto start = h.snapshot();
    if (!start) return problem(start.error());
    const BatchOutcome created = h.api().run_batch(creates);
    std::printf("created %zu ReplicaSets in %.3f s over %d connections\n", created.requests,
                created.seconds, config.common.connections);
    if (created.errors > 0) {
      problem(std::to_string(created.errors) + " creates failed, first: " + created.first_error);
    }
    std::string crash;
    const auto done = tracker.wait(std::chrono::seconds(config.common.timeout_s), [&] {
      crash = h.crashed();
      return crash.empty();
    });
    auto end = h.snapshot(done ? std::optional(done->at) : std::nullopt,
                          done ? std::optional(done->revision) : std::nullopt);
    for (auto& w : extra_watches)
      w->stop();
    rs_watch.value()->stop();
    if (!end) return problem(end.error());
    const PhaseFigures f = phase_between(*start, *end);
    json::object phase = f.to_json();
    phase["complete"] = done.has_value();
    phase["ready_replicasets"] = tracker.passing();
    phase["watch_relists"] = (*rs_watch)->relists();
    if (!done && crash.empty()) {
      if (auto census = h.pod_census(ns); census) {
        json::object o;
        std::printf("  pods by phase and readiness:");
        for (const auto& [k, n] : *census) {
          std::printf(" %s %llu", k.c_str(), static_cast<unsigned long long>(n));
          o[k] = n;
        }
        std::printf("\n");
        phase["pods_by_state"] = std::move(o);
      }
    }
    if (!done) {
      problem(!crash.empty() ? crash
                             : "timed out after " + std::to_string(config.common.timeout_s) +
                                   " s: " + std::to_string(tracker.passing()) + " of " +
                                   std::to_string(config.replicasets) + " ReplicaSets ready");
    }
    json::object observed_json;
    if (count_from_watches) {
      observed_json = observed.counts().to_json();
      phase["kcm_writes_seen_by_server"] = observed_json;
    }
    std::printf("%s after %.2f s (from the first create)\n",
                done ? "all ReplicaSets ready" : "NOT COMPLETE", f.seconds);
    print_phase(f, observed_json);
    if (auto n = h.count("/api/v1/namespaces/" + ns + "/pods"); n) {
      phase["pods_at_end"] = *n;
      std::printf("  pods at the end     %llu\n", static_cast<unsigned long long>(*n));
      if (done && *n != pods) {
        problem(std::to_string(*n) + " pods exist, expected " + std::to_string(pods));
      }
    }
    std::printf("load: %s before, %s at the end\n", start->load.c_str(), end->load.c_str());
    results["ready"] = std::move(phase);
    results["load_before"] = start->load;
  }();

  json::object processes;
  const bool keep = config.common.keep_data || !problems.empty();
  h.finish(processes, keep);
  if (keep) std::printf("data and logs kept in %s\n", config.common.tmp_dir.c_str());
  if (processes.contains("kcm_exit") && processes["kcm_exit"].as_string() != "exit 0") {
    problem("kcm ended with " + std::string(processes["kcm_exit"].as_string()));
  }
  if (processes["server_exit"].as_string() != "exit 0") {
    problem("kcm-local ended with " + std::string(processes["server_exit"].as_string()));
  }
  results["processes"] = std::move(processes);
  machine["load_at_end"] = load_average();

  if (!config.common.json_out.empty()) {
    json::array problem_list;
    for (const auto& p : problems)
      problem_list.emplace_back(p);
    json::object doc{{"benchmark", "replicaset_bench"},
                     {"commit", commit},
                     {"machine", std::move(machine)},
                     {"config", json::object{{"quick", config.common.quick},
                                             {"replicasets", config.replicasets},
                                             {"replicas", config.replicas},
                                             {"nodes", nodes},
                                             {"connections", config.common.connections}}},
                     {"results", std::move(results)},
                     {"problems", std::move(problem_list)}};
    std::ofstream out(config.common.json_out);
    out << json::serialize(doc) << "\n";
    if (!out) {
      std::fprintf(stderr, "replicaset_bench: cannot write %s\n", config.common.json_out.c_str());
      return 1;
    }
    std::printf("wrote %s\n", config.common.json_out.c_str());
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace

}  // namespace kcm::bench

int main(int argc, char** argv) {
  return kcm::bench::run(argc, argv);
}
