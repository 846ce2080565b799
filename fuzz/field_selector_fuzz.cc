// Field selector parser on arbitrary bytes. Invariants: a parsed selector prints
// to a string that parses back to the same terms (the order may change, as terms
// are sorted by their printed text); escaping round-trips; matching never crashes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/fields.h"

namespace {

namespace fields = kcm::api::fields;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

std::vector<fields::Requirement> sorted_terms(const fields::Selector& s) {
  std::vector<fields::Requirement> terms = s.requirements();
  std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
    if (a.field != b.field) return a.field < b.field;
    if (a.op != b.op) return a.op < b.op;
    return a.value < b.value;
  });
  return terms;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  if (auto unescaped = fields::unescape_value(input)) {
    auto back = fields::unescape_value(fields::escape_value(*unescaped));
    if (!back || *back != *unescaped) fail_invariant("escape/unescape round trip", input);
  }

  auto s = fields::parse(input);
  if (!s) return 0;
  const std::string text = fields::to_string(*s);
  auto again = fields::parse(text);
  if (!again) fail_invariant("to_string output does not parse", input);
  if (sorted_terms(*again) != sorted_terms(*s)) {
    fail_invariant("to_string output parses to other terms", input);
  }
  // Once printed in sorted order, printing is a fixed point.
  const std::string text2 = fields::to_string(*again);
  auto third = fields::parse(text2);
  if (!third || !(*third == *again) || fields::to_string(*third) != text2) {
    fail_invariant("to_string is not stable", input);
  }

  // Objects built from the selector's own terms, and an empty one.
  std::map<std::string, std::string, std::less<>> own;
  for (const auto& r : s->requirements())
    own.emplace(r.field, r.value);
  const fields::FieldGetter get = [&own](std::string_view field) -> std::string_view {
    const auto it = own.find(field);
    return it == own.end() ? std::string_view() : std::string_view(it->second);
  };
  const std::vector<std::pair<std::string, std::string>> own_set(own.begin(), own.end());
  if (fields::matches(*s, get) != fields::matches(*s, own_set)) {
    fail_invariant("getter and set matching disagree", input);
  }
  (void)fields::matches(*s, std::vector<std::pair<std::string, std::string>>{});
  for (const auto& r : s->requirements())
    (void)s->requires_exact_match(r.field);
  (void)fields::check_metadata_fields(*s);
  return 0;
}
