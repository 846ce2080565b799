#include "bench/controller_harness.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

#include "bench/completion_tracker.h"
#include "bench/proc_stats.h"
#include "bench/prometheus_text.h"

namespace kcm::bench {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

constexpr int kPodsPerNode = 110;  // kcm-local's node capacity ("pods": "110")
constexpr int kMaxNodes = 200;     // kcm-local --nodes at most

double value_or_zero(const Result<double>& r) {
  return r ? *r : 0;
}
std::uint64_t value_or_zero(const Result<std::uint64_t>& r) {
  return r ? *r : 0;
}

json::object to_json(const std::map<std::string, double>& m) {
  json::object o;
  for (const auto& [k, v] : m)
    o[k] = v;
  return o;
}

std::map<std::string, double> difference(const std::map<std::string, double>& end,
                                         const std::map<std::string, double>& begin) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : end) {
    const auto it = begin.find(k);
    const double d = v - (it == begin.end() ? 0 : it->second);
    if (d != 0) out[k] = d;
  }
  return out;
}

std::string first_line_of(const std::string& file, std::string_view prefix) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

}  // namespace

double KcmRequests::writes() const {
  double n = 0;
  for (const char* m : {"POST", "PUT", "PATCH", "DELETE"}) {
    const auto it = by_method.find(m);
    if (it != by_method.end()) n += it->second;
  }
  return n;
}

double PhaseFigures::server_writes_per_second() const {
  return seconds > 0 ? static_cast<double>(server_writes) / seconds : 0;
}

json::object PhaseFigures::to_json() const {
  json::object o{{"seconds", seconds},
                 {"kcm_cpu_seconds", kcm_cpu_seconds},
                 {"server_cpu_seconds", server_cpu_seconds},
                 {"bench_cpu_seconds", bench_cpu_seconds},
                 {"kcm_peak_rss_bytes", kcm_peak_rss_bytes},
                 {"kcm_rss_end_bytes", kcm_rss_end_bytes},
                 {"server_rss_end_bytes", server_rss_end_bytes},
                 {"server_writes", server_writes},
                 {"server_writes_per_second", server_writes_per_second()},
                 {"kcm_requests_metric_present", kcm_requests_present},
                 {"load_end", load_end}};
  if (kcm_requests_present) {
    o["kcm_writes"] = kcm_writes;
    o["kcm_requests_by_method"] = bench::to_json(kcm_requests_by_method);
    o["kcm_requests_by_method_code"] = bench::to_json(kcm_requests_by_method_code);
  }
  if (!kcm_syncs_by_queue.empty()) o["kcm_syncs_by_queue"] = bench::to_json(kcm_syncs_by_queue);
  return o;
}

PhaseFigures phase_between(const Snapshot& begin, const Snapshot& end) {
  PhaseFigures f;
  f.seconds = std::chrono::duration<double>(end.at - begin.at).count();
  f.kcm_cpu_seconds = end.kcm_cpu_seconds - begin.kcm_cpu_seconds;
  f.server_cpu_seconds = end.server_cpu_seconds - begin.server_cpu_seconds;
  f.bench_cpu_seconds = end.bench_cpu_seconds - begin.bench_cpu_seconds;
  f.kcm_peak_rss_bytes = end.kcm_peak_rss_bytes;
  f.kcm_rss_end_bytes = end.kcm_rss_bytes;
  f.server_rss_end_bytes = end.server_rss_bytes;
  f.server_writes =
      end.server_revision > begin.server_revision ? end.server_revision - begin.server_revision : 0;
  f.kcm_requests_present = begin.kcm_requests.present && end.kcm_requests.present;
  if (f.kcm_requests_present) {
    f.kcm_requests_by_method = difference(end.kcm_requests.by_method, begin.kcm_requests.by_method);
    f.kcm_requests_by_method_code =
        difference(end.kcm_requests.by_method_code, begin.kcm_requests.by_method_code);
    f.kcm_writes = end.kcm_requests.writes() - begin.kcm_requests.writes();
  }
  f.kcm_syncs_by_queue = difference(end.kcm_syncs, begin.kcm_syncs);
  f.load_end = end.load;
  return f;
}

