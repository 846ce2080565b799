#include "tls/go_cipher_suites.h"

#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kcm::tls {
namespace {

// The ClientHello suites of an OpenSSL 3 client (TLS 1.3 ones first, AES-256 first).
const std::vector<std::uint16_t> kOpenSslClient = {0x1302, 0x1303, 0x1301, 0xc02c, 0xc030,
                                                   0x009f, 0xcca9, 0xcca8, 0xccaa, 0xc02b,
                                                   0xc02f, 0x009e, 0x00ff};
// Go's client on a CPU without AES instructions (ChaCha20 first).
const std::vector<std::uint16_t> kGoClientWithoutAes = {0x1303, 0x1301, 0x1302, 0xcca9,
                                                        0xcca8, 0xc02b, 0xc02f};

struct PreferredCase {
  const char* name;
  std::vector<std::uint16_t> offered;
  bool preferred;
};

TEST(GoCipherSuitesTest, AesGcmPreferredDecidesOnTheFirstSuiteGoKnows) {
  const std::vector<PreferredCase> cases = {
      {"OpenSSL client", kOpenSslClient, true},
      {"Go client without AES", kGoClientWithoutAes, false},
      {"TLS 1.3 AES-128 first", {0x1301, 0x1303}, true},
      {"GREASE and the SCSV are skipped", {0x0a0a, 0x00ff, 0x1301}, true},
      {"GREASE before ChaCha20", {0x0a0a, 0x1303, 0x1301}, false},
      {"ECDHE AES-GCM (TLS 1.2)", {0xc02f, 0xcca8}, true},
      {"ECDHE ChaCha20 (TLS 1.2)", {0xcca8, 0xc02f}, false},
      {"RSA AES-GCM is known but not one of Go's AES-GCM suites", {0x009c, 0xc02f}, false},
      {"ECDHE CBC first", {0xc013, 0xc02f}, false},
      {"a suite Go does not know is skipped", {0x009f, 0xc02b}, true},
      {"nothing Go knows", {0x009f, 0xccaa}, false},
      {"empty", {}, false},
  };
  for (const PreferredCase& c : cases) {
    EXPECT_EQ(aes_gcm_preferred(c.offered), c.preferred) << c.name;
  }
}

struct ChoiceCase {
  const char* name;
  std::vector<std::uint16_t> offered;
  bool hardware;
  std::optional<std::uint16_t> choice;
};

TEST(GoCipherSuitesTest, ServerChoiceFollowsGosPreferenceLists) {
  const std::vector<ChoiceCase> cases = {
      {"OpenSSL client, AES hardware", kOpenSslClient, true, kAes128GcmSha256},
      {"OpenSSL client, no AES hardware", kOpenSslClient, false, kChaCha20Poly1305Sha256},
      {"ChaCha20-first client, AES hardware", kGoClientWithoutAes, true, kChaCha20Poly1305Sha256},
      {"only AES-256 offered", {0x1302}, true, kAes256GcmSha384},
      {"only AES-256 offered, no AES hardware", {0x1302}, false, kAes256GcmSha384},
      {"AES-GCM preferred but no AES-128", {0x1302, 0x1303}, true, kAes256GcmSha384},
      {"a TLS 1.2 client", {0xc02f, 0xc02b}, true, std::nullopt},
      {"empty", {}, true, std::nullopt},
  };
  for (const ChoiceCase& c : cases) {
    EXPECT_EQ(go_server_choice(c.offered, c.hardware), c.choice) << c.name;
  }
}

TEST(GoCipherSuitesTest, SuiteNamesAreOpenSsls) {
  EXPECT_EQ(tls13_suite_name(kAes128GcmSha256), "TLS_AES_128_GCM_SHA256");
  EXPECT_EQ(tls13_suite_name(kAes256GcmSha384), "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(tls13_suite_name(kChaCha20Poly1305Sha256), "TLS_CHACHA20_POLY1305_SHA256");
  EXPECT_EQ(tls13_suite_name(0xc02f), "");
}

// Handshakes between real OpenSSL contexts, in memory.
using CtxPtr = std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>;
using SslPtr = std::unique_ptr<SSL, decltype(&SSL_free)>;

CtxPtr server_context(bool as_go) {
  CtxPtr ctx(SSL_CTX_new(TLS_server_method()), &SSL_CTX_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  EXPECT_GT(X509_sign(cert.get(), key.get(), EVP_sha256()), 0);
  EXPECT_EQ(SSL_CTX_use_certificate(ctx.get(), cert.get()), 1);
  EXPECT_EQ(SSL_CTX_use_PrivateKey(ctx.get(), key.get()), 1);
  if (as_go) choose_tls13_suites_as_go_server(ctx.get());
  return ctx;
}

struct Negotiated {
  std::string version;
  std::string cipher;
};

// Runs the handshake; the error text when it fails.
std::optional<Negotiated> handshake(SSL_CTX* client_ctx, SSL_CTX* server_ctx, std::string* error) {
  SslPtr client(SSL_new(client_ctx), &SSL_free);
  SslPtr server(SSL_new(server_ctx), &SSL_free);
  BIO* client_bio = nullptr;
  BIO* server_bio = nullptr;
  BIO_new_bio_pair(&client_bio, 0, &server_bio, 0);
  SSL_set_bio(client.get(), client_bio, client_bio);
  SSL_set_bio(server.get(), server_bio, server_bio);
  SSL_set_connect_state(client.get());
  SSL_set_accept_state(server.get());
  bool client_done = false;
  bool server_done = false;
  for (int round = 0; round < 20 && !(client_done && server_done); ++round) {
    for (auto [ssl, done] : {std::pair{client.get(), &client_done}, {server.get(), &server_done}}) {
      if (*done) continue;
      const int r = SSL_do_handshake(ssl);
      if (r == 1) {
        *done = true;
      } else if (const int e = SSL_get_error(ssl, r);
                 e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
        char buf[256];
        ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
        *error = buf;
        return std::nullopt;
      }
    }
  }
  if (!client_done || !server_done) {
    *error = "the handshake did not finish";
    return std::nullopt;
  }
  return Negotiated{SSL_get_version(server.get()), SSL_get_cipher_name(server.get())};
}

CtxPtr client_context() {
  CtxPtr ctx(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  return ctx;
}

std::string expected_aes_choice() {
  return has_aes_gcm_hardware() ? "TLS_AES_128_GCM_SHA256" : "TLS_CHACHA20_POLY1305_SHA256";
}

TEST(GoCipherSuitesTest, GoServerPicksWhatGoWouldForEachClient) {
  const CtxPtr server = server_context(/*as_go=*/true);
  struct Client {
    const char* name;
    const char* tls13_suites;  // nullptr: OpenSSL's default (AES-256 first)
    std::string cipher;
  };
  const std::vector<Client> clients = {
      {"OpenSSL's defaults", nullptr, expected_aes_choice()},
      {"ChaCha20 first", "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
       "TLS_CHACHA20_POLY1305_SHA256"},
      {"AES-256 only", "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"},
  };
  for (const Client& c : clients) {
    const CtxPtr client = client_context();
    if (c.tls13_suites != nullptr) {
      ASSERT_EQ(SSL_CTX_set_ciphersuites(client.get(), c.tls13_suites), 1) << c.name;
    }
    std::string error;
    const auto negotiated = handshake(client.get(), server.get(), &error);
    ASSERT_TRUE(negotiated) << c.name << ": " << error;
    EXPECT_EQ(negotiated->version, "TLSv1.3") << c.name;
    EXPECT_EQ(negotiated->cipher, c.cipher) << c.name;
  }
}

TEST(GoCipherSuitesTest, Tls12ClientsAreLeftToOpenSsl) {
  const CtxPtr server = server_context(/*as_go=*/true);
  const CtxPtr client = client_context();
  SSL_CTX_set_max_proto_version(client.get(), TLS1_2_VERSION);
  std::string error;
  const auto negotiated = handshake(client.get(), server.get(), &error);
  ASSERT_TRUE(negotiated) << error;
  EXPECT_EQ(negotiated->version, "TLSv1.2");
}

TEST(GoCipherSuitesTest, GoClientOrderWinsAtAServerThatFollowsTheClient) {
  // A plain OpenSSL server takes the client's first choice: Go's order.
  const CtxPtr server = server_context(/*as_go=*/false);
  const CtxPtr client = client_context();
  ASSERT_TRUE(offer_tls13_suites_as_go_client(client.get()));
  std::string error;
  const auto negotiated = handshake(client.get(), server.get(), &error);
  ASSERT_TRUE(negotiated) << error;
  EXPECT_EQ(negotiated->cipher, expected_aes_choice());

  // Without it, the same server takes OpenSSL's first choice.
  const CtxPtr plain = client_context();
  const auto plain_negotiated = handshake(plain.get(), server.get(), &error);
  ASSERT_TRUE(plain_negotiated) << error;
  EXPECT_EQ(plain_negotiated->cipher, "TLS_AES_256_GCM_SHA384");
}

}  // namespace
}  // namespace kcm::tls
