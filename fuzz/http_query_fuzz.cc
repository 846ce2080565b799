// kcm's HTTPS endpoints' path and query decoding (app/url_unescape.h) on
// arbitrary bytes: what every request target goes through. Invariants: no
// crash; a decoded value percent-encoded byte by byte decodes back to itself;
// '+' is a space only in queries; query_values finds a value only where the
// decoded key matches.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/url_unescape.h"

namespace {

using kcm::app::query_values;
using kcm::app::url_unescape;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

std::string percent_encode_all(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out += '%';
    out += kHex[b >> 4];
    out += kHex[b & 0xF];
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  for (const bool plus_is_space : {false, true}) {
    const auto decoded = url_unescape(input, plus_is_space);
    if (!decoded) continue;
    const auto back = url_unescape(percent_encode_all(*decoded), plus_is_space);
    if (!back || *back != *decoded) fail_invariant("percent-encoding round trip", input);
    if (input.find('%') == std::string_view::npos) {
      std::string want(input);
      if (plus_is_space) {
        for (char& c : want)
          if (c == '+') c = ' ';
      }
      if (*decoded != want) fail_invariant("text without escapes changed", input);
    }
  }

  // The input as a query: every value found under a key reads back when the
  // key's pair is rebuilt alone with both sides fully encoded.
  const std::size_t cut = input.find('\n');
  const std::string_view key = cut == std::string_view::npos ? "uid" : input.substr(0, cut);
  const std::string_view query = cut == std::string_view::npos ? input : input.substr(cut + 1);
  if (const auto values = query_values(query, key)) {
    for (const std::string& v : *values) {
      const auto again = query_values(percent_encode_all(key) + "=" + percent_encode_all(v), key);
      if (!again || again->size() != 1 || (*again)[0] != v) {
        fail_invariant("a found value does not read back", input);
      }
    }
  }
  return 0;
}