PhaseFigures combine(const PhaseFigures& a, const PhaseFigures& b) {
  PhaseFigures f = b;
  f.seconds = a.seconds + b.seconds;
  f.kcm_cpu_seconds = a.kcm_cpu_seconds + b.kcm_cpu_seconds;
  f.server_cpu_seconds = a.server_cpu_seconds + b.server_cpu_seconds;
  f.bench_cpu_seconds = a.bench_cpu_seconds + b.bench_cpu_seconds;
  f.kcm_peak_rss_bytes = std::max(a.kcm_peak_rss_bytes, b.kcm_peak_rss_bytes);
  f.server_writes = a.server_writes + b.server_writes;
  f.kcm_requests_present = a.kcm_requests_present && b.kcm_requests_present;
  f.kcm_writes = a.kcm_writes + b.kcm_writes;
  for (const auto& [k, v] : a.kcm_requests_by_method)
    f.kcm_requests_by_method[k] += v;
  for (const auto& [k, v] : a.kcm_requests_by_method_code)
    f.kcm_requests_by_method_code[k] += v;
  for (const auto& [k, v] : a.kcm_syncs_by_queue)
    f.kcm_syncs_by_queue[k] += v;
  return f;
}

Result<std::unique_ptr<ControllerHarness>> ControllerHarness::start(const HarnessOptions& options) {
  std::unique_ptr<ControllerHarness> h(new ControllerHarness());  // private constructor
  h->options_ = options;
  std::error_code ec;
  fs::create_directories(options.work_dir, ec);
  if (ec) return fail("cannot create " + options.work_dir.string() + ": " + ec.message());
  KcmLocalOptions server_options;
  server_options.binary = options.kcm_local;
  server_options.data_dir = options.work_dir / "kcm-local";
  fs::remove_all(server_options.data_dir, ec);
  server_options.fsync = false;
  server_options.extra_args = {"--nodes",
                               std::to_string(options.nodes),
                               "--pod-ready-delay",
                               options.pod_ready_delay,
                               "--pod-terminate-delay",
                               options.pod_terminate_delay};
  auto server = KcmLocalProcess::start(server_options);
  if (!server) return fail(server.error());
  h->server_ = std::move(*server);
  auto tls = make_client_tls(h->server_->ca_pem());
  if (!tls) return fail(tls.error());
  ServerEndpoint endpoint;
  endpoint.port = h->server_->port();
  endpoint.token = h->server_->token();
  h->api_ = std::make_unique<ApiClient>(*tls, endpoint, std::max(1, options.connections));
  return h;
}

ControllerHarness::~ControllerHarness() {
  kcm_api_.reset();
  if (kcm_) kcm_->stop();
  api_.reset();
}

Result<void> ControllerHarness::create_namespace(const std::string& name) {
  ApiRequest req;
  req.verb = http::verb::post;
  req.target = "/api/v1/namespaces";
  req.body = json::serialize(json::object{
      {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object{{"name", name}}}});
  auto res = api_->request(req);
  if (!res) return fail("create namespace " + name + ": " + res.error());
  if (res->status != 201) {
    return fail("create namespace " + name + ": HTTP " + std::to_string(res->status) + " " +
                res->body.substr(0, 300));
  }
  return {};
}

