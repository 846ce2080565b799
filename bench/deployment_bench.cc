// kcm's Deployment controller end to end (issue 6). Starts kcm-local
// (--unsafe-no-fsync, --pod-ready-delay 0, --pod-terminate-delay 0, enough
// simulated nodes) and first measures its physical write rate: the benchmark
// creates and deletes P pods itself over C connections. Then it starts kcm
// (--controllers=replicaset-controller,deployment-controller, client rate
// limits lifted), creates N Deployments of M replicas and waits until all are
// rolled out (status.replicas == updatedReplicas == availableReplicas == M,
// observedGeneration == generation), then patches every Deployment's image
// and waits for the second rollout. Then it stops kcm and measures the
// server's write rate again; the faster calibration is the physical rate. For
// each phase and in total: wall time, kcm's CPU and peak RSS, the writes kcm
// made, the writes the server committed per second, and the two
// ratios: the wall time over the time the server needs for the writes alone
// (at the physical rate), and kcm's CPU over the server's. Writes --json. See
// docs/benchmarks.md.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "bench/bench_flags.h"
#include "bench/collection_watch.h"
#include "bench/completion_tracker.h"
#include "bench/controller_harness.h"
#include "bench/observed_writes.h"
#include "bench/proc_stats.h"

namespace kcm::bench {

namespace {

namespace json = boost::json;

constexpr std::string_view kNamespace = "bench";
constexpr std::string_view kCalibrationNamespace = "bench-calibration";
constexpr std::string_view kImage1 = "registry.example.com/bench/app:1";
constexpr std::string_view kImage2 = "registry.example.com/bench/app:2";

struct Config {
  CommonFlags common;
  int deployments = 1000;
  int replicas = 10;
  int calibration_pods = 10000;
  // The calibration is short (about 2 s) and a busy moment on a shared
  // machine slows it by a third: the best of several rounds is the rate.
  int calibration_rounds = 3;
};

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
                           {"template", pod_template(labels, std::string(kImage1))}};
  return json::serialize(d);
}

// A merge patch replacing the template's container list with the same
// container running `image`.
std::string image_patch(int index) {
  json::object tmpl =
      pod_template(json::object{{"app", deployment_name(index)}}, std::string(kImage2));
  json::object spec{{"containers", tmpl["spec"].as_object()["containers"]}};
  return json::serialize(
      json::object{{"spec", json::object{{"template", json::object{{"spec", spec}}}}}});
}

// Rolled out as `kubectl rollout status` would say, at generation >= min_generation.
CompletionTracker::Predicate rolled_out(int replicas, std::int64_t min_generation) {
  return [replicas, min_generation](const json::object& d) {
    const auto generation = int_at(d, {"metadata", "generation"});
    const auto observed = int_at(d, {"status", "observedGeneration"});
    return generation && *generation >= min_generation && observed && *observed >= *generation &&
           int_at(d, {"status", "replicas"}) == replicas &&
           int_at(d, {"status", "updatedReplicas"}) == replicas &&
           int_at(d, {"status", "availableReplicas"}) == replicas;
  };
}

struct PhaseReport {
  std::string name;
  PhaseFigures figures;
  bool complete = false;
  std::size_t passing = 0;
  json::object observed;  // kcm writes seen by the server's watches, when counted
};

double kcm_writes_of(const PhaseReport& p) {
  if (p.figures.kcm_requests_present) return p.figures.kcm_writes;
  const json::value* total = p.observed.if_contains("total");
  return total != nullptr ? total->to_number<double>() : 0;
}

