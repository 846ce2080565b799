// kcm-local API server benchmark. Starts kcm-local as a separate process on a
// fresh data directory and measures it over HTTPS with concurrent keep-alive
// clients (TLS verified against the server's CA, bearer token):
//
//   writes  creates/s, updates/s (PUT of a changed object) and merge patches/s
//           with C concurrent clients, fsync on and --unsafe-no-fsync
//   lists   full list and limit=500 pages at 10k and 100k pods (p50/p99, bytes)
//   memory  server RSS empty vs. with N pods, per pod; data directory per pod
//   watch   1,000 streaming watchers while one writer makes W updates: events/s
//           delivered and latency from write acknowledgement to delivery
//
// Prints tables and writes --json. See docs/benchmarks.md for results.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

#include "bench/bench_flags.h"
#include "bench/https_client.h"
#include "bench/kcm_local_process.h"

namespace kcm::bench {

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// ---------------------------------------------------------------------------
// Configuration

struct Config {
  bool quick = false;
  std::vector<std::string> parts = {"writes", "lists", "memory", "watch"};
  std::vector<int> concurrency = {1, 8, 64};
  std::vector<std::string> fsync_modes = {"on", "off"};
  int write_ops = 2000;
  std::vector<int> list_sizes = {10000, 100000};
  int list_runs = 10;
  int page_walks = 3;
  int page_limit = 500;
  int populate_concurrency = 64;
  bool populate_no_fsync = false;
  int watchers = 1000;
  int watch_updates = 1000;
  int watch_pods = 100;
  int watch_timeout_s = 120;
  int client_threads = 1;
  std::string kcm_local;
  std::string pod_json;
  std::string tmp_dir;
  bool keep_data = false;
  std::string json_out;

  bool runs(std::string_view part) const {
    return std::find(parts.begin(), parts.end(), part) != parts.end();
  }
};

// ---------------------------------------------------------------------------
// Small helpers

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

struct Summary {
  std::size_t n = 0;
  double p50 = 0, p99 = 0, max = 0, mean = 0;
};

// Nearest-rank percentiles.
Summary summarize(std::vector<double> v) {
  Summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto rank = [&](double p) {
    const auto i = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  s.max = v.back();
  double total = 0;
  for (double x : v)
    total += x;
  s.mean = total / static_cast<double>(v.size());
  return s;
}

json::object to_json(const Summary& s) {
  return json::object{{"n", s.n}, {"p50", s.p50}, {"p99", s.p99}, {"max", s.max}, {"mean", s.mean}};
}

std::string load_average() {
  auto text = read_file("/proc/loadavg");
  if (!text) return "?";
  std::istringstream in(*text);
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string first_line_of(const std::string& file, std::string_view prefix) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
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

std::string url_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::size_t count_occurrences(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// ---------------------------------------------------------------------------
// Pods shaped like shared/spec/fixtures/pod-typical.json (without the
// server-owned uid, resourceVersion, creationTimestamp and status).

constexpr std::string_view kTypicalPod = R"json({
 "apiVersion": "v1", "kind": "Pod",
 "metadata": {
  "name": "checkout-0-lldrhptrbr-bbbbb", "generateName": "checkout-0-lldrhptrbr-",
  "namespace": "load-0",
  "labels": {"app.kubernetes.io/name": "checkout", "app.kubernetes.io/instance": "checkout-0",
   "app.kubernetes.io/component": "server", "app.kubernetes.io/part-of": "shop",
   "app.kubernetes.io/version": "1.0.0", "app.kubernetes.io/managed-by": "kcm-load",
   "pod-template-hash": "lldrhptrbr", "team": "team-0"},
  "annotations": {"kubectl.kubernetes.io/restartedAt": "2025-01-01T00:00:00Z",
   "prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
   "name": "checkout-0-lldrhptrbr", "uid": "9f139717-63b7-c648-801e-1ecc8aa94a1e",
   "controller": true, "blockOwnerDeletion": true}]
 },
 "spec": {
  "volumes": [
   {"name": "config", "configMap": {"name": "checkout-config", "defaultMode": 420}},
   {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}},
   {"name": "kube-api-access-bbbbr", "projected": {"defaultMode": 420, "sources": [
     {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
     {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
     {"downwardAPI": {"items": [{"path": "namespace",
       "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}
  ],
  "containers": [{
   "name": "app", "image": "registry.example.com/shop/checkout:1.0.0",
   "args": ["--listen=:8080", "--metrics-listen=:9090", "--config=/etc/checkout/config.yaml"],
   "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"},
             {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}],
   "env": [
    {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
    {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
    {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}},
    {"name": "GOMAXPROCS", "valueFrom": {"resourceFieldRef": {"containerName": "app",
      "resource": "limits.cpu", "divisor": "1"}}},
    {"name": "LOG_LEVEL", "value": "info"},
    {"name": "OTEL_EXPORTER_OTLP_ENDPOINT",
     "value": "http://otel-collector.observability.svc.cluster.local:4317"},
    {"name": "DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": "checkout-db", "key": "url"}}}
   ],
   "resources": {"limits": {"cpu": "1", "memory": "512Mi"},
                 "requests": {"cpu": "100m", "memory": "256Mi"}},
   "volumeMounts": [
    {"name": "config", "mountPath": "/etc/checkout", "readOnly": true},
    {"name": "tmp", "mountPath": "/tmp"},
    {"name": "kube-api-access-bbbbr", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
     "readOnly": true}
   ],
   "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
    "initialDelaySeconds": 5, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
    "failureThreshold": 3},
   "readinessProbe": {"httpGet": {"path": "/readyz", "port": 8080, "scheme": "HTTP"},
    "initialDelaySeconds": 5, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
    "failureThreshold": 3},
   "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
   "imagePullPolicy": "IfNotPresent",
   "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
    "runAsNonRoot": true, "runAsUser": 10001, "capabilities": {"drop": ["ALL"]}}
  }],
  "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
  "serviceAccountName": "default", "serviceAccount": "default",
  "securityContext": {"fsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}},
  "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
   {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels":
    {"app.kubernetes.io/name": "checkout"}}, "topologyKey": "kubernetes.io/hostname"}}]}},
  "schedulerName": "default-scheduler",
  "tolerations": [
   {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
    "tolerationSeconds": 300},
   {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute",
    "tolerationSeconds": 300}
  ],
  "priority": 0, "enableServiceLinks": true, "preemptionPolicy": "PreemptLowerPriority",
  "nodeName": "load-node-0"
 }
})json";

class PodFactory {
 public:
  static Result<PodFactory> make(const std::string& file) {
    std::string text(kTypicalPod);
    if (!file.empty()) {
      auto loaded = read_file(file);
      if (!loaded) return fail(loaded.error());
      text = std::move(*loaded);
    }
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    if (ec || !v.is_object()) return fail("pod template is not a JSON object: " + ec.message());
    json::object pod = std::move(v.get_object());
    pod.erase("status");  // the fixture nests status.status; the server resets it anyway
    if (auto* meta = pod.if_contains("metadata"); meta != nullptr && meta->is_object()) {
      auto& m = meta->get_object();
      for (const char* k : {"uid", "resourceVersion", "creationTimestamp", "managedFields"})
        m.erase(k);
      if (!m.contains("labels")) m["labels"] = json::object();
    } else {
      return fail("pod template has no metadata object");
    }
    return PodFactory(std::move(pod));
  }

