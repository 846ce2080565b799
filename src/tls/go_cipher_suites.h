// TLS 1.3 cipher suites chosen as Go's crypto/tls chooses them, so that
// kcm-local negotiates what kube-apiserver would and kcm offers what
// client-go would. Go prefers AES-128-GCM when the CPU has AES-GCM
// instructions (and, as a server, when the client's first known suite is an
// AES-GCM one), ChaCha20-Poly1305 otherwise; OpenSSL by itself offers and
// accepts AES-256-GCM first. TLS 1.2 suites are left as OpenSSL has them.
#pragma once

#include <openssl/ssl.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace kcm::tls {

// IANA numbers of the TLS 1.3 suites.
inline constexpr std::uint16_t kAes128GcmSha256 = 0x1301;
inline constexpr std::uint16_t kAes256GcmSha384 = 0x1302;
inline constexpr std::uint16_t kChaCha20Poly1305Sha256 = 0x1303;

// Whether this CPU has what Go's AES-GCM code needs (hasAESGCMHardwareSupport).
bool has_aes_gcm_hardware();

// Go's isAESGCMPreferred: whether the first suite of `offered` (the client's
// order) that Go knows is an AES-GCM suite.
bool aes_gcm_preferred(std::span<const std::uint16_t> offered);

// The TLS 1.3 suite Go's server picks from `offered`: the first of its
// preference list the client offers. None when the client offers no TLS 1.3
// suite.
std::optional<std::uint16_t> go_server_choice(std::span<const std::uint16_t> offered,
                                              bool aes_gcm_hardware);

// OpenSSL's name of a TLS 1.3 suite ("TLS_AES_128_GCM_SHA256"); empty if unknown.
std::string_view tls13_suite_name(std::uint16_t suite);

// Client contexts: offer the TLS 1.3 suites in the order Go's ClientHello lists them.
// False (with OpenSSL's error queue set) when OpenSSL refuses the list.
bool offer_tls13_suites_as_go_client(SSL_CTX* ctx);

// Server contexts: on each ClientHello, restrict the connection's TLS 1.3
// suites to the one Go's server would pick.
void choose_tls13_suites_as_go_server(SSL_CTX* ctx);

}  // namespace kcm::tls