Result<void> ControllerHarness::start_kcm() {
  auto port = free_tcp_port();
  if (!port) return fail(port.error());
  ChildOptions child;
  child.binary = options_.kcm;
  child.log_prefix = options_.work_dir / "kcm";
  child.args = {"--kubeconfig=" + (server_->data_dir() / "kubeconfig").string(),
                "--leader-elect=false",
                "--kube-api-qps=100000",
                "--kube-api-burst=100000",
                "--controllers=" + options_.controllers,
                "--bind-address=127.0.0.1",
                "--secure-port=" + std::to_string(*port)};
  child.args.insert(child.args.end(), options_.kcm_extra_args.begin(),
                    options_.kcm_extra_args.end());
  auto started = ChildProcess::start(child);
  if (!started) return fail(started.error());
  kcm_ = std::move(*started);
  ServerEndpoint endpoint;
  endpoint.port = *port;
  kcm_api_ = std::make_unique<ApiClient>(make_insecure_client_tls(), endpoint, 0);

  const auto deadline = Clock::now() + 60s;
  std::string last;
  for (;;) {
    if (const std::string how = kcm_->ended(); !how.empty()) {
      return fail("kcm ended (" + how + ") before serving /healthz: " + kcm_->stderr_text());
    }
    auto res = kcm_api_->request(ApiRequest{.target = "/healthz"});
    if (res && res->status == 200) break;
    last = !res ? res.error() : "HTTP " + std::to_string(res->status) + " " + res->body;
    if (Clock::now() > deadline) return fail("kcm's /healthz did not answer ok in 60 s: " + last);
    std::this_thread::sleep_for(100ms);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(options_.idle_seconds));
  if (const std::string how = kcm_->ended(); !how.empty()) {
    return fail("kcm ended (" + how + ") while idle: " + kcm_->stderr_text());
  }
  kcm_idle_rss_ = value_or_zero(proc_status_bytes(kcm_->pid(), "VmRSS"));
  return {};
}

Result<std::string> ControllerHarness::kcm_metrics() {
  if (!kcm_api_) return fail("kcm is not running");
  auto res = kcm_api_->request(ApiRequest{.target = "/metrics"});
  if (!res) return fail("kcm /metrics: " + res.error());
  if (res->status != 200) return fail("kcm /metrics: HTTP " + std::to_string(res->status));
  return std::move(res->body);
}

Result<Snapshot> ControllerHarness::snapshot(std::optional<Clock::time_point> at,
                                             std::optional<std::uint64_t> revision) {
  Snapshot s;
  // The processes first: the closest to `at`.
  s.at = at.value_or(Clock::now());
  const pid_t kcm = kcm_pid();
  s.kcm_cpu_seconds = value_or_zero(proc_cpu_seconds(kcm));
  s.server_cpu_seconds = value_or_zero(server_->cpu_seconds());
  s.bench_cpu_seconds = own_cpu_seconds();
  s.kcm_rss_bytes = value_or_zero(proc_status_bytes(kcm, "VmRSS"));
  s.kcm_peak_rss_bytes = value_or_zero(proc_status_bytes(kcm, "VmHWM"));
  s.server_rss_bytes = value_or_zero(server_->rss_bytes());
  s.load = load_average();
  if (revision) {
    s.server_revision = *revision;
  } else {
    auto rv = list_revision(*api_, "/api/v1/namespaces");
    if (!rv) return fail(rv.error());
    s.server_revision = *rv;
  }
  if (kcm_api_) {
    auto page = kcm_metrics();
    if (!page) return fail(page.error());
    constexpr std::string_view kFamily = "rest_client_requests_total";
    s.kcm_requests.present = has_prometheus_metric(*page, kFamily);
    const auto samples = prometheus_samples(*page, kFamily);
    s.kcm_requests.by_method = sum_by_label(samples, "method");
    for (const auto& sample : samples) {
      auto label = [&](const char* k) {
        const auto it = sample.labels.find(k);
        return it == sample.labels.end() ? std::string() : it->second;
      };
      s.kcm_requests.by_method_code[label("method") + " " + label("code")] += sample.value;
    }
    s.kcm_syncs =
        sum_by_label(prometheus_samples(*page, "workqueue_work_duration_seconds_count"), "name");
  }
  return s;
}

