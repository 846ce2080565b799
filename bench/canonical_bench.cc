// How long canonicalizing a typical pod takes (api/schema/canonical.h), for
// an object already canonical (the steady state of stored objects) and for
// one as kubectl sends it. Was a timed unit test; timings belong here.
//   build/bin/canonical_bench --benchmark_format=json > canonical.json
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "api/json.h"
#include "api/schema/canonical.h"
#include "api/schema/registry.h"

namespace {

namespace json = kcm::api::json;
using kcm::api::schema::Registry;

json::value pod_typical() {
  std::ifstream in(std::string(KCM_SOURCE_DIR) + "/tests/data/pod-typical.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

void canonicalize_pod(benchmark::State& state, bool already_canonical) {
  const auto& pod = *Registry::builtin().root({"", "v1", "Pod"});
  json::value from = pod_typical();
  if (already_canonical) kcm::api::schema::canonicalize(from, pod);
  for (auto _ : state) {
    state.PauseTiming();
    json::value copy = from;
    state.ResumeTiming();
    kcm::api::schema::canonicalize(copy, pod);
    benchmark::DoNotOptimize(copy);
  }
}

void BM_CanonicalizeCanonicalPod(benchmark::State& state) {
  canonicalize_pod(state, true);
}
void BM_CanonicalizePodAsSent(benchmark::State& state) {
  canonicalize_pod(state, false);
}

BENCHMARK(BM_CanonicalizeCanonicalPod)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CanonicalizePodAsSent)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
