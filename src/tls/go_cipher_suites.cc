#include "tls/go_cipher_suites.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace kcm::tls {
namespace {

// Go's TLS 1.3 preference lists (defaultCipherSuitesTLS13, ...NoAES).
constexpr std::array<std::uint16_t, 3> kWithAesHardware = {kAes128GcmSha256, kAes256GcmSha384,
                                                           kChaCha20Poly1305Sha256};
constexpr std::array<std::uint16_t, 3> kWithoutAesHardware = {kChaCha20Poly1305Sha256,
                                                              kAes128GcmSha256, kAes256GcmSha384};

// The TLS 1.2 suites Go implements (cipherSuites and insecureCipherSuites),
// with whether each is one of its aesgcmCiphers.
struct KnownSuite {
  std::uint16_t id;
  bool aes_gcm;
};
constexpr std::array<KnownSuite, 22> kGoTls12Suites = {{
    {0x0005, false},  // RSA_WITH_RC4_128_SHA
    {0x000a, false},  // RSA_WITH_3DES_EDE_CBC_SHA
    {0x002f, false},  // RSA_WITH_AES_128_CBC_SHA
    {0x0035, false},  // RSA_WITH_AES_256_CBC_SHA
    {0x003c, false},  // RSA_WITH_AES_128_CBC_SHA256
    {0x009c, false},  // RSA_WITH_AES_128_GCM_SHA256: AES-GCM, but not ECDHE
    {0x009d, false},  // RSA_WITH_AES_256_GCM_SHA384
    {0xc007, false},  // ECDHE_ECDSA_WITH_RC4_128_SHA
    {0xc009, false},  // ECDHE_ECDSA_WITH_AES_128_CBC_SHA
    {0xc00a, false},  // ECDHE_ECDSA_WITH_AES_256_CBC_SHA
    {0xc011, false},  // ECDHE_RSA_WITH_RC4_128_SHA
    {0xc012, false},  // ECDHE_RSA_WITH_3DES_EDE_CBC_SHA
    {0xc013, false},  // ECDHE_RSA_WITH_AES_128_CBC_SHA
    {0xc014, false},  // ECDHE_RSA_WITH_AES_256_CBC_SHA
    {0xc023, false},  // ECDHE_ECDSA_WITH_AES_128_CBC_SHA256
    {0xc027, false},  // ECDHE_RSA_WITH_AES_128_CBC_SHA256
    {0xc02b, true},   // ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
    {0xc02c, true},   // ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
    {0xc02f, true},   // ECDHE_RSA_WITH_AES_128_GCM_SHA256
    {0xc030, true},   // ECDHE_RSA_WITH_AES_256_GCM_SHA384
    {0xcca8, false},  // ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256
    {0xcca9, false},  // ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256
}};

bool is_tls13_suite(std::uint16_t id) {
  return id == kAes128GcmSha256 || id == kAes256GcmSha384 || id == kChaCha20Poly1305Sha256;
}

const std::array<std::uint16_t, 3>& preference_list(bool aes_gcm_first) {
  return aes_gcm_first ? kWithAesHardware : kWithoutAesHardware;
}

int on_client_hello(SSL* ssl, int* alert, void* /*arg*/) {
  const unsigned char* bytes = nullptr;
  const std::size_t length = SSL_client_hello_get0_ciphers(ssl, &bytes);
  std::vector<std::uint16_t> offered;
  offered.reserve(length / 2);
  for (std::size_t i = 0; i + 1 < length; i += 2) {
    offered.push_back(static_cast<std::uint16_t>((bytes[i] << 8) | bytes[i + 1]));
  }
  const std::optional<std::uint16_t> choice = go_server_choice(offered, has_aes_gcm_hardware());
  if (!choice) return SSL_CLIENT_HELLO_SUCCESS;  // a TLS 1.2 client: OpenSSL decides
  // A list of one: OpenSSL (which follows the client's order) can only take it.
  const std::string name(tls13_suite_name(*choice));
  if (SSL_set_ciphersuites(ssl, name.c_str()) != 1) {
    *alert = SSL_AD_INTERNAL_ERROR;
    return SSL_CLIENT_HELLO_ERROR;
  }
  return SSL_CLIENT_HELLO_SUCCESS;
}

}  // namespace

bool has_aes_gcm_hardware() {
#if defined(__x86_64__)
  // Go's hasGCMAsmAMD64.
  static const bool has = __builtin_cpu_supports("aes") && __builtin_cpu_supports("pclmul") &&
                          __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
  return has;
#elif defined(__aarch64__)
  static const bool has = (getauxval(AT_HWCAP) & (HWCAP_AES | HWCAP_PMULL)) ==
                          static_cast<unsigned long>(HWCAP_AES | HWCAP_PMULL);
  return has;
#else
  return false;
#endif
}

bool aes_gcm_preferred(std::span<const std::uint16_t> offered) {
  for (const std::uint16_t id : offered) {
    if (is_tls13_suite(id)) return id != kChaCha20Poly1305Sha256;
    for (const KnownSuite& known : kGoTls12Suites) {
      if (known.id == id) return known.aes_gcm;
    }
  }
  return false;
}

std::optional<std::uint16_t> go_server_choice(std::span<const std::uint16_t> offered,
                                              bool aes_gcm_hardware) {
  for (const std::uint16_t id : preference_list(aes_gcm_hardware && aes_gcm_preferred(offered))) {
    if (std::ranges::find(offered, id) != offered.end()) return id;
  }
  return std::nullopt;
}

std::string_view tls13_suite_name(std::uint16_t suite) {
  switch (suite) {
    case kAes128GcmSha256:
      return "TLS_AES_128_GCM_SHA256";
    case kAes256GcmSha384:
      return "TLS_AES_256_GCM_SHA384";
    case kChaCha20Poly1305Sha256:
      return "TLS_CHACHA20_POLY1305_SHA256";
    default:
      return {};
  }
}

bool offer_tls13_suites_as_go_client(SSL_CTX* ctx) {
  // The preference list's OpenSSL names, joined as SSL_CTX_set_ciphersuites takes them.
  std::string names;
  for (const std::uint16_t id : preference_list(has_aes_gcm_hardware())) {
    if (!names.empty()) names += ':';
    names += tls13_suite_name(id);
  }
  return SSL_CTX_set_ciphersuites(ctx, names.c_str()) == 1;
}

void choose_tls13_suites_as_go_server(SSL_CTX* ctx) {
  SSL_CTX_set_client_hello_cb(ctx, on_client_hello, nullptr);
}

}  // namespace kcm::tls