std::string ControllerHarness::crashed() {
  if (kcm_) {
    if (const std::string how = kcm_->ended(); !how.empty()) return "kcm ended: " + how;
  }
  if (server_) {
    const char state = proc_state(server_->pid());
    if (state == 'Z' || state == '?') return "kcm-local ended";
  }
  return {};
}

Result<std::uint64_t> ControllerHarness::count(const std::string& collection) {
  auto list = api_->get_object(collection + "?limit=1");
  if (!list) return fail(list.error());
  std::uint64_t n = 0;
  if (const json::value* items = list->if_contains("items"); items != nullptr && items->is_array())
    n = items->get_array().size();
  const auto remaining = int_at(*list, {"metadata", "remainingItemCount"});
  return n + static_cast<std::uint64_t>(remaining.value_or(0));
}

Result<std::map<std::string, std::uint64_t>> ControllerHarness::pod_census(const std::string& ns) {
  auto list = api_->get_object("/api/v1/namespaces/" + ns + "/pods");
  if (!list) return fail(list.error());
  std::map<std::string, std::uint64_t> out;
  const json::value* items = list->if_contains("items");
  if (items == nullptr || !items->is_array()) return out;
  for (const auto& item : items->get_array()) {
    const json::object* pod = item.if_object();
    if (pod == nullptr) continue;
    std::string key = "?";
    std::string ready = "none";
    if (const json::value* status = pod->if_contains("status"); status && status->is_object()) {
      if (const json::value* ph = status->get_object().if_contains("phase"); ph && ph->is_string())
        key = std::string(ph->get_string());
      if (const json::value* conds = status->get_object().if_contains("conditions");
          conds && conds->is_array()) {
        for (const auto& cond : conds->get_array()) {
          const json::object* co = cond.if_object();
          if (co == nullptr) continue;
          const json::value* type = co->if_contains("type");
          const json::value* st = co->if_contains("status");
          if (type && type->is_string() && type->get_string() == "Ready" && st && st->is_string())
            ready = std::string(st->get_string());
        }
      }
    }
    const json::value* meta = pod->if_contains("metadata");
    if (meta && meta->is_object() && meta->get_object().contains("deletionTimestamp"))
      key += "/terminating";
    ++out[key + "/Ready=" + ready];
  }
  return out;
}

void ControllerHarness::stop_kcm() {
  kcm_api_.reset();
  if (kcm_) kcm_->stop();
}

void ControllerHarness::finish(json::object& out, bool keep_data) {
  kcm_api_.reset();
  if (kcm_) {
    out["kcm_exit"] = kcm_->stop();
    const std::string err = kcm_->stderr_text();
    // kcm logs to stderr (klog); keep the end, where trouble shows.
    out["kcm_stderr_tail"] = err.size() > 4000 ? err.substr(err.size() - 4000) : err;
    out["kcm_log"] = kcm_->stderr_file().string();
  }
  api_.reset();
  if (server_) {
    const std::string err = server_->stderr_text();
    out["server_exit"] = server_->stop();
    out["server_stderr"] = err.size() > 4000 ? err.substr(err.size() - 4000) : err;
  }
  if (!keep_data) {
    std::error_code ec;
    fs::remove_all(options_.work_dir, ec);
  }
}

json::object Calibration::to_json() const {
  return json::object{{"pods", pods},
                      {"connections", connections},
                      {"seconds", seconds},
                      {"create_seconds", create_seconds},
                      {"delete_seconds", delete_seconds},
                      {"writes", writes},
                      {"writes_per_second", writes_per_second},
                      {"server_cpu_seconds", server_cpu_seconds},
                      {"server_cpu_ms_per_write",
                       writes > 0 ? server_cpu_seconds * 1000 / static_cast<double>(writes) : 0},
                      {"bench_cpu_seconds", bench_cpu_seconds},
                      {"errors", errors},
                      {"first_error", first_error}};
}