json::object ratios(const PhaseReport& p, double physical_rate) {
  const PhaseFigures& f = p.figures;
  json::object o;
  o["kcm_cpu_over_server_cpu"] =
      f.server_cpu_seconds > 0 ? f.kcm_cpu_seconds / f.server_cpu_seconds : 0;
  if (physical_rate <= 0 || f.seconds <= 0) return o;  // no calibration
  const double server_time = static_cast<double>(f.server_writes) / physical_rate;
  const double kcm_time = kcm_writes_of(p) / physical_rate;
  o["server_seconds_for_all_writes"] = server_time;
  o["time_over_all_writes"] = server_time > 0 ? f.seconds / server_time : 0;
  o["server_seconds_for_kcm_writes"] = kcm_time;
  o["time_over_kcm_writes"] = kcm_time > 0 ? f.seconds / kcm_time : 0;
  return o;
}

void print_table(const std::vector<PhaseReport>& phases, double physical_rate) {
  std::printf("\n  %-13s %8s %9s %9s %10s %10s %9s %9s %8s %8s %7s\n", "phase", "wall s",
              "kcm CPU s", "srv CPU s", "kcm peak", "kcm writes", "srv wr", "srv wr/s", "t/all",
              "t/kcm", "cpu k/s");
  for (const auto& p : phases) {
    const PhaseFigures& f = p.figures;
    const json::object r = ratios(p, physical_rate);
    // "-" where there is no figure (no calibration run).
    auto ratio = [&](const char* k) {
      const json::value* v = r.if_contains(k);
      char buf[32] = "-";
      if (v != nullptr) std::snprintf(buf, sizeof buf, "%.2fx", v->to_number<double>());
      return std::string(buf);
    };
    std::printf("  %-13s %8.2f %9.2f %9.2f %6.1f MiB %10.0f %9llu %9.0f %8s %8s %7.3f\n",
                p.name.c_str(), f.seconds, f.kcm_cpu_seconds, f.server_cpu_seconds,
                mib(f.kcm_peak_rss_bytes), kcm_writes_of(p),
                static_cast<unsigned long long>(f.server_writes), f.server_writes_per_second(),
                ratio("time_over_all_writes").c_str(), ratio("time_over_kcm_writes").c_str(),
                r.at("kcm_cpu_over_server_cpu").to_number<double>());
  }
  std::printf(
      "  (kcm writes: %s; t/all = wall / (server writes / physical rate), t/kcm = wall / (kcm "
      "writes / physical rate), cpu k/s = kcm CPU / kcm-local CPU)\n",
      !phases.empty() && phases.front().figures.kcm_requests_present
          ? "POST+PUT+PATCH+DELETE of kcm's rest_client_requests_total"
          : "seen by the server's watches (no rest_client_requests_total)");
  for (const auto& p : phases) {
    if (!p.figures.kcm_requests_present) continue;
    std::printf("  %-13s kcm requests:", p.name.c_str());
    for (const auto& [method, n] : p.figures.kcm_requests_by_method)
      std::printf(" %s %.0f", method.c_str(), n);
    std::printf("; by code:");
    for (const auto& [key, n] : p.figures.kcm_requests_by_method_code)
      std::printf(" [%s] %.0f", key.c_str(), n);
    std::printf("\n");
  }
  for (const auto& p : phases) {
    if (p.figures.kcm_syncs_by_queue.empty()) continue;
    std::printf("  %-13s kcm syncs (workqueue items processed):", p.name.c_str());
    for (const auto& [queue, n] : p.figures.kcm_syncs_by_queue)
      std::printf(" %s %.0f", queue.c_str(), n);
    std::printf("\n");
  }
  for (const auto& p : phases) {
    if (!p.observed.empty()) {
      std::printf("  %-13s kcm writes seen by the server: %s\n", p.name.c_str(),
                  json::serialize(p.observed).c_str());
    }
  }
}

