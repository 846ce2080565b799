// --emulated-version and --feature-gates values on arbitrary bytes: the first
// line is --emulated-version's (comma-separated entries), the rest
// --feature-gates'. Invariants: a version that parses prints as text that
// parses to the same numbers; a refused gate value changes nothing; an
// accepted one, applied again, is accepted and changes nothing more.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/go_strings.h"
#include "api/version.h"
#include "featuregate/emulation_version.h"
#include "featuregate/feature_gate.h"
#include "featuregate/kube_features.h"

namespace {

namespace api = kcm::api;
namespace featuregate = kcm::featuregate;

constexpr int kBinaryMinor = 33;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

std::vector<bool> values(const featuregate::FeatureGate& gates) {
  std::vector<bool> out;
  for (const auto& s : gates.states())
    out.push_back(s.enabled);
  return out;
}

void check_version_round_trip(std::string_view text, std::string_view input) {
  const auto v = api::parse_version(text);
  if (!v) return;
  const auto again = api::parse_version(v->to_string());
  if (!again || again->components != v->components || again->pre_release != v->pre_release ||
      again->build_metadata != v->build_metadata) {
    fail_invariant("a parsed version does not parse back from its text", input);
  }
}

// The gates at `version`, built once per version (a fresh FeatureGate sorts
// 189 names, which dominated the run time) while only a few are cached.
featuregate::FeatureGate gates_at(featuregate::MajorMinor version) {
  static std::map<std::pair<unsigned long, unsigned long>, featuregate::FeatureGate> cache;
  const std::pair key(version.major, version.minor);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  featuregate::FeatureGate gates(featuregate::kube_features(), kBinaryMinor, version);
  if (cache.size() < 64) cache.emplace(key, gates);
  return gates;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string_view versions = input.substr(0, newline);
  const std::string_view settings =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  std::vector<std::string> entries;
  for (const std::string_view entry : api::split(versions, ',')) {
    check_version_round_trip(entry, input);
    entries.emplace_back(entry);
  }
  const auto range = featuregate::kube_emulation_range(kBinaryMinor);
  const auto emulated = featuregate::kube_emulation_version(entries, range);
  (void)featuregate::validate_emulation_version(emulated ? *emulated : range.binary, range);

  featuregate::FeatureGate gates = gates_at(emulated ? *emulated : range.binary);
  const std::vector<bool> before = values(gates);
  if (!gates.set(settings)) {
    if (values(gates) != before) fail_invariant("a refused value changed the gates", input);
    return 0;
  }
  const std::vector<bool> after = values(gates);
  if (!gates.set(settings)) fail_invariant("an accepted value is refused the second time", input);
  if (values(gates) != after) fail_invariant("applying a value twice differs from once", input);
  (void)gates.known_features();
  return 0;
}