Result<Calibration> calibrate_pod_writes(ControllerHarness& harness, const std::string& ns,
                                         std::size_t pods, const json::object& pod_template) {
  Calibration c;
  c.pods = pods;
  std::vector<ApiRequest> creates, deletes;
  creates.reserve(pods);
  deletes.reserve(pods);
  const std::string collection = "/api/v1/namespaces/" + ns + "/pods";
  // No nodeName and a scheduler nobody runs: the pods stay unscheduled, so
  // no simulated node writes to them and a delete removes them at once.
  json::object pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
  pod["metadata"] = pod_template.at("metadata");
  pod["spec"] = pod_template.at("spec");
  pod["spec"].as_object()["schedulerName"] = "kcm-bench-nobody";
  auto& meta = pod["metadata"].as_object();
  meta["namespace"] = ns;
  char name[48];
  for (std::size_t i = 0; i < pods; ++i) {
    std::snprintf(name, sizeof name, "calibration-%06zu", i);
    meta["name"] = name;
    creates.push_back(ApiRequest{.verb = http::verb::post,
                                 .target = collection,
                                 .body = json::serialize(pod),
                                 .expect = 201});
    deletes.push_back(ApiRequest{.verb = http::verb::delete_,
                                 .target = collection + "/" + name,
                                 .body = R"({"apiVersion":"v1","kind":"DeleteOptions",)"
                                         R"("gracePeriodSeconds":0})",
                                 .expect = 200});
  }
  auto before = harness.snapshot();
  if (!before) return fail(before.error());
  const BatchOutcome created = harness.api().run_batch(creates);
  const BatchOutcome deleted = harness.api().run_batch(deletes);
  auto after = harness.snapshot();
  if (!after) return fail(after.error());
  const PhaseFigures f = phase_between(*before, *after);
  c.seconds = created.seconds + deleted.seconds;
  c.create_seconds = created.seconds;
  c.delete_seconds = deleted.seconds;
  c.writes = f.server_writes;
  c.writes_per_second = c.seconds > 0 ? static_cast<double>(2 * pods) / c.seconds : 0;
  c.server_cpu_seconds = f.server_cpu_seconds;
  c.bench_cpu_seconds = f.bench_cpu_seconds;
  c.errors = created.errors + deleted.errors;
  c.first_error = !created.first_error.empty() ? created.first_error : deleted.first_error;
  return c;
}

json::object pod_template(const json::object& labels, const std::string& image) {
  json::object container{
      {"name", "app"},
      {"image", image},
      {"ports", json::array{json::object{{"name", "http"}, {"containerPort", 8080}}}},
      {"resources", json::object{{"requests", json::object{{"cpu", "10m"}, {"memory", "16Mi"}}}}}};
  return json::object{{"metadata", json::object{{"labels", labels}}},
                      {"spec", json::object{{"containers", json::array{container}}}}};
}

Result<int> nodes_for_pods(std::size_t pods) {
  const auto needed =
      static_cast<std::size_t>(std::ceil(static_cast<double>(pods) * 1.1 / kPodsPerNode)) + 1;
  if (pods > static_cast<std::size_t>(kPodsPerNode) * kMaxNodes) {
    return fail(std::to_string(pods) + " pods do not fit on kcm-local's at most " +
                std::to_string(kMaxNodes) + " nodes of " + std::to_string(kPodsPerNode) + " pods");
  }
  return static_cast<int>(std::min<std::size_t>(needed, kMaxNodes));
}

double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p) != nullptr)
      out += buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
    out.pop_back();
  return out;
}

json::object machine_info() {
  return json::object{{"nproc", std::thread::hardware_concurrency()},
                      {"cpu", first_line_of("/proc/cpuinfo", "model name")},
                      {"memory", first_line_of("/proc/meminfo", "MemTotal")},
                      {"load", load_average()}};
}

}  // namespace kcm::bench