int run(int argc, char** argv) {
  Config config;
  CLI::App app{
      "kcm's Deployment controller on kcm-local: N Deployments x M replicas rolled out, "
      "then an image change rolled out"};
  add_common_flags(app, config.common);
  auto* o_d = app.add_option("--deployments", config.deployments, "Deployments to create")
                  ->check(CLI::PositiveNumber)
                  ->capture_default_str();
  auto* o_replicas = app.add_option("--replicas", config.replicas, "Replicas of each")
                         ->check(CLI::PositiveNumber)
                         ->capture_default_str();
  auto* o_cal = app.add_option("--calibration-pods", config.calibration_pods,
                               "Pods the benchmark creates and deletes to measure the server's "
                               "physical write rate (0: skip)")
                    ->check(CLI::NonNegativeNumber)
                    ->capture_default_str();
  auto* o_rounds = app.add_option("--calibration-rounds", config.calibration_rounds,
                                  "Calibration rounds; the fastest gives the physical write rate")
                       ->check(CLI::PositiveNumber)
                       ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (config.common.quick) {
    if (o_d->count() == 0) config.deployments = 20;
    if (o_replicas->count() == 0) config.replicas = 3;
    if (o_cal->count() == 0) config.calibration_pods = 200;
    if (o_rounds->count() == 0) config.calibration_rounds = 1;
  }
  if (auto ok = resolve_common_flags(config.common, "kcm-deployment-bench"); !ok) {
    std::fprintf(stderr, "deployment_bench: %s\n", ok.error().c_str());
    return 2;
  }
  const std::size_t pods = static_cast<std::size_t>(config.deployments) * config.replicas;
  // A rolling update surges by 25 % (rounded up) of each Deployment's replicas.
  const std::size_t surge = static_cast<std::size_t>(config.deployments) *
                            static_cast<std::size_t>((config.replicas + 3) / 4);
  int nodes = config.common.nodes;
  if (nodes == 0) {
    auto n = nodes_for_pods(pods + surge);
    if (!n) {
      std::fprintf(stderr, "deployment_bench: %s\n", n.error().c_str());
      return 2;
    }
    nodes = *n;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string commit =
      command_output("git -C " KCM_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null");
  json::object machine = machine_info();
  std::printf("deployment_bench: %d Deployments x %d replicas (%zu pods), %d simulated nodes\n",
              config.deployments, config.replicas, pods, nodes);
  std::printf("machine: %u cpus, %s, load %s; commit %s\n", std::thread::hardware_concurrency(),
              machine["memory"].as_string().c_str(), load_average().c_str(), commit.c_str());

  json::object results;
  std::vector<std::string> problems;
  auto problem = [&](std::string p) {
    std::fprintf(stderr, "deployment_bench: %s\n", p.c_str());
    problems.push_back(std::move(p));
  };

  HarnessOptions options;
  options.kcm_local = config.common.kcm_local;
  options.kcm = config.common.kcm;
  options.work_dir = config.common.tmp_dir;
  options.nodes = nodes;
  options.pod_ready_delay = config.common.pod_ready_delay;
  options.pod_terminate_delay = config.common.pod_terminate_delay;
  options.controllers = "replicaset-controller,deployment-controller";
  options.kcm_extra_args = config.common.kcm_args;
  options.connections = config.common.connections;
  options.idle_seconds = config.common.idle_s;
  auto harness = ControllerHarness::start(options);
  if (!harness) {
    std::fprintf(stderr, "deployment_bench: %s\n", harness.error().c_str());
    return 1;
  }
  ControllerHarness& h = **harness;
  const std::string ns(kNamespace);
  const std::string collection = "/apis/apps/v1/namespaces/" + ns + "/deployments";
  double physical_rate = 0;

  // The server's physical write rate: the fastest of `calibration_rounds`
  // rounds in which the benchmark alone writes. Runs before kcm starts and
  // again after kcm stopped, so the rate brackets the phases: a machine that
  // was faster or slower at one end shows in the two figures.
  auto calibrate = [&](const char* when) -> Result<json::object> {
    const std::string cal_ns(kCalibrationNamespace);
    std::optional<Calibration> cal;
    json::array round_rates;
    for (int round = 0; round < config.calibration_rounds; ++round) {
      auto r = calibrate_pod_writes(
          h, cal_ns, static_cast<std::size_t>(config.calibration_pods),
          pod_template(json::object{{"app", "calibration"}}, std::string(kImage1)));
      if (!r) return fail(r.error());
      round_rates.push_back(r->writes_per_second);
      if (!cal || r->writes_per_second > cal->writes_per_second) cal = std::move(*r);
    }
    std::string rates;
    for (const json::value& v : round_rates)
      rates += (rates.empty() ? "" : ", ") + std::to_string(std::lround(v.as_double()));
    std::printf(
        "calibration %s: %zu pod creates + %zu deletes over %d connections, rounds %s writes/s; "
        "the fastest in %.2f s (creates %.0f/s, deletes %.0f/s), server CPU %.3f ms per write\n",
        when, cal->pods, cal->pods, config.common.connections, rates.c_str(), cal->seconds,
        cal->create_seconds > 0 ? static_cast<double>(cal->pods) / cal->create_seconds : 0,
        cal->delete_seconds > 0 ? static_cast<double>(cal->pods) / cal->delete_seconds : 0,
        cal->writes > 0 ? cal->server_cpu_seconds * 1000 / static_cast<double>(cal->writes) : 0);
    if (cal->errors > 0) {
      problem("calibration " + std::string(when) + ": " + std::to_string(cal->errors) +
              " requests failed, first: " + cal->first_error);
    }
    json::object c = cal->to_json();
    c["connections"] = config.common.connections;
    c["rounds_writes_per_second"] = std::move(round_rates);
    return c;
  };

  [&] {
    // 1. The server's physical write rate, before kcm runs.
    if (config.calibration_pods > 0) {
      if (auto ok = h.create_namespace(std::string(kCalibrationNamespace)); !ok) {
        return problem(ok.error());
      }
      auto c = calibrate("before kcm");
      if (!c) return problem(c.error());
      physical_rate = c->at("writes_per_second").to_number<double>();
      results["calibration"] = std::move(*c);
    }

    // 2. kcm, idle.
    if (auto ok = h.create_namespace(ns); !ok) return problem(ok.error());
    if (auto ok = h.start_kcm(); !ok) return problem(ok.error());
    results["kcm_idle_rss_bytes"] = h.kcm_idle_rss_bytes();
    std::printf("kcm idle RSS: %.1f MiB (after %.0f s idle)\n", mib(h.kcm_idle_rss_bytes()),
                config.common.idle_s);

    auto idle = h.snapshot();
    if (!idle) return problem(idle.error());
    const bool count_from_watches = config.common.server_view || !idle->kcm_requests.present;
    if (!idle->kcm_requests.present) {
      std::printf(
          "kcm's /metrics has no rest_client_requests_total: counting kcm's writes from "
          "the server's watches instead\n");
    }
    CompletionTracker tracker(static_cast<std::size_t>(config.deployments),
                              rolled_out(config.replicas, 1));
    ObservedWrites observed({"deployment-controller", "replicaset-controller"});
    const CollectionWatch::Handler count_watched = observed.deployments();
    auto watch =
        CollectionWatch::start(h.api(), collection, [&](WatchEventType t, const json::object& o) {
          tracker.observe(t, o);
          if (count_from_watches) count_watched(t, o);
        });
    if (!watch) return problem(watch.error());
    std::vector<std::unique_ptr<CollectionWatch>> extra_watches;
    if (count_from_watches) {
      for (auto [path, handler] :
           {std::pair{"/api/v1/namespaces/" + ns + "/pods", observed.pods()},
            std::pair{"/apis/apps/v1/namespaces/" + ns + "/replicasets", observed.replica_sets()},
            std::pair{"/api/v1/namespaces/" + ns + "/events", observed.events()}}) {
        auto w = CollectionWatch::start(h.api(), path, handler);
        if (!w) return problem(w.error());
        extra_watches.push_back(std::move(*w));
      }
    }

    std::vector<PhaseReport> phases;
    json::object observed_before = observed.counts().to_json();
    // Runs one phase: `requests` sent as fast as the server takes them, then
    // the wait for the tracker. False on a fatal problem.
    auto run_phase = [&](const std::string& name, const std::vector<ApiRequest>& requests) {
      auto start = h.snapshot();
      if (!start) {
        problem(start.error());
        return false;
      }
      const BatchOutcome sent = h.api().run_batch(requests);
      std::printf("%s: sent %zu requests in %.3f s over %d connections\n", name.c_str(),
                  sent.requests, sent.seconds, config.common.connections);
      if (sent.errors > 0) {
        problem(name + ": " + std::to_string(sent.errors) +
                " requests failed, first: " + sent.first_error);
      }
      std::string crash;
      const auto done = tracker.wait(std::chrono::seconds(config.common.timeout_s), [&] {
        crash = h.crashed();
        return crash.empty();
      });
      auto end = h.snapshot(done ? std::optional(done->at) : std::nullopt,
                            done ? std::optional(done->revision) : std::nullopt);
      if (!end) {
        problem(end.error());
        return false;
      }
      PhaseReport report{
          name, phase_between(*start, *end), done.has_value(), tracker.passing(), {}};
      if (count_from_watches) {
        // This phase's share: the counts now less those at its start.
        const json::object now = observed.counts().to_json();
        for (const auto& [k, v] : now) {
          report.observed[k] =
              v.to_number<std::int64_t>() - observed_before.at(k).to_number<std::int64_t>();
        }
        observed_before = now;
      }
      std::printf("%s: %s after %.2f s (%zu of %d Deployments rolled out)\n", name.c_str(),
                  done ? "rolled out" : "NOT COMPLETE", report.figures.seconds, report.passing,
                  config.deployments);
      if (!done && crash.empty()) {
        if (auto census = h.pod_census(ns); census) {
          std::printf("  pods by phase and readiness:");
          for (const auto& [k, n] : *census)
            std::printf(" %s %llu", k.c_str(), static_cast<unsigned long long>(n));
          std::printf("\n");
        }
      }
      phases.push_back(std::move(report));
      if (!done) {
        problem(name + ": " +
                (!crash.empty()
                     ? crash
                     : "timed out after " + std::to_string(config.common.timeout_s) + " s"));
        return false;
      }
      return true;
    };

    // 3. Create and roll out.
    std::vector<ApiRequest> creates;
    for (int i = 0; i < config.deployments; ++i) {
      creates.push_back(ApiRequest{.verb = http::verb::post,
                                   .target = collection,
                                   .body = deployment_body(i, config.replicas),
                                   .expect = 201});
    }
    bool ok = run_phase("create", creates);

    // 4. Change every image and roll out again.
    if (ok) {
      tracker.set_predicate(rolled_out(config.replicas, 2));
      std::vector<ApiRequest> patches;
      for (int i = 0; i < config.deployments; ++i) {
        patches.push_back(ApiRequest{.verb = http::verb::patch,
                                     .target = collection + "/" + deployment_name(i),
                                     .body = image_patch(i),
                                     .content_type = "application/merge-patch+json",
                                     .expect = 200});
      }
      run_phase("image change", patches);
    }
    for (auto& w : extra_watches)
      w->stop();
    (*watch)->stop();
    // 5. The physical write rate again, with kcm stopped; the faster of the
    // two calibrations is the rate the ratios use.
    if (config.calibration_pods > 0 && ok && phases.back().complete) {
      h.stop_kcm();
      auto c = calibrate("after kcm");
      if (!c) {
        problem(c.error());
      } else {
        const double before = physical_rate;
        const double after = c->at("writes_per_second").to_number<double>();
        physical_rate = std::max(before, after);
        std::printf("physical rate: %.0f writes/s (before kcm %.0f, after %.0f: %+.1f %%)\n",
                    physical_rate, before, after, before > 0 ? (after / before - 1) * 100 : 0.0);
        results["calibration_after"] = std::move(*c);
      }
    }
    if (phases.size() == 2) {
      PhaseReport total{"total",
                        combine(phases[0].figures, phases[1].figures),
                        phases[0].complete && phases[1].complete,
                        phases[1].passing,
                        {}};
      for (const auto& [k, v] : phases[0].observed) {
        total.observed[k] =
            v.to_number<std::int64_t>() + phases[1].observed.at(k).to_number<std::int64_t>();
      }
      phases.push_back(std::move(total));
    }
    print_table(phases, physical_rate);
    json::array phase_list;
    for (const auto& p : phases) {
      json::object o = p.figures.to_json();
      o["name"] = p.name;
      o["complete"] = p.complete;
      o["rolled_out"] = p.passing;
      if (!p.observed.empty()) o["kcm_writes_seen_by_server"] = p.observed;
      o["kcm_writes_counted"] = kcm_writes_of(p);
      o["ratios"] = ratios(p, physical_rate);
      phase_list.push_back(std::move(o));
    }
    results["phases"] = std::move(phase_list);
    results["watch_relists"] = (*watch)->relists();
    if (!phases.empty()) {
      const PhaseReport& last = phases.back();
      const json::object r = ratios(last, physical_rate);
      if (r.contains("time_over_all_writes")) {
        std::printf(
            "\naim (issue 6), over both phases: wall %.1f s vs. %.1f s the server needs for its "
            "%llu writes at %.0f writes/s: %.2fx (kcm's %.0f writes alone: %.1f s, %.2fx); "
            "kcm CPU / kcm-local CPU = %.3f\n",
            last.figures.seconds, r.at("server_seconds_for_all_writes").to_number<double>(),
            static_cast<unsigned long long>(last.figures.server_writes), physical_rate,
            r.at("time_over_all_writes").to_number<double>(), kcm_writes_of(last),
            r.at("server_seconds_for_kcm_writes").to_number<double>(),
            r.at("time_over_kcm_writes").to_number<double>(),
            r.at("kcm_cpu_over_server_cpu").to_number<double>());
      }
    }
    if (auto census = h.pod_census(ns); census) {
      json::object o;
      std::printf("pods at the end (expected %zu Running/Ready=True once the old ones are gone):",
                  pods);
      for (const auto& [k, n] : *census) {
        std::printf(" %s %llu", k.c_str(), static_cast<unsigned long long>(n));
        o[k] = n;
      }
      std::printf("\n");
      results["pods_at_end"] = std::move(o);
    }
    if (auto n = h.count("/apis/apps/v1/namespaces/" + ns + "/replicasets"); n) {
      results["replicasets_at_end"] = *n;
    }
    std::printf("load: %s at the start, %s at the end\n", idle->load.c_str(),
                load_average().c_str());
    results["load_before"] = idle->load;
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
    json::object doc{{"benchmark", "deployment_bench"},
                     {"commit", commit},
                     {"machine", std::move(machine)},
                     {"config", json::object{{"quick", config.common.quick},
                                             {"deployments", config.deployments},
                                             {"replicas", config.replicas},
                                             {"calibration_pods", config.calibration_pods},
                                             {"calibration_rounds", config.calibration_rounds},
                                             {"nodes", nodes},
                                             {"connections", config.common.connections}}},
                     {"physical_writes_per_second", physical_rate},
                     {"results", std::move(results)},
                     {"problems", std::move(problem_list)}};
    std::ofstream out(config.common.json_out);
    out << json::serialize(doc) << "\n";
    if (!out) {
      std::fprintf(stderr, "deployment_bench: cannot write %s\n", config.common.json_out.c_str());
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
