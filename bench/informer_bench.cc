// Informer benchmark: how long a SharedIndexInformer takes to sync N pods
// (list in pages of 500, decode, compress, index, notify one handler), and
// what the cache costs in memory per pod.
//
// Pods are generated from shared/spec/fixtures/pod-typical.json (its bogus
// nested status.status unwrapped) with varied names, uids, labels, owner
// references, IPs and container IDs. The ListerWatcher generates each page on
// the fly, so the process holds no copy of the objects besides the cache:
// RSS growth is the informer's. Each size runs in a forked child for a clean
// heap. Prints a table and writes --json.
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "cache/shared_informer.h"

namespace kcm::bench {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

struct Config {
  std::vector<int> sizes = {10000, 50000, 100000};
  std::vector<std::string> modes = {"zstd", "raw"};
  int raw_max = 50000;  // raw mode is skipped above this (memory)
  std::string fixture = KCM_SOURCE_DIR "/../shared/spec/fixtures/pod-typical.json";
  std::string json_out;
};

std::uint64_t status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field))) * 1024;
  }
  return 0;
}

// User + system CPU seconds of this process (the machine may be shared).
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string hex(std::mt19937_64& rng, int n) {
  static const char* digits = "0123456789abcdef";
  std::string s(n, '0');
  for (auto& c : s)
    c = digits[rng() % 16];
  return s;
}

std::string uuid(std::mt19937_64& rng) {
  std::string h = hex(rng, 32);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
         "-" + h.substr(20);
}

// Pod i of a deterministic population: 10 pods per ReplicaSet, 40 apps, 20 teams.
class PodFactory {
 public:
  explicit PodFactory(json::value fixture) : base_(std::move(fixture)) {
    auto& o = base_.as_object();
    if (auto* st = o.if_contains("status"); st && st->is_object()) {
      if (auto* inner = st->as_object().if_contains("status"); inner && inner->is_object()) {
        json::value unwrapped = *inner;
        o["status"] = std::move(unwrapped);
      }
    }
  }

  json::value make(int i, std::int64_t rv) const {
    std::mt19937_64 rng(static_cast<std::uint64_t>(i) * 7919 + 17);
    const int rs = i / 10;
    std::mt19937_64 rs_rng(static_cast<std::uint64_t>(rs) * 104729 + 3);
    const std::string app = "app" + std::to_string(rs % 40);
    const std::string hash = hex(rs_rng, 10);
    const std::string rs_uid = uuid(rs_rng);
    const std::string rs_name = app + "-" + std::to_string(rs) + "-" + hash;

    json::value pod = base_;
    auto& meta = pod.as_object()["metadata"].as_object();
    meta["name"] = rs_name + "-" + hex(rng, 5);
    meta["generateName"] = rs_name + "-";
    meta["namespace"] = "load-" + std::to_string(rs % 25);
    meta["uid"] = uuid(rng);
    meta["resourceVersion"] = std::to_string(rv);
    auto& labels = meta["labels"].as_object();
    labels["app.kubernetes.io/name"] = app;
    labels["app.kubernetes.io/instance"] = app + "-" + std::to_string(rs);
    labels["pod-template-hash"] = hash;
    labels["team"] = "team-" + std::to_string(rs % 20);
    auto& owner = meta["ownerReferences"].as_array()[0].as_object();
    owner["name"] = rs_name;
    owner["uid"] = rs_uid;
    auto& status = pod.as_object()["status"].as_object();
    status["podIP"] = "10.244." + std::to_string((i / 250) % 256) + "." + std::to_string(i % 250);
    status["podIPs"] = json::array{json::object{{"ip", status["podIP"]}}};
    if (auto* cs = status.if_contains("containerStatuses"); cs && cs->is_array()) {
      for (auto& c : cs->as_array()) {
        c.as_object()["containerID"] = "containerd://" + hex(rng, 64);
      }
    }
    return pod;
  }

 private:
  json::value base_;
};

// Serves n generated pods in pages; its watch stays open and quiet.
class GeneratedListerWatcher : public cache::ListerWatcher {
 public:
  GeneratedListerWatcher(const PodFactory& f, int n) : factory_(f), n_(n) {}

  Result<cache::ListPage, api::Status> list(const client::ListOptions& options) override {
    const int start = options.continue_token.empty() ? 0 : std::stoi(options.continue_token);
    const int end =
        options.limit > 0 ? std::min<int>(n_, start + static_cast<int>(options.limit)) : n_;
    cache::ListPage page;
    page.resource_version = std::to_string(kRv);
    page.items.reserve(end - start);
    for (int i = start; i < end; ++i)
      page.items.push_back(factory_.make(i, 1000 + i));
    if (end < n_) page.continue_token = std::to_string(end);
    return page;
  }

  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions&) override {
    return std::unique_ptr<client::WatchStream>(std::make_unique<QuietStream>());
  }

 private:
  static constexpr std::int64_t kRv = 1'000'000;
  class QuietStream : public client::WatchStream {
   public:
    Result<std::optional<client::WatchEvent>, api::Status> next() override {
      std::unique_lock l(mu_);
      cv_.wait(l, [&] { return stopped_; });
      return std::optional<client::WatchEvent>();
    }
    void stop() override {
      std::lock_guard l(mu_);
      stopped_ = true;
      cv_.notify_all();
    }

   private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool stopped_ = false;
  };
  const PodFactory& factory_;
  const int n_;
};

