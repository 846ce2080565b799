// --feature-gates values (FeatureGate::set) on arbitrary bytes. Invariants: a
// refused value changes nothing; an accepted one, applied again, is accepted
// and changes nothing more.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "featuregate/feature_gate.h"
#include "featuregate/kube_features.h"

namespace {

namespace featuregate = kcm::featuregate;

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  featuregate::FeatureGate gates(featuregate::kube_features(), 33);
  const std::vector<bool> before = values(gates);
  if (!gates.set(input)) {
    if (values(gates) != before) fail_invariant("a refused value changed the gates", input);
    return 0;
  }
  const std::vector<bool> after = values(gates);
  if (!gates.set(input)) fail_invariant("an accepted value is refused the second time", input);
  if (values(gates) != after) fail_invariant("applying a value twice differs from once", input);
  (void)gates.known_features();
  return 0;
}
