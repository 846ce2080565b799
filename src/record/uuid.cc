#include "record/uuid.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <random>

namespace kcm::record {

std::string new_uuid() {
  // One seeded engine per process; random_device alone may be slow per call.
  static std::mutex mu;
  static std::mt19937_64 engine{std::random_device{}()};
  std::array<std::uint8_t, 16> b{};
  {
    std::lock_guard lock(mu);
    for (std::size_t i = 0; i < b.size(); i += 8) {
      const std::uint64_t r = engine();
      for (std::size_t j = 0; j < 8; ++j)
        b[i + j] = static_cast<std::uint8_t>(r >> (8 * j));
    }
  }
  b[6] = static_cast<std::uint8_t>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<std::uint8_t>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 0x0f]);
  }
  return out;
}

}  // namespace kcm::record