  // A pod named `name` with label values that vary with `index`.
  std::string body(std::string_view ns, std::string_view name, std::size_t index) const {
    json::object pod = template_;
    auto& meta = pod["metadata"].get_object();
    meta["name"] = name;
    meta["namespace"] = ns;
    auto& labels = meta["labels"].get_object();
    labels["app.kubernetes.io/instance"] = "checkout-" + std::to_string(index % 50);
    labels["pod-template-hash"] = "h" + std::to_string(index / 100);
    labels["team"] = "team-" + std::to_string(index % 7);
    labels["bench.kcm.io/index"] = std::to_string(index);
    return json::serialize(pod);
  }

  std::size_t approximate_size() const { return json::serialize(template_).size(); }

 private:
  explicit PodFactory(json::object pod) : template_(std::move(pod)) {}
  json::object template_;
};

// ---------------------------------------------------------------------------
// Running coroutines on a client io_context with a fixed number of threads.

class IoRunner {
 public:
  explicit IoRunner(int threads) : threads_(std::max(1, threads)) {}

  net::any_io_executor strand() { return net::make_strand(ioc_); }

  void spawn(const net::any_io_executor& executor, net::awaitable<void> task) {
    net::co_spawn(executor, std::move(task), [this](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& x) {
        std::lock_guard lock(mu_);
        errors_.emplace_back(x.what());
      }
    });
  }

  // Runs everything spawned until it has finished.
  void run() {
    std::vector<std::thread> extra;
    for (int i = 1; i < threads_; ++i)
      extra.emplace_back([this] { ioc_.run(); });
    ioc_.run();
    for (auto& t : extra)
      t.join();
    ioc_.restart();
  }

  std::vector<std::string> take_errors() {
    std::lock_guard lock(mu_);
    return std::exchange(errors_, {});
  }

 private:
  net::io_context ioc_;
  int threads_;
  std::mutex mu_;
  std::vector<std::string> errors_;
};

using Connections = std::vector<std::unique_ptr<HttpsConnection>>;

struct ServerHandle {
  std::unique_ptr<KcmLocalProcess> process;
  std::shared_ptr<net::ssl::context> tls;
  ServerEndpoint endpoint;
};

// CPU time used by the server and by this benchmark since construction.
class CpuMeter {
 public:
  explicit CpuMeter(const KcmLocalProcess& server)
      : server_(server), server_start_(server_now()), client_start_(own_cpu_seconds()) {}
  double server_seconds() const { return server_now() - server_start_; }
  double client_seconds() const { return own_cpu_seconds() - client_start_; }

 private:
  double server_now() const {
    auto s = server_.cpu_seconds();
    return s ? *s : 0;
  }
  const KcmLocalProcess& server_;
  double server_start_;
  double client_start_;
};

Result<ServerHandle> start_server(const Config& config, const std::string& name, bool fsync) {
  static int serial = 0;
  KcmLocalOptions options;
  options.binary = config.kcm_local;
  options.data_dir = fs::path(config.tmp_dir) / (name + "-" + std::to_string(++serial));
  std::error_code ec;
  fs::remove_all(options.data_dir, ec);
  options.fsync = fsync;
  auto process = KcmLocalProcess::start(options);
  if (!process) return fail(process.error());
  auto tls = make_client_tls((*process)->ca_pem());
  if (!tls) return fail(tls.error());
  ServerHandle h;
  h.endpoint.port = (*process)->port();
  h.endpoint.token = (*process)->token();
  h.process = std::move(*process);
  h.tls = std::move(*tls);
  return h;
}

void finish_server(const Config& config, ServerHandle& server, json::object& out) {
  const std::string err = server.process->stderr_text();
  const std::string how = server.process->stop();
  out["server_exit"] = how;
  out["server_stderr"] = err;
  if (!err.empty()) std::printf("  kcm-local stderr:\n%s\n", err.c_str());
  if (how != "exit 0") std::printf("  kcm-local ended with %s\n", how.c_str());
  if (!config.keep_data) {
    std::error_code ec;
    const fs::path dir = server.process->data_dir();
    fs::remove_all(dir, ec);
    fs::remove(dir.string() + ".stdout", ec);
    fs::remove(dir.string() + ".stderr", ec);
  }
}

net::awaitable<void> connect_one(HttpsConnection* conn, std::atomic<int>* failures,
                                 std::string* error) {
  auto r = co_await conn->connect();
  if (!r) {
    if (failures->fetch_add(1) == 0) *error = r.error();
  }
}

// Opens `n` connections, each on its own strand, at most `batch` handshakes at a time.
Result<Connections> open_connections(IoRunner& runner, const ServerHandle& server, int n,
                                     int batch = 100) {
  Connections conns;
  std::atomic<int> failures{0};
  std::string error;
  for (int i = 0; i < n; ++i) {
    conns.push_back(
        std::make_unique<HttpsConnection>(runner.strand(), server.tls, server.endpoint));
  }
  for (int start = 0; start < n; start += batch) {
    for (int i = start; i < std::min(n, start + batch); ++i)
      runner.spawn(conns[i]->executor(), connect_one(conns[i].get(), &failures, &error));
    runner.run();
  }
  if (failures > 0) {
    return fail(std::to_string(failures.load()) + " of " + std::to_string(n) +
                " connections failed, first: " + error);
  }
  return conns;
}

void close_connections(IoRunner& runner, Connections& conns) {
  for (auto& c : conns)
    net::post(c->executor(), [conn = c.get()] { conn->close(); });
  runner.run();
  conns.clear();
}

// ---------------------------------------------------------------------------
// Request batches

struct Request {
  http::verb verb = http::verb::get;
  std::string target;
  std::string body;
  std::string content_type = "application/json";
  unsigned expect = 200;
};

struct WorkerResult {
  std::vector<double> latencies_ms;
  std::size_t errors = 0;
  std::string first_error;
};

net::awaitable<void> run_requests(HttpsConnection* conn, const std::vector<Request>* requests,
                                  std::size_t first, std::size_t step,
                                  std::vector<std::string>* responses, WorkerResult* out) {
  for (std::size_t i = first; i < requests->size(); i += step) {
    const Request& req = (*requests)[i];
    const auto start = Clock::now();
    auto res = co_await conn->request(req.verb, req.target, req.body, req.content_type);
    const auto end = Clock::now();
    out->latencies_ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    if (!res || res->status != req.expect) {
      ++out->errors;
      if (out->first_error.empty()) {
        out->first_error =
            !res ? res.error()
                 : "HTTP " + std::to_string(res->status) + ": " + res->body.substr(0, 300);
      }
      continue;
    }
    if (responses != nullptr) (*responses)[i] = std::move(res->body);
  }
}

struct BatchResult {
  std::size_t ops = 0;
  std::size_t errors = 0;
  double seconds = 0;
  double server_cpu_seconds = 0;
  double client_cpu_seconds = 0;
  Summary latency_ms;
  std::string first_error;
  double per_second() const { return seconds > 0 ? static_cast<double>(ops) / seconds : 0; }
  double server_cpu_ms_per_op() const {
    return ops > 0 ? server_cpu_seconds * 1000 / static_cast<double>(ops) : 0;
  }
};

