// kcm's garbage collector end to end (issue 7). Starts kcm-local (as the
// other controller benchmarks: --unsafe-no-fsync, pods Ready and terminated
// at once, enough simulated nodes) and kcm with the Deployment, ReplicaSet
// and garbage-collector controllers; creates N Deployments of M replicas and
// waits until they are rolled out; then deletes every Deployment at once
// (background cascade, kubectl's default) and waits until the last
// ReplicaSet and pod are gone. Prints the deletion's wall time, kcm's CPU,
// peak RSS and writes, and the server's writes. Writes --json. See
// docs/benchmarks.md.
#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <thread>

#include "bench/bench_flags.h"
#include "bench/collection_watch.h"
#include "bench/completion_tracker.h"
#include "bench/controller_harness.h"
#include "bench/proc_stats.h"

namespace kcm::bench {
namespace {

namespace json = boost::json;

constexpr std::string_view kNamespace = "bench";
constexpr std::string_view kImage = "registry.example.com/bench/app:1";

std::string deployment_name(int index) {
  return "d-" + std::to_string(index);
}

std::string deployment_body(int index, int replicas) {
  const std::string name = deployment_name(index);
  const json::object labels{{"app", name}};
  json::object d{{"apiVersion", "apps/v1"},
                 {"kind", "Deployment"},
                 {"metadata", json::object{{"name", name}, {"namespace", kNamespace}}}};
  d["spec"] = json::object{{"replicas", replicas},
                           {"selector", json::object{{"matchLabels", labels}}},
                           {"template", pod_template(labels, std::string(kImage))}};
  return json::serialize(d);
}

CompletionTracker::Predicate available(int replicas) {
  return [replicas](const json::object& d) {
    return int_at(d, {"status", "availableReplicas"}) == replicas &&
           int_at(d, {"status", "updatedReplicas"}) == replicas;
  };
}

void print_phase(const std::string& name, const PhaseFigures& f) {
  std::printf(
      "  %-8s wall %7.2f s  kcm CPU %6.2f s  kcm-local CPU %6.2f s  kcm peak %6.1f MiB  "
      "kcm writes %7.0f  server writes %7llu (%.0f/s)\n",
      name.c_str(), f.seconds, f.kcm_cpu_seconds, f.server_cpu_seconds, mib(f.kcm_peak_rss_bytes),
      f.kcm_writes, static_cast<unsigned long long>(f.server_writes), f.server_writes_per_second());
  if (!f.kcm_requests_present) return;
  std::printf("  %-8s kcm requests:", name.c_str());
  for (const auto& [key, n] : f.kcm_requests_by_method_code)
    std::printf(" [%s] %.0f", key.c_str(), n);
  std::printf("\n");
}

int run(int argc, char** argv) {
  CommonFlags common;
  int deployments = 1000;
  int replicas = 10;
  CLI::App app{
      "kcm's garbage collector on kcm-local: N Deployments x M replicas rolled out, then all "
      "deleted at once (background cascade) until the last pod is gone"};
  add_common_flags(app, common);
  auto* o_d = app.add_option("--deployments", deployments, "Deployments to create and delete")
                  ->check(CLI::PositiveNumber)
                  ->capture_default_str();
  auto* o_r = app.add_option("--replicas", replicas, "Replicas of each")
                  ->check(CLI::PositiveNumber)
                  ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (common.quick) {
    if (o_d->count() == 0) deployments = 20;
    if (o_r->count() == 0) replicas = 3;
  }
  if (auto ok = resolve_common_flags(common, "kcm-gc-bench"); !ok) {
    std::fprintf(stderr, "gc_bench: %s\n", ok.error().c_str());
    return 2;
  }
  const std::size_t pods = static_cast<std::size_t>(deployments) * replicas;
  int nodes = common.nodes;
  if (nodes == 0) {
    auto n = nodes_for_pods(pods);
    if (!n) {
      std::fprintf(stderr, "gc_bench: %s\n", n.error().c_str());
      return 2;
    }
    nodes = *n;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string commit =
      command_output("git -C " KCM_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null");
  json::object machine = machine_info();
  std::printf("gc_bench: %d Deployments x %d replicas (%zu pods), %d simulated nodes\n",
              deployments, replicas, pods, nodes);
  std::printf("machine: %u cpus, %s, load %s; commit %s\n", std::thread::hardware_concurrency(),
              machine["memory"].as_string().c_str(), load_average().c_str(), commit.c_str());

  json::object results;
  std::vector<std::string> problems;
  auto problem = [&](std::string p) {
    std::fprintf(stderr, "gc_bench: %s\n", p.c_str());
    problems.push_back(std::move(p));
  };

  HarnessOptions options;
  options.kcm_local = common.kcm_local;
  options.kcm = common.kcm;
  options.work_dir = common.tmp_dir;
  options.nodes = nodes;
  options.pod_ready_delay = common.pod_ready_delay;
  options.pod_terminate_delay = common.pod_terminate_delay;
  options.controllers = "replicaset-controller,deployment-controller,garbage-collector-controller";
  options.kcm_extra_args = common.kcm_args;
  options.connections = common.connections;
  options.idle_seconds = common.idle_s;
  auto harness = ControllerHarness::start(options);
  if (!harness) {
    std::fprintf(stderr, "gc_bench: %s\n", harness.error().c_str());
    return 1;
  }
  ControllerHarness& h = **harness;
  const std::string ns(kNamespace);
  const std::string deployments_path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
  const std::string rs_path = "/apis/apps/v1/namespaces/" + ns + "/replicasets";
  const std::string pods_path = "/api/v1/namespaces/" + ns + "/pods";

  [&] {
    if (auto ok = h.create_namespace(ns); !ok) return problem(ok.error());
    if (auto ok = h.start_kcm(); !ok) return problem(ok.error());
    results["kcm_idle_rss_bytes"] = h.kcm_idle_rss_bytes();
    std::printf("kcm idle RSS: %.1f MiB (after %.0f s idle)\n", mib(h.kcm_idle_rss_bytes()),
                common.idle_s);

    // 1. Roll out.
    CompletionTracker tracker(static_cast<std::size_t>(deployments), available(replicas));
    auto watch = CollectionWatch::start(
        h.api(), deployments_path,
        [&](WatchEventType t, const json::object& o) { tracker.observe(t, o); });
    if (!watch) return problem(watch.error());
    std::vector<ApiRequest> creates;
    for (int i = 0; i < deployments; ++i) {
      creates.push_back(ApiRequest{.verb = http::verb::post,
                                   .target = deployments_path,
                                   .body = deployment_body(i, replicas),
                                   .expect = 201});
    }
    auto start = h.snapshot();
    if (!start) return problem(start.error());
    const BatchOutcome created = h.api().run_batch(creates);
    if (created.errors > 0) return problem("create: " + created.first_error);
    const auto rolled_out =
        tracker.wait(std::chrono::seconds(common.timeout_s), [&] { return h.crashed().empty(); });
    (*watch)->stop();
    if (!rolled_out) return problem("create: not rolled out: " + h.crashed());
    auto ready = h.snapshot(rolled_out->at, rolled_out->revision);
    if (!ready) return problem(ready.error());
    const PhaseFigures create_phase = phase_between(*start, *ready);
    std::printf("create: %zu pods available after %.2f s\n", pods, create_phase.seconds);

    // 2. Delete every Deployment; the garbage collector removes the rest.
    auto before_delete = h.snapshot();
    if (!before_delete) return problem(before_delete.error());
    std::vector<ApiRequest> deletes;
    for (int i = 0; i < deployments; ++i) {
      deletes.push_back(ApiRequest{.verb = http::verb::delete_,
                                   .target = deployments_path + "/" + deployment_name(i),
                                   .expect = 200});
    }
    const BatchOutcome deleted = h.api().run_batch(deletes);
    std::printf("delete: sent %zu DELETEs in %.3f s over %d connections\n", deleted.requests,
                deleted.seconds, common.connections);
    if (deleted.errors > 0) return problem("delete: " + deleted.first_error);
    // Polled: a count is one small list (limit=1 and remainingItemCount).
    const auto deadline = Clock::now() + std::chrono::seconds(common.timeout_s);
    std::uint64_t left_pods = pods;
    std::uint64_t left_rss = static_cast<std::uint64_t>(deployments);
    Clock::time_point gone_at;
    while (true) {
      auto p = h.count(pods_path);
      auto r = h.count(rs_path);
      if (!p || !r) return problem(!p ? p.error() : r.error());
      left_pods = *p;
      left_rss = *r;
      if (left_pods == 0 && left_rss == 0) {
        gone_at = Clock::now();
        break;
      }
      if (Clock::now() > deadline || !h.crashed().empty()) {
        return problem("delete: " + std::to_string(left_pods) + " pods and " +
                       std::to_string(left_rss) + " ReplicaSets left " + h.crashed());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    auto end = h.snapshot(gone_at);
    if (!end) return problem(end.error());
    const PhaseFigures delete_phase = phase_between(*before_delete, *end);
    std::printf("delete: last pod and ReplicaSet gone after %.2f s\n\n", delete_phase.seconds);
    print_phase("create", create_phase);
    print_phase("delete", delete_phase);
    json::object c = create_phase.to_json();
    c["name"] = "create";
    json::object d = delete_phase.to_json();
    d["name"] = "delete";
    results["phases"] = json::array{std::move(c), std::move(d)};
    std::printf("load: %s at the start, %s at the end\n", start->load.c_str(),
                load_average().c_str());
  }();

  json::object processes;
  const bool keep = common.keep_data || !problems.empty();
  h.finish(processes, keep);
  if (keep) std::printf("data and logs kept in %s\n", common.tmp_dir.c_str());
  if (processes.contains("kcm_exit") && processes["kcm_exit"].as_string() != "exit 0") {
    problem("kcm ended with " + std::string(processes["kcm_exit"].as_string()));
  }
  results["processes"] = std::move(processes);
  if (!common.json_out.empty()) {
    json::array problem_list;
    for (const auto& p : problems)
      problem_list.emplace_back(p);
    json::object doc{
        {"benchmark", "gc_bench"},
        {"commit", commit},
        {"machine", std::move(machine)},
        {"config",
         json::object{{"deployments", deployments}, {"replicas", replicas}, {"nodes", nodes}}},
        {"results", std::move(results)},
        {"problems", std::move(problem_list)}};
    std::ofstream out(common.json_out);
    out << json::serialize(doc) << "\n";
    if (!out) {
      std::fprintf(stderr, "gc_bench: cannot write %s\n", common.json_out.c_str());
      return 1;
    }
    std::printf("wrote %s\n", common.json_out.c_str());
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace
}  // namespace kcm::bench

int main(int argc, char** argv) {
  return kcm::bench::run(argc, argv);
}
