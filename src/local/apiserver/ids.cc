#include "local/apiserver/ids.h"

#include <fmt/format.h>
#include <openssl/rand.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>

namespace kcm::local::apiserver {

namespace {

// Random bytes from OpenSSL's generator, drawn a few kilobytes at a time: one
// RAND_bytes call per object (with the generator's lock) cost more than the
// rest of naming it.
class RandomBytes {
 public:
  void fill(unsigned char* out, std::size_t n) {
    if (used_ + n > buffer_.size()) {
      if (RAND_bytes(buffer_.data(), static_cast<int>(buffer_.size())) != 1) {
        // Never expected once OpenSSL has seeded; names must still be unique, so stop.
        std::fprintf(stderr, "kcm-local: fatal: the random generator failed\n");
        std::abort();
      }
      used_ = 0;
    }
    std::memcpy(out, buffer_.data() + used_, n);
    used_ += n;
  }

 private:
  std::array<unsigned char, 4096> buffer_{};
  std::size_t used_ = buffer_.size();
};

void random_bytes(unsigned char* out, std::size_t n) {
  thread_local RandomBytes source;
  source.fill(out, n);
}

}  // namespace

std::string new_uid() {
  std::array<unsigned char, 16> b{};
  random_bytes(b.data(), b.size());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::string uid;
  uid.reserve(36);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uid += '-';
    uid += kHex[b[i] >> 4];
    uid += kHex[b[i] & 0x0f];
  }
  return uid;
}

std::string generate_name_suffix() {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::array<unsigned char, 5> b{};
  random_bytes(b.data(), b.size());
  std::string out;
  for (unsigned char c : b)
    out += kAlphabet[c % kAlphabet.size()];
  return out;
}

std::string rfc3339_now(std::chrono::seconds offset) {
  const std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() + offset);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

}  // namespace kcm::local::apiserver