// Sends `requests` spread over the connections (one worker each); keeps the
// response bodies when `responses` is given.
BatchResult run_batch(IoRunner& runner, const ServerHandle& server, Connections& conns,
                      const std::vector<Request>& requests, std::vector<std::string>* responses) {
  if (responses != nullptr) responses->assign(requests.size(), {});
  std::vector<WorkerResult> results(conns.size());
  const CpuMeter cpu(*server.process);
  const auto start = Clock::now();
  for (std::size_t k = 0; k < conns.size(); ++k) {
    runner.spawn(conns[k]->executor(),
                 run_requests(conns[k].get(), &requests, k, conns.size(), responses, &results[k]));
  }
  runner.run();
  BatchResult b;
  b.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  b.server_cpu_seconds = cpu.server_seconds();
  b.client_cpu_seconds = cpu.client_seconds();
  b.ops = requests.size();
  std::vector<double> all;
  for (auto& r : results) {
    b.errors += r.errors;
    if (b.first_error.empty()) b.first_error = r.first_error;
    all.insert(all.end(), r.latencies_ms.begin(), r.latencies_ms.end());
  }
  b.latency_ms = summarize(std::move(all));
  for (auto& e : runner.take_errors()) {
    ++b.errors;
    if (b.first_error.empty()) b.first_error = e;
  }
  return b;
}

json::object to_json(const BatchResult& b) {
  return json::object{{"ops", b.ops},
                      {"errors", b.errors},
                      {"seconds", b.seconds},
                      {"per_second", b.per_second()},
                      {"server_cpu_seconds", b.server_cpu_seconds},
                      {"server_cpu_ms_per_op", b.server_cpu_ms_per_op()},
                      {"client_cpu_seconds", b.client_cpu_seconds},
                      {"latency_ms", to_json(b.latency_ms)},
                      {"first_error", b.first_error}};
}

// One request on one connection, synchronously (setup steps).
Result<HttpResponse> request_now(IoRunner& runner, HttpsConnection& conn, Request req) {
  std::optional<Result<HttpResponse>> out;
  auto task = [](HttpsConnection* c, Request r,
                 std::optional<Result<HttpResponse>>* o) -> net::awaitable<void> {
    auto res = co_await c->request(r.verb, r.target, r.body, r.content_type);
    o->emplace(std::move(res));
  };
  runner.spawn(conn.executor(), task(&conn, std::move(req), &out));
  runner.run();
  if (!out) return fail("request did not complete");
  return std::move(*out);
}

Result<void> create_namespace(IoRunner& runner, HttpsConnection& conn, const std::string& ns) {
  Request req;
  req.verb = http::verb::post;
  req.target = "/api/v1/namespaces";
  req.body = json::serialize(json::object{
      {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object{{"name", ns}}}});
  auto res = request_now(runner, conn, std::move(req));
  if (!res) return fail("create namespace " + ns + ": " + res.error());
  if (res->status != 201) {
    return fail("create namespace " + ns + ": HTTP " + std::to_string(res->status) + " " +
                res->body);
  }
  return {};
}

std::vector<Request> create_requests(const PodFactory& pods, const std::string& ns,
                                     const std::string& prefix, std::size_t from, std::size_t to) {
  std::vector<Request> out;
  out.reserve(to - from);
  char name[64];
  for (std::size_t i = from; i < to; ++i) {
    std::snprintf(name, sizeof name, "%s%06zu", prefix.c_str(), i);
    Request r;
    r.verb = http::verb::post;
    r.target = "/api/v1/namespaces/" + ns + "/pods";
    r.body = pods.body(ns, name, i);
    r.expect = 201;
    out.push_back(std::move(r));
  }
  return out;
}

std::string pod_target(const std::string& ns, std::string_view name) {
  return "/api/v1/namespaces/" + ns + "/pods/" + std::string(name);
}

// ---------------------------------------------------------------------------
// Part 1: writes

void print_write_header() {
  std::printf("  %-6s %5s %-7s %7s %10s %9s %9s %9s %11s %7s\n", "fsync", "C", "op", "ops", "ops/s",
              "p50 ms", "p99 ms", "max ms", "srv cpu ms", "errors");
}

void print_write_row(bool fsync, int c, std::string_view op, const BatchResult& b) {
  std::printf("  %-6s %5d %-7.*s %7zu %10.1f %9.2f %9.2f %9.2f %11.3f %7zu\n", fsync ? "on" : "off",
              c, static_cast<int>(op.size()), op.data(), b.ops, b.per_second(), b.latency_ms.p50,
              b.latency_ms.p99, b.latency_ms.max, b.server_cpu_ms_per_op(), b.errors);
  if (!b.first_error.empty()) std::printf("    first error: %s\n", b.first_error.c_str());
  std::fflush(stdout);
}

Result<json::array> run_writes(const Config& config, const PodFactory& pods, IoRunner& runner) {
  json::array rows;
  std::printf("\n== writes: %d ops per (fsync, C, op); pod JSON ~%zu bytes ==\n", config.write_ops,
              pods.approximate_size());
  print_write_header();
  for (const auto& mode : config.fsync_modes) {
    const bool fsync = mode == "on";
    auto server = start_server(config, "writes-fsync-" + mode, fsync);
    if (!server) return fail(server.error());
    const std::string ns = "bench-writes";
    auto admin = open_connections(runner, *server, 1);
    if (!admin) return fail(admin.error());
    if (auto ok = create_namespace(runner, *(*admin)[0], ns); !ok) return fail(ok.error());
    json::object server_info{{"fsync", fsync}, {"load_before", load_average()}};
    for (int c : config.concurrency) {
      auto conns = open_connections(runner, *server, c);
      if (!conns) return fail(conns.error());
      const std::string prefix = "w" + std::to_string(c) + "-";
      const auto n = static_cast<std::size_t>(config.write_ops);
      auto add_row = [&](std::string_view op, const BatchResult& b) {
        print_write_row(fsync, c, op, b);
        json::object row = to_json(b);
        row["fsync"] = fsync;
        row["concurrency"] = c;
        row["op"] = op;
        row["load"] = load_average();
        rows.push_back(std::move(row));
      };

      // Creates; the answers (with resourceVersion) are the base of the PUTs.
      const auto creates = create_requests(pods, ns, prefix, 0, n);
      std::vector<std::string> created;
      const BatchResult create = run_batch(runner, *server, *conns, creates, &created);
      add_row("create", create);

      // PUT of a changed object: the created pod with one label value changed.
      std::vector<Request> updates;
      for (const auto& body : created) {
        if (body.empty()) continue;
        json::object pod = json::parse(body).as_object();
        auto& meta = pod["metadata"].as_object();
        meta["labels"].as_object()["bench.kcm.io/gen"] = "put";
        Request r;
        r.verb = http::verb::put;
        r.target = pod_target(ns, meta["name"].as_string());
        r.body = json::serialize(pod);
        updates.push_back(std::move(r));
      }
      add_row("update", run_batch(runner, *server, *conns, updates, nullptr));

      // Merge patch of a label.
      std::vector<Request> patches;
      char name[64];
      for (std::size_t i = 0; i < n; ++i) {
        std::snprintf(name, sizeof name, "%s%06zu", prefix.c_str(), i);
        Request r;
        r.verb = http::verb::patch;
        r.target = pod_target(ns, name);
        r.body = R"({"metadata":{"labels":{"bench.kcm.io/gen":"patch"}}})";
        r.content_type = "application/merge-patch+json";
        patches.push_back(std::move(r));
      }
      add_row("patch", run_batch(runner, *server, *conns, patches, nullptr));
      close_connections(runner, *conns);
    }
    close_connections(runner, *admin);
    server_info["load_after"] = load_average();
    finish_server(config, *server, server_info);
    rows.push_back(json::object{{"server", std::move(server_info)}});
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Parts 2 and 4: lists and memory (one server, grown to each size)

struct MemorySample {
  std::size_t pods = 0;
  std::uint64_t rss = 0, peak_rss = 0, disk = 0;
};

json::object to_json(const MemorySample& m, const MemorySample& empty) {
  json::object o{{"pods", m.pods},
                 {"rss_bytes", m.rss},
                 {"peak_rss_bytes", m.peak_rss},
                 {"data_dir_bytes", m.disk}};
  if (m.pods > 0) {
    const double n = static_cast<double>(m.pods);
    o["rss_bytes_per_pod"] = (static_cast<double>(m.rss) - static_cast<double>(empty.rss)) / n;
    o["data_dir_bytes_per_pod"] =
        (static_cast<double>(m.disk) - static_cast<double>(empty.disk)) / n;
  }
  return o;
}

MemorySample sample_memory(const KcmLocalProcess& p, std::size_t pods) {
  MemorySample m;
  m.pods = pods;
  if (auto r = p.rss_bytes()) m.rss = *r;
  if (auto r = p.peak_rss_bytes()) m.peak_rss = *r;
  m.disk = p.data_dir_bytes();
  return m;
}

struct ListFigures {
  Summary latency_ms;
  double server_cpu_ms = 0;  // per list
  std::uint64_t bytes = 0;
  std::size_t items = 0;
  std::string error;
};

ListFigures full_lists(IoRunner& runner, const ServerHandle& server, HttpsConnection& conn,
                       const std::string& ns, int runs, std::size_t expect) {
  ListFigures f;
  const CpuMeter cpu(*server.process);
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    Request req;
    req.target = "/api/v1/namespaces/" + ns + "/pods";
    const auto start = Clock::now();
    auto res = request_now(runner, conn, req);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!res || res->status != 200) {
      f.error = !res ? res.error() : "HTTP " + std::to_string(res->status);
      break;
    }
    f.bytes = res->body.size();
    f.items = count_occurrences(res->body, R"("name":"bl-)");
    if (f.items != expect) {
      f.error =
          "list returned " + std::to_string(f.items) + " pods, expected " + std::to_string(expect);
    }
  }
  f.server_cpu_ms =
      cpu.server_seconds() * 1000 / static_cast<double>(std::max<std::size_t>(1, ms.size()));
  f.latency_ms = summarize(std::move(ms));
  return f;
}