json::object run_one(const PodFactory& factory, int n, const std::string& mode) {
  malloc_trim(0);
  const std::uint64_t rss_before = status_kb("VmRSS:");

  cache::SharedInformerOptions o;
  o.indexers.emplace(std::string(cache::kNamespaceIndex), cache::meta_namespace_index_func);
  o.transform = cache::drop_managed_fields;
  o.compress = mode == "zstd";
  o.reflector.name = "pods";
  o.reflector.type_description = "*v1.Pod";
  auto lw = std::make_shared<GeneratedListerWatcher>(factory, n);
  cache::SharedIndexInformer informer(lw, o);
  std::atomic<int> adds{0};
  auto h = std::make_shared<cache::EventHandlerFuncs>();
  h->add = [&](const cache::ObjectPtr&, bool) { ++adds; };
  auto reg = informer.add_event_handler(h);

  const auto t0 = Clock::now();
  const double cpu0 = cpu_seconds();
  std::jthread runner([&](std::stop_token st) { informer.run(st); });
  while (!(informer.has_synced() && (*reg)->has_synced())) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const double sync_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const double sync_cpu_s = cpu_seconds() - cpu0;
  malloc_trim(0);
  const std::uint64_t rss_after = status_kb("VmRSS:");
  const std::uint64_t peak = status_kb("VmHWM:");

  std::uint64_t object_bytes = 0, body_bytes = 0, json_bytes = 0;
  const auto all = informer.indexer()->list();
  for (const auto& obj : all) {
    object_bytes += obj->footprint_bytes();
    body_bytes += obj->body_bytes();
  }
  // Decoding on demand: the time to get a pod back as a JSON value.
  const int samples = std::min<int>(2000, static_cast<int>(all.size()));
  const auto d0 = Clock::now();
  for (int i = 0; i < samples; ++i)
    json_bytes += json::serialize(all[i]->object()).size();
  const double decode_us =
      std::chrono::duration<double, std::micro>(Clock::now() - d0).count() / samples;
  runner.request_stop();
  runner.join();

  const double per_pod = (static_cast<double>(rss_after) - static_cast<double>(rss_before)) / n;
  json::object r{
      {"pods", n},
      {"mode", mode},
      {"sync_seconds", sync_s},
      {"pods_per_second", n / sync_s},
      // Includes generating the pods' JSON in the ListerWatcher.
      {"sync_cpu_seconds", sync_cpu_s},
      {"cpu_microseconds_per_pod", sync_cpu_s * 1e6 / n},
      {"rss_before_bytes", rss_before},
      {"rss_after_bytes", rss_after},
      {"peak_rss_bytes", peak},
      {"rss_bytes_per_pod", per_pod},
      {"object_bytes_per_pod", static_cast<double>(object_bytes) / n},
      {"compressed_body_bytes_per_pod", static_cast<double>(body_bytes) / n},
      {"json_bytes_per_pod", static_cast<double>(json_bytes) / samples},
      {"dictionary_bytes", informer.codec() ? informer.codec()->dictionary_size() : std::size_t{0}},
      {"decode_microseconds", decode_us},
      {"handler_adds", adds.load()}};
  return r;
}

// Runs one measurement in a child process; its JSON comes back through a pipe.
std::optional<json::object> in_child(const PodFactory& factory, int n, const std::string& mode) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const std::string out = json::serialize(run_one(factory, n, mode));
    (void)!write(fds[1], out.data(), out.size());
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof buf)) > 0)
    text.append(buf, static_cast<std::size_t>(got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text.empty()) return std::nullopt;
  return json::parse(text).as_object();
}

}  // namespace
}  // namespace kcm::bench

int main(int argc, char** argv) {
  using namespace kcm::bench;
  Config config;
  CLI::App app{"kcm informer benchmark"};
  app.add_option("--sizes", config.sizes, "Pod counts");
  app.add_option("--modes", config.modes, "Object storage: zstd (dictionary), raw (JSON text)");
  app.add_option("--raw-max", config.raw_max, "Largest pod count measured in raw mode");
  app.add_option("--fixture", config.fixture, "The pod to vary (pod-typical.json)");
  app.add_option("--json", config.json_out, "Write the results here");
  CLI11_PARSE(app, argc, argv);

  std::ifstream in(config.fixture);
  if (!in) {
    std::fprintf(stderr, "informer_bench: cannot read fixture %s\n", config.fixture.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  PodFactory factory(json::parse(text.str()));
  std::printf("pod JSON (compact, generated): %zu bytes\n",
              json::serialize(factory.make(0, 1)).size());

  json::array results;
  std::printf("%-6s %8s %9s %10s %9s %10s %10s %10s %9s %9s\n", "mode", "pods", "sync s", "pods/s",
              "CPU us/pod", "RSS MiB", "RSS B/pod", "obj B/pod", "body B", "decode us");
  for (const std::string& mode : config.modes) {
    for (int n : config.sizes) {
      if (mode == "raw" && n > config.raw_max) continue;
      auto r = in_child(factory, n, mode);
      if (!r) {
        std::fprintf(stderr, "informer_bench: %s %d failed\n", mode.c_str(), n);
        return 1;
      }
      std::printf(
          "%-6s %8d %9.2f %10.0f %9.1f %10.1f %10.0f %10.0f %9.0f %9.1f\n", mode.c_str(), n,
          r->at("sync_seconds").as_double(), r->at("pods_per_second").as_double(),
          r->at("cpu_microseconds_per_pod").as_double(),
          static_cast<double>(r->at("rss_after_bytes").to_number<std::uint64_t>()) / 1048576.0,
          r->at("rss_bytes_per_pod").as_double(), r->at("object_bytes_per_pod").as_double(),
          r->at("compressed_body_bytes_per_pod").as_double(),
          r->at("decode_microseconds").as_double());
      std::fflush(stdout);
      results.push_back(std::move(*r));
    }
  }
  if (!config.json_out.empty()) {
    std::ofstream out(config.json_out);
    out << json::serialize(json::object{{"benchmark", "informer"}, {"results", results}}) << "\n";
  }
  return 0;
}
