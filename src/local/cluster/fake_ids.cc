#include "local/cluster/fake_ids.h"

#include <cstdint>

namespace kcm::local::cluster {
namespace {

// splitmix64: a good 64-bit mixer, enough to spread seeds over hex digits.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::string hex_from(std::string_view seed, std::size_t chars) {
  std::uint64_t state = 1469598103934665603ull;  // FNV-1a of the seed
  for (const char c : seed) {
    state ^= static_cast<unsigned char>(c);
    state *= 1099511628211ull;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(chars);
  while (out.size() < chars) {
    state = mix(state);
    std::uint64_t word = state;
    for (int i = 0; i < 16 && out.size() < chars; ++i, word >>= 4)
      out.push_back(kDigits[word & 0xf]);
  }
  return out;
}

std::string uuid_from(std::string_view seed) {
  const std::string h = hex_from(seed, 32);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
         "-" + h.substr(20, 12);
}

}  // namespace kcm::local::cluster