struct PageFigures {
  Summary page_ms;
  Summary walk_ms;
  Summary first_page_ms;  // per walk: the first page counts every remaining item
  Summary last_page_ms;
  double server_cpu_ms_per_walk = 0;
  double mean_page_bytes = 0;
  std::size_t pages = 0;
  std::string error;
};

PageFigures paged_lists(IoRunner& runner, const ServerHandle& server, HttpsConnection& conn,
                        const std::string& ns, int walks, int limit, std::size_t expect) {
  PageFigures f;
  const CpuMeter cpu(*server.process);
  std::vector<double> page_ms, walk_ms, first_ms, last_ms;
  std::uint64_t bytes = 0;
  for (int w = 0; w < walks && f.error.empty(); ++w) {
    std::string token;
    std::size_t items = 0;
    double walk = 0;
    do {
      Request req;
      req.target = "/api/v1/namespaces/" + ns + "/pods?limit=" + std::to_string(limit);
      if (!token.empty()) req.target += "&continue=" + url_encode(token);
      const auto start = Clock::now();
      auto res = request_now(runner, conn, req);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (!res || res->status != 200) {
        f.error = !res ? res.error() : "HTTP " + std::to_string(res->status) + " " + res->body;
        break;
      }
      page_ms.push_back(ms);
      if (token.empty()) first_ms.push_back(ms);
      walk += ms;
      bytes += res->body.size();
      ++f.pages;
      const json::value page = json::parse(res->body);
      items += page.at("items").as_array().size();
      const json::object& meta = page.at("metadata").as_object();
      const json::value* next = meta.if_contains("continue");
      token = next != nullptr ? std::string(next->as_string()) : std::string();
    } while (!token.empty());
    if (!page_ms.empty()) last_ms.push_back(page_ms.back());
    if (f.error.empty() && items != expect) {
      f.error = "paged list returned " + std::to_string(items) + " pods, expected " +
                std::to_string(expect);
    }
    walk_ms.push_back(walk);
  }
  f.server_cpu_ms_per_walk = cpu.server_seconds() * 1000 / static_cast<double>(std::max(1, walks));
  f.first_page_ms = summarize(std::move(first_ms));
  f.last_page_ms = summarize(std::move(last_ms));
  f.page_ms = summarize(std::move(page_ms));
  f.walk_ms = summarize(std::move(walk_ms));
  f.mean_page_bytes = f.pages > 0 ? static_cast<double>(bytes) / static_cast<double>(f.pages) : 0;
  return f;
}

// Restarts the server on its data directory: how long recovery takes, and the
// memory per pod of a store loaded from disk (no request garbage in the heap).
json::object restart_and_measure(const Config& config, IoRunner& runner, ServerHandle& server,
                                 const std::string& ns, std::size_t pods,
                                 const MemorySample& empty) {
  json::object out{{"stderr_before_restart", server.process->stderr_text()}};
  out["stop"] = server.process->stop();
  KcmLocalOptions options;
  options.binary = config.kcm_local;
  options.data_dir = server.process->data_dir();
  options.fsync = !config.populate_no_fsync;
  const auto start = Clock::now();
  auto again = KcmLocalProcess::start(options);
  const double startup_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (!again) {
    std::printf("  restart failed: %s\n", again.error().c_str());
    out["error"] = again.error();
    return out;
  }
  server.process = std::move(*again);
  server.endpoint.port = server.process->port();
  std::this_thread::sleep_for(1s);
  const MemorySample m = sample_memory(*server.process, pods);
  // Nothing lost: a one-item page counts the rest.
  std::string check = "ok";
  if (auto conns = open_connections(runner, server, 1)) {
    Request req;
    req.target = "/api/v1/namespaces/" + ns + "/pods?limit=1";
    auto res = request_now(runner, *(*conns)[0], req);
    std::size_t found = 0;
    if (res && res->status == 200) {
      const json::value page = json::parse(res->body);
      found = page.at("items").as_array().size();
      if (const auto* r = page.at("metadata").as_object().if_contains("remainingItemCount"))
        found += static_cast<std::size_t>(r->to_number<std::int64_t>());
    }
    if (found != pods) {
      check = "after restart " + std::to_string(found) + " pods, expected " + std::to_string(pods);
    }
    close_connections(runner, *conns);
  } else {
    check = conns.error();
  }
  json::object mem = to_json(m, empty);
  std::printf(
      "  restart with %zu pods: serving after %.2f s; RSS %.1f MiB = %.0f bytes/pod over the "
      "empty server; check: %s\n",
      pods, startup_s, mib(m.rss),
      mem.contains("rss_bytes_per_pod") ? mem["rss_bytes_per_pod"].as_double() : 0.0,
      check.c_str());
  out["startup_seconds"] = startup_s;
  out["memory"] = std::move(mem);
  out["check"] = check;
  return out;
}

