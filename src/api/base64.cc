#include "api/base64.h"

#include <fmt/format.h>

#include <array>

namespace kcm::api {
namespace {

constexpr std::string_view kStandard =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrl =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::array<int, 256> reverse(std::string_view alphabet) {
  std::array<int, 256> r{};
  r.fill(-1);
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    r[static_cast<unsigned char>(alphabet[i])] = static_cast<int>(i);
  return r;
}

}  // namespace

std::string base64_encode(std::string_view data, Base64Alphabet alphabet) {
  const std::string_view table = alphabet == Base64Alphabet::kStandard ? kStandard : kUrl;
  const bool pad = alphabet == Base64Alphabet::kStandard;
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(data[i]) << 16) |
                       (static_cast<unsigned char>(data[i + 1]) << 8) |
                       static_cast<unsigned char>(data[i + 2]);
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += table[v & 63];
  }
  const std::size_t rest = data.size() - i;
  if (rest > 0) {
    unsigned v = static_cast<unsigned char>(data[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(data[i + 1]) << 8;
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    if (rest == 2) out += table[(v >> 6) & 63];
    if (pad) out.append(rest == 1 ? "==" : "=");
  }
  return out;
}

Result<std::string> base64_decode(std::string_view text, Base64Alphabet alphabet) {
  static const auto kStandardReverse = reverse(kStandard);
  static const auto kUrlReverse = reverse(kUrl);
  const auto& rev = alphabet == Base64Alphabet::kStandard ? kStandardReverse : kUrlReverse;
  std::size_t len = text.size();
  std::size_t padding = 0;
  if (alphabet == Base64Alphabet::kStandard) {
    if (len % 4 != 0) {
      // As Go: the first bad character, else where the incomplete quantum starts.
      for (std::size_t i = 0; i < len; ++i) {
        if (text[i] == '=') {
          // Padding: needs two or three characters before it in the quantum,
          // and a second '=' after two.
          const std::size_t j = i % 4;
          if (j < 2) break;
          const std::size_t at = j == 2 ? (i + 1 == len ? len : i + 1) : i + 1;
          return fail(fmt::format("illegal base64 data at input byte {}", at));
        }
        if (rev[static_cast<unsigned char>(text[i])] < 0) {
          return fail(fmt::format("illegal base64 data at input byte {}", i));
        }
      }
      for (std::size_t i = 0; i < len; ++i) {
        if (text[i] == '=' && i % 4 < 2) {
          return fail(fmt::format("illegal base64 data at input byte {}", i));
        }
      }
      return fail(fmt::format("illegal base64 data at input byte {}", len - len % 4));
    }
    while (padding < 2 && len > 0 && text[len - 1] == '=') {
      --len;
      ++padding;
    }
  } else if (len % 4 == 1) {
    return fail(fmt::format("illegal base64 data at input byte {}", len - 1));
  }
  std::string out;
  out.reserve(len / 4 * 3 + 3);
  unsigned acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const int v = rev[static_cast<unsigned char>(text[i])];
    if (v < 0) return fail(fmt::format("illegal base64 data at input byte {}", i));
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  // Leftover bits must be zero (canonical encoding).
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) {
    return fail(fmt::format("illegal base64 data at input byte {}", len - 1));
  }
  return out;
}

}  // namespace kcm::api