Result<json::object> run_lists_and_memory(const Config& config, const PodFactory& pods,
                                          IoRunner& runner) {
  const bool lists = config.runs("lists");
  const bool fsync = !config.populate_no_fsync;
  std::printf("\n== lists and memory: sizes");
  for (int s : config.list_sizes)
    std::printf(" %d", s);
  std::printf(" (populated by %d clients, fsync %s) ==\n", config.populate_concurrency,
              fsync ? "on" : "off");
  auto server = start_server(config, "lists", fsync);
  if (!server) return fail(server.error());
  const std::string ns = "bench-list";
  auto admin = open_connections(runner, *server, 1);
  if (!admin) return fail(admin.error());
  if (auto ok = create_namespace(runner, *(*admin)[0], ns); !ok) return fail(ok.error());
  // The clients connect first so that their sessions are part of "empty".
  auto conns = open_connections(runner, *server, config.populate_concurrency);
  if (!conns) return fail(conns.error());
  std::this_thread::sleep_for(1s);
  const MemorySample empty = sample_memory(*server->process, 0);
  std::printf("  empty server: RSS %.1f MiB, data dir %.1f KiB\n", mib(empty.rss),
              static_cast<double>(empty.disk) / 1024.0);

  json::array memory{to_json(empty, empty)};
  json::array list_rows;
  json::array populate_rows;
  std::vector<int> sizes = config.list_sizes;
  std::sort(sizes.begin(), sizes.end());
  std::size_t have = 0;
  for (int size : sizes) {
    const auto target = static_cast<std::size_t>(size);
    if (target > have) {
      const auto creates = create_requests(pods, ns, "bl-", have, target);
      const BatchResult b = run_batch(runner, *server, *conns, creates, nullptr);
      std::printf(
          "  populate %zu -> %zu pods: %.1f creates/s (p50 %.2f ms, p99 %.2f ms), %zu errors\n",
          have, target, b.per_second(), b.latency_ms.p50, b.latency_ms.p99, b.errors);
      if (!b.first_error.empty()) std::printf("    first error: %s\n", b.first_error.c_str());
      json::object row = to_json(b);
      row["from"] = have;
      row["to"] = target;
      row["concurrency"] = config.populate_concurrency;
      row["fsync"] = fsync;
      row["load"] = load_average();
      populate_rows.push_back(std::move(row));
      if (b.errors > 0) return fail("populating failed: " + b.first_error);
      have = target;
    }
    std::this_thread::sleep_for(2s);  // let a running log compaction finish
    const MemorySample m = sample_memory(*server->process, have);
    json::object mem = to_json(m, empty);
    mem["load"] = load_average();
    std::printf(
        "  %zu pods: RSS %.1f MiB (peak %.1f MiB) = %.0f bytes/pod over empty; data dir %.1f MiB "
        "= %.0f bytes/pod\n",
        have, mib(m.rss), mib(m.peak_rss), mem["rss_bytes_per_pod"].as_double(), mib(m.disk),
        mem["data_dir_bytes_per_pod"].as_double());
    memory.push_back(std::move(mem));
    if (!lists) continue;

    const ListFigures full = full_lists(runner, *server, *(*admin)[0], ns, config.list_runs, have);
    const PageFigures paged =
        paged_lists(runner, *server, *(*admin)[0], ns, config.page_walks, config.page_limit, have);
    const MemorySample after = sample_memory(*server->process, have);
    std::printf(
        "  %zu pods, full list x%d: p50 %.1f ms, p99 %.1f ms, %.1f MiB/response, server CPU %.1f "
        "ms/list\n",
        have, config.list_runs, full.latency_ms.p50, full.latency_ms.p99, mib(full.bytes),
        full.server_cpu_ms);
    std::printf(
        "  %zu pods, limit=%d pages (%zu pages in %d walks): page p50 %.2f ms, p99 %.2f ms, "
        "%.0f KiB/page; first page %.2f ms, last page %.2f ms (means); whole walk p50 %.1f ms, "
        "server CPU %.1f ms/walk\n",
        have, config.page_limit, paged.pages, config.page_walks, paged.page_ms.p50,
        paged.page_ms.p99, paged.mean_page_bytes / 1024.0, paged.first_page_ms.mean,
        paged.last_page_ms.mean, paged.walk_ms.p50, paged.server_cpu_ms_per_walk);
    std::printf("  after the lists: RSS %.1f MiB, peak %.1f MiB\n", mib(after.rss),
                mib(after.peak_rss));
    if (!full.error.empty()) std::printf("    full list error: %s\n", full.error.c_str());
    if (!paged.error.empty()) std::printf("    paged list error: %s\n", paged.error.c_str());
    std::fflush(stdout);
    list_rows.push_back(json::object{
        {"pods", have},
        {"full", json::object{{"runs", config.list_runs},
                              {"latency_ms", to_json(full.latency_ms)},
                              {"bytes_per_response", full.bytes},
                              {"server_cpu_ms_per_list", full.server_cpu_ms},
                              {"items", full.items},
                              {"error", full.error}}},
        {"paged", json::object{{"limit", config.page_limit},
                               {"walks", config.page_walks},
                               {"pages", paged.pages},
                               {"page_latency_ms", to_json(paged.page_ms)},
                               {"walk_ms", to_json(paged.walk_ms)},
                               {"first_page_ms", to_json(paged.first_page_ms)},
                               {"last_page_ms", to_json(paged.last_page_ms)},
                               {"server_cpu_ms_per_walk", paged.server_cpu_ms_per_walk},
                               {"mean_bytes_per_page", paged.mean_page_bytes},
                               {"error", paged.error}}},
        {"rss_after_lists_bytes", after.rss},
        {"peak_rss_after_lists_bytes", after.peak_rss},
        {"load", load_average()}});
  }
  close_connections(runner, *conns);
  close_connections(runner, *admin);
  json::object out{{"fsync", fsync}, {"populate", std::move(populate_rows)}};
  if (config.runs("memory")) {
    out["memory"] = std::move(memory);
    out["restart"] = restart_and_measure(config, runner, *server, ns, have, empty);
  }
  if (lists) out["lists"] = std::move(list_rows);
  json::object server_info;
  finish_server(config, *server, server_info);
  out["server"] = std::move(server_info);
  return out;
}

// ---------------------------------------------------------------------------
// Part 3: watch fan-out

constexpr std::string_view kSeqMarker = R"("kcm-bench/seq":")";

struct WatcherState {
  std::vector<std::pair<std::uint32_t, std::int64_t>> received;  // (seq, time)
  std::size_t other_lines = 0;
  std::string error;
};

struct WatchShared {
  int updates = 0;
  std::atomic<int> finished{0};
  std::atomic<bool> writer_done{false};
  std::int64_t writer_end_ns = 0;
  std::vector<std::int64_t> send_ns, ack_ns;
  std::vector<double> write_ms;
  std::size_t write_errors = 0;
  std::string write_error;
};

net::awaitable<void> open_watch(HttpsConnection* conn, std::string target, WatcherState* state) {
  auto r = co_await conn->open_stream(target);
  if (!r) state->error = r.error();
}

net::awaitable<void> read_watch(HttpsConnection* conn, WatcherState* state, WatchShared* shared) {
  if (state->error.empty()) {
    state->received.reserve(static_cast<std::size_t>(shared->updates));
    const auto want = static_cast<std::size_t>(shared->updates);
    // A named function object: GCC 12 mishandles some temporaries in co_await expressions.
    std::function<bool(std::string_view)> on_line = [state, want](std::string_view line) {
      const auto at = line.find(kSeqMarker);
      if (at == std::string_view::npos) {
        ++state->other_lines;
        if (line.find(R"("type":"ERROR")") != std::string_view::npos && state->error.empty())
          state->error = std::string(line.substr(0, 300));
        return true;
      }
      std::uint32_t seq = 0;
      for (std::size_t i = at + kSeqMarker.size();
           i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
        seq = seq * 10 + static_cast<std::uint32_t>(line[i] - '0');
      state->received.emplace_back(seq, now_ns());
      return state->received.size() < want;
    };
    auto r = co_await conn->read_lines(std::move(on_line));
    if (!r && state->error.empty() && state->received.size() < want) state->error = r.error();
    conn->close();
  }
  shared->finished.fetch_add(1);
}

net::awaitable<void> write_updates(HttpsConnection* conn, std::string ns, int pods,
                                   WatchShared* shared) {
  for (int seq = 0; seq < shared->updates; ++seq) {
    char name[64];
    std::snprintf(name, sizeof name, "wp-%06d", seq % pods);
    const std::string target = pod_target(ns, name);
    const std::string body =
        R"({"metadata":{"annotations":{"kcm-bench/seq":")" + std::to_string(seq) + R"("}}})";
    shared->send_ns[seq] = now_ns();
    auto res =
        co_await conn->request(http::verb::patch, target, body, "application/merge-patch+json");
    shared->ack_ns[seq] = now_ns();
    shared->write_ms.push_back(static_cast<double>(shared->ack_ns[seq] - shared->send_ns[seq]) /
                               1e6);
    if (!res || res->status != 200) {
      ++shared->write_errors;
      if (shared->write_error.empty())
        shared->write_error =
            !res ? res.error() : "HTTP " + std::to_string(res->status) + " " + res->body;
    }
  }
  shared->writer_end_ns = now_ns();
  shared->writer_done = true;
}

// Ends the run once every watcher has all events, or `timeout` after the
// writer finished (closing the laggards' connections).
net::awaitable<void> watchdog(Connections* watchers, WatchShared* shared,
                              std::chrono::seconds timeout) {
  net::steady_timer timer(co_await net::this_coro::executor);
  const int total = static_cast<int>(watchers->size());
  for (;;) {
    timer.expires_after(50ms);
    co_await timer.async_wait(net::use_awaitable);
    if (shared->finished.load() == total) co_return;
    if (shared->writer_done.load() &&
        now_ns() - shared->writer_end_ns >
            std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count()) {
      for (auto& c : *watchers)
        net::post(c->executor(), [conn = c.get()] { conn->close(); });
      co_return;
    }
  }
}

Result<json::object> run_watch(const Config& config, const PodFactory& pods, IoRunner& runner) {
  std::printf("\n== watch: %d watchers, %d updates by one writer (merge patch, fsync on) ==\n",
              config.watchers, config.watch_updates);
  auto server = start_server(config, "watch", true);
  if (!server) return fail(server.error());
  const std::string ns = "bench-watch";
  auto admin = open_connections(runner, *server, 1);
  if (!admin) return fail(admin.error());
  if (auto ok = create_namespace(runner, *(*admin)[0], ns); !ok) return fail(ok.error());
  {
    auto conns = open_connections(runner, *server, 8);
    if (!conns) return fail(conns.error());
    const auto b = run_batch(
        runner, *server, *conns,
        create_requests(pods, ns, "wp-", 0, static_cast<std::size_t>(config.watch_pods)), nullptr);
    close_connections(runner, *conns);
    if (b.errors > 0) return fail("creating the watched pods: " + b.first_error);
  }
  Request probe;
  probe.target = "/api/v1/namespaces/" + ns + "/pods?limit=1";
  auto listed = request_now(runner, *(*admin)[0], probe);
  if (!listed || listed->status != 200) return fail("list before watch failed");
  const std::string rv =
      std::string(json::parse(listed->body).at("metadata").at("resourceVersion").as_string());
  std::this_thread::sleep_for(500ms);
  const auto rss_before = server->process->rss_bytes();

  // Open the watches (TLS handshake + response header), 100 at a time.
  const auto setup_start = Clock::now();
  auto watchers = open_connections(runner, *server, config.watchers);
  if (!watchers) return fail(watchers.error());
  std::vector<WatcherState> states(static_cast<std::size_t>(config.watchers));
  const std::string target = "/api/v1/namespaces/" + ns + "/pods?watch=1&resourceVersion=" + rv;
  for (int start = 0; start < config.watchers; start += 100) {
    for (int i = start; i < std::min(config.watchers, start + 100); ++i)
      runner.spawn((*watchers)[i]->executor(),
                   open_watch((*watchers)[i].get(), target, &states[i]));
    runner.run();
  }
  const double setup_s = std::chrono::duration<double>(Clock::now() - setup_start).count();
  std::size_t open_failures = 0;
  std::string open_error;
  for (const auto& s : states) {
    if (s.error.empty()) continue;
    if (open_failures++ == 0) open_error = s.error;
  }
  std::this_thread::sleep_for(500ms);
  const auto rss_watching = server->process->rss_bytes();
  std::printf("  %d watches open in %.2f s (%zu failed)%s%s\n", config.watchers, setup_s,
              open_failures, open_error.empty() ? "" : ": ", open_error.c_str());

  // Connected before the readers start: runner.run() returns only when they end.
  auto writer_conn = open_connections(runner, *server, 1);
  if (!writer_conn) return fail(writer_conn.error());
  const CpuMeter cpu(*server->process);
  WatchShared shared;
  shared.updates = config.watch_updates;
  shared.send_ns.assign(static_cast<std::size_t>(config.watch_updates), 0);
  shared.ack_ns.assign(static_cast<std::size_t>(config.watch_updates), 0);
  for (int i = 0; i < config.watchers; ++i)
    runner.spawn((*watchers)[i]->executor(), read_watch((*watchers)[i].get(), &states[i], &shared));
  runner.spawn((*writer_conn)[0]->executor(),
               write_updates((*writer_conn)[0].get(), ns, config.watch_pods, &shared));
  runner.spawn(runner.strand(),
               watchdog(&*watchers, &shared, std::chrono::seconds(config.watch_timeout_s)));
  runner.run();
  const double server_cpu_s = cpu.server_seconds();
  const double client_cpu_s = cpu.client_seconds();
  const auto rss_after = server->process->rss_bytes();
  const auto peak_rss = server->process->peak_rss_bytes();

  // Figures.
  std::size_t delivered = 0, other = 0, incomplete = 0, before_ack = 0;
  std::int64_t last_delivery = 0;
  std::vector<double> after_ack_ms, after_send_ms;
  std::string watch_error;
  for (const auto& s : states) {
    delivered += s.received.size();
    other += s.other_lines;
    if (s.received.size() < static_cast<std::size_t>(config.watch_updates)) ++incomplete;
    if (!s.error.empty() && watch_error.empty()) watch_error = s.error;
    for (const auto& [seq, t] : s.received) {
      if (seq >= shared.ack_ns.size()) continue;
      last_delivery = std::max(last_delivery, t);
      const auto ack = shared.ack_ns[seq];
      if (t < ack) ++before_ack;
      after_ack_ms.push_back(static_cast<double>(t - ack) / 1e6);
      after_send_ms.push_back(static_cast<double>(t - shared.send_ns[seq]) / 1e6);
    }
  }
  const std::int64_t first_send = shared.send_ns.empty() ? 0 : shared.send_ns.front();
  const double span_s = static_cast<double>(last_delivery - first_send) / 1e9;
  const double writer_s = static_cast<double>(shared.writer_end_ns - first_send) / 1e9;
  const std::size_t expected =
      static_cast<std::size_t>(config.watchers) * static_cast<std::size_t>(config.watch_updates);
  const Summary ack_lat = summarize(after_ack_ms);
  const Summary send_lat = summarize(after_send_ms);
  const Summary write_lat = summarize(shared.write_ms);
  const double events_per_s = span_s > 0 ? static_cast<double>(delivered) / span_s : 0;
  const double bytes_per_watcher =
      rss_before && rss_watching
          ? (static_cast<double>(*rss_watching) - static_cast<double>(*rss_before)) /
                static_cast<double>(config.watchers)
          : 0;

  std::printf("  writer: %d updates in %.2f s = %.1f/s (p50 %.2f ms, p99 %.2f ms), %zu errors\n",
              config.watch_updates, writer_s, writer_s > 0 ? config.watch_updates / writer_s : 0,
              write_lat.p50, write_lat.p99, shared.write_errors);
  if (!shared.write_error.empty()) std::printf("    first error: %s\n", shared.write_error.c_str());
  std::printf("  delivered %zu of %zu events in %.2f s = %.0f events/s (%zu watchers incomplete)\n",
              delivered, expected, span_s, events_per_s, incomplete);
  std::printf(
      "  latency ack->delivery: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu delivered "
      "before the writer saw its ack)\n",
      ack_lat.p50, ack_lat.p99, ack_lat.max, before_ack);
  std::printf("  latency send->delivery: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", send_lat.p50,
              send_lat.p99, send_lat.max);
  std::printf(
      "  server RSS: %.1f MiB before watches, %.1f MiB with %d watches (%.0f bytes each), "
      "%.1f MiB after, peak %.1f MiB\n",
      mib(rss_before ? *rss_before : 0), mib(rss_watching ? *rss_watching : 0), config.watchers,
      bytes_per_watcher, mib(rss_after ? *rss_after : 0), mib(peak_rss ? *peak_rss : 0));
  std::printf(
      "  CPU during the run: server %.1f s (%.1f us per delivered event), benchmark %.1f s\n",
      server_cpu_s, delivered > 0 ? server_cpu_s * 1e6 / static_cast<double>(delivered) : 0,
      client_cpu_s);
  if (!watch_error.empty()) std::printf("    first watch error: %s\n", watch_error.c_str());
  std::fflush(stdout);

  json::object out{
      {"watchers", config.watchers},
      {"updates", config.watch_updates},
      {"watched_pods", config.watch_pods},
      {"setup_seconds", setup_s},
      {"open_failures", open_failures},
      {"open_error", open_error},
      {"writer_seconds", writer_s},
      {"writer_updates_per_second", writer_s > 0 ? config.watch_updates / writer_s : 0},
      {"write_latency_ms", to_json(write_lat)},
      {"write_errors", shared.write_errors},
      {"write_error", shared.write_error},
      {"events_expected", expected},
      {"events_delivered", delivered},
      {"other_lines", other},
      {"incomplete_watchers", incomplete},
      {"delivery_seconds", span_s},
      {"events_per_second", events_per_s},
      {"latency_after_ack_ms", to_json(ack_lat)},
      {"delivered_before_ack", before_ack},
      {"latency_after_send_ms", to_json(send_lat)},
      {"rss_before_watches_bytes", rss_before ? *rss_before : 0},
      {"rss_with_watches_bytes", rss_watching ? *rss_watching : 0},
      {"rss_bytes_per_idle_watch", bytes_per_watcher},
      {"rss_after_bytes", rss_after ? *rss_after : 0},
      {"peak_rss_bytes", peak_rss ? *peak_rss : 0},
      {"watch_error", watch_error},
      {"server_cpu_seconds", server_cpu_s},
      {"client_cpu_seconds", client_cpu_s},
      {"load", load_average()}};
  close_connections(runner, *writer_conn);
  close_connections(runner, *watchers);
  close_connections(runner, *admin);
  json::object server_info;
  finish_server(config, *server, server_info);
  out["server"] = std::move(server_info);
  return out;
}

// ---------------------------------------------------------------------------

// Failures recorded in the results (failed requests, wrong counts, lost
// events): a run with any of them exits non-zero, so CI can use --quick.
std::vector<std::string> problems_in(const json::object& results) {
  std::vector<std::string> out;
  auto number = [](const json::object& o, std::string_view key) -> std::int64_t {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_number() ? v->to_number<std::int64_t>() : 0;
  };
  auto text = [](const json::object& o, std::string_view key) -> std::string {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  for (const auto& [part, value] : results) {
    if (!value.is_object() && !value.is_array()) continue;
    if (value.is_object() && !text(value.get_object(), "error").empty()) {
      out.push_back(std::string(part) + ": " + text(value.get_object(), "error"));
    }
  }
  if (const auto* w = results.if_contains("writes"); w != nullptr && w->is_array()) {
    for (const auto& row : w->get_array()) {
      if (row.is_object() && number(row.get_object(), "errors") > 0)
        out.push_back("writes: " + text(row.get_object(), "first_error"));
    }
  }
  if (const auto* l = results.if_contains("lists_memory"); l != nullptr && l->is_object()) {
    const json::object& lm = l->get_object();
    for (const char* key : {"populate", "lists"}) {
      const json::value* rows = lm.if_contains(key);
      if (rows == nullptr || !rows->is_array()) continue;
      for (const auto& row : rows->get_array()) {
        if (!row.is_object()) continue;
        const json::object& r = row.get_object();
        if (number(r, "errors") > 0) out.push_back("populate: " + text(r, "first_error"));
        for (const char* sub : {"full", "paged"}) {
          if (const auto* f = r.if_contains(sub); f != nullptr && f->is_object()) {
            if (!text(f->get_object(), "error").empty())
              out.push_back(std::string("lists: ") + text(f->get_object(), "error"));
          }
        }
      }
    }
    if (const auto* r = lm.if_contains("restart"); r != nullptr && r->is_object()) {
      const std::string check = text(r->get_object(), "check");
      if (check != "ok") out.push_back("restart: " + check + text(r->get_object(), "error"));
    }
  }
  if (const auto* w = results.if_contains("watch"); w != nullptr && w->is_object()) {
    const json::object& o = w->get_object();
    if (number(o, "open_failures") > 0) out.push_back("watch: " + text(o, "open_error"));
    if (number(o, "write_errors") > 0) out.push_back("watch writer: " + text(o, "write_error"));
    if (number(o, "incomplete_watchers") > 0) {
      out.push_back("watch: " + std::to_string(number(o, "incomplete_watchers")) +
                    " watchers missed events " + text(o, "watch_error"));
    }
  }
  return out;
}

int run(int argc, char** argv) {
  Config config;
  CLI::App app{
      "kcm-local API server benchmark: writes, lists, memory and watch fan-out over HTTPS"};
  app.add_flag("--quick", config.quick, "Small sizes for a CI smoke run (explicit flags win)");
  app.add_option("--parts", config.parts, "Parts to run: writes, lists, memory, watch")
      ->delimiter(',')
      ->check(CLI::IsMember({"writes", "lists", "memory", "watch"}))
      ->capture_default_str();
  auto* o_conc = app.add_option("--concurrency", config.concurrency, "Concurrent write clients")
                     ->delimiter(',')
                     ->capture_default_str();
  app.add_option("--fsync", config.fsync_modes, "fsync modes for the write part: on, off")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  auto* o_ops = app.add_option("--write-ops", config.write_ops,
                               "Operations per (fsync mode, concurrency, create/update/patch)")
                    ->check(CLI::PositiveNumber)
                    ->capture_default_str();
  auto* o_sizes = app.add_option("--list-sizes", config.list_sizes, "Pod counts for lists/memory")
                      ->delimiter(',')
                      ->check(CLI::PositiveNumber)
                      ->capture_default_str();
  auto* o_runs = app.add_option("--list-runs", config.list_runs, "Full lists per size")
                     ->check(CLI::PositiveNumber)
                     ->capture_default_str();
  auto* o_walks =
      app.add_option("--page-walks", config.page_walks, "Complete paginated walks per size")
          ->check(CLI::PositiveNumber)
          ->capture_default_str();
  app.add_option("--page-limit", config.page_limit, "limit= of a page")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  auto* o_pop = app.add_option("--populate-concurrency", config.populate_concurrency,
                               "Clients creating the pods for lists/memory")
                    ->check(CLI::PositiveNumber)
                    ->capture_default_str();
  app.add_flag("--populate-no-fsync", config.populate_no_fsync,
               "Run the lists/memory server with --unsafe-no-fsync");
  auto* o_watchers = app.add_option("--watchers", config.watchers, "Concurrent watches")
                         ->check(CLI::PositiveNumber)
                         ->capture_default_str();
  auto* o_updates = app.add_option("--watch-updates", config.watch_updates,
                                   "Updates the writer makes while the watches run")
                        ->check(CLI::PositiveNumber)
                        ->capture_default_str();
  auto* o_wpods = app.add_option("--watch-pods", config.watch_pods, "Pods the writer cycles over")
                      ->check(CLI::PositiveNumber)
                      ->capture_default_str();
  app.add_option("--watch-timeout", config.watch_timeout_s,
                 "Seconds to wait for deliveries after the last write")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--client-threads", config.client_threads, "Threads running the clients")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--kcm-local", config.kcm_local,
                 "kcm-local executable (default: beside this benchmark)");
  app.add_option("--pod-json", config.pod_json,
                 "Pod template file (default: the built-in typical pod)");
  app.add_option("--tmp-dir", config.tmp_dir,
                 "Where data directories go (default $TMPDIR or /tmp)");
  app.add_flag("--keep-data", config.keep_data, "Keep the data directories");
  app.add_option("--json", config.json_out, "Write the results as JSON to this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (config.quick) {
    auto quick = [](CLI::Option* o, auto& field, auto value) {
      if (o->count() == 0) field = value;
    };
    quick(o_conc, config.concurrency, std::vector<int>{1, 8});
    quick(o_ops, config.write_ops, 100);
    quick(o_sizes, config.list_sizes, std::vector<int>{1000});
    quick(o_runs, config.list_runs, 3);
    quick(o_walks, config.page_walks, 1);
    quick(o_pop, config.populate_concurrency, 8);
    quick(o_watchers, config.watchers, 50);
    quick(o_updates, config.watch_updates, 50);
    quick(o_wpods, config.watch_pods, 10);
  }
  if (config.kcm_local.empty()) config.kcm_local = beside_this_benchmark("kcm-local");
  if (auto found = require_executable("kcm-local", config.kcm_local); !found) {
    std::fprintf(stderr, "apiserver_bench: %s\n", found.error().c_str());
    return 2;
  }
  config.tmp_dir = run_directory(config.tmp_dir, "kcm-apiserver-bench");
  auto pods = PodFactory::make(config.pod_json);
  if (!pods) {
    std::fprintf(stderr, "apiserver_bench: %s\n", pods.error().c_str());
    return 2;
  }

  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even through a pipe
  const auto started = Clock::now();
  const std::string commit =
      command_output("git -C " KCM_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null");
  json::object machine{{"nproc", std::thread::hardware_concurrency()},
                       {"cpu", first_line_of("/proc/cpuinfo", "model name")},
                       {"memory", first_line_of("/proc/meminfo", "MemTotal")},
                       {"load_at_start", load_average()}};
  std::printf("kcm-local API server benchmark (kcm-local %s, commit %s)\n",
              config.kcm_local.c_str(), commit.c_str());
  std::printf("machine: %u cpus, %s, load %s; client threads %d; data in %s\n",
              std::thread::hardware_concurrency(), machine["memory"].as_string().c_str(),
              load_average().c_str(), config.client_threads, config.tmp_dir.c_str());

  IoRunner runner(config.client_threads);
  json::object results;
  int status = 0;
  auto record = [&](const char* part, Result<json::value> r) {
    if (r) {
      results[part] = std::move(*r);
    } else {
      std::fprintf(stderr, "apiserver_bench: %s: %s\n", part, r.error().c_str());
      results[part] = json::object{{"error", r.error()}};
      status = 1;
    }
  };
  auto as_value = [](auto r) -> Result<json::value> {
    if (!r) return fail(r.error());
    return json::value(std::move(*r));
  };
  if (config.runs("writes")) record("writes", as_value(run_writes(config, *pods, runner)));
  if (config.runs("lists") || config.runs("memory")) {
    record("lists_memory", as_value(run_lists_and_memory(config, *pods, runner)));
  }
  if (config.runs("watch")) record("watch", as_value(run_watch(config, *pods, runner)));
  if (!config.keep_data) {
    std::error_code ec;
    fs::remove_all(config.tmp_dir, ec);
  }

  const double total_s = std::chrono::duration<double>(Clock::now() - started).count();
  for (const auto& p : problems_in(results)) {
    std::fprintf(stderr, "apiserver_bench: FAILED: %s\n", p.c_str());
    status = 1;
  }
  machine["load_at_end"] = load_average();
  std::printf("\ntotal %.1f s; load at end %s\n", total_s, load_average().c_str());
  if (!config.json_out.empty()) {
    json::array parts;
    for (const auto& p : config.parts)
      parts.emplace_back(p);
    json::array conc;
    for (int c : config.concurrency)
      conc.emplace_back(c);
    json::array sizes;
    for (int s : config.list_sizes)
      sizes.emplace_back(s);
    json::object doc{{"benchmark", "apiserver_bench"},
                     {"kcm_local_commit", commit},
                     {"machine", std::move(machine)},
                     {"config", json::object{{"quick", config.quick},
                                             {"parts", std::move(parts)},
                                             {"concurrency", std::move(conc)},
                                             {"write_ops", config.write_ops},
                                             {"list_sizes", std::move(sizes)},
                                             {"list_runs", config.list_runs},
                                             {"page_walks", config.page_walks},
                                             {"page_limit", config.page_limit},
                                             {"populate_concurrency", config.populate_concurrency},
                                             {"watchers", config.watchers},
                                             {"watch_updates", config.watch_updates},
                                             {"watch_pods", config.watch_pods},
                                             {"client_threads", config.client_threads}}},
                     {"total_seconds", total_s},
                     {"results", std::move(results)}};
    std::ofstream out(config.json_out);
    out << json::serialize(doc) << "\n";
    if (!out) {
      std::fprintf(stderr, "apiserver_bench: cannot write %s\n", config.json_out.c_str());
      return 1;
    }
    std::printf("wrote %s\n", config.json_out.c_str());
  }
  return status;
}

}  // namespace

}  // namespace kcm::bench

int main(int argc, char** argv) {
  return kcm::bench::run(argc, argv);
}
