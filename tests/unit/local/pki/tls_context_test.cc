#include "local/pki/tls_context.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <stdlib.h>

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string_view>

#include "pki_test_util.h"

namespace kcm::local::pki {
namespace {

namespace fs = std::filesystem;
namespace ssl = boost::asio::ssl;

using SslPtr = std::unique_ptr<SSL, Deleter<SSL_free>>;
using SslCtxPtr = std::unique_ptr<SSL_CTX, Deleter<SSL_CTX_free>>;

struct ClientOptions {
  const Credentials* cert_from = nullptr;  // present this client certificate
  std::string_view alpn = std::string_view("\x02h2\x08http/1.1", 12);  // what Go offers
  int max_version = 0;
  const char* host = "localhost";
};

// Both ends of an in-memory handshake, as Go's client would do it: verify the
// server against the CA and host name, offer h2 and http/1.1.
struct Handshake {
  SslPtr server;
  SslPtr client;
  bool server_ok = false;
  bool client_ok = false;

  std::string selected_alpn() const {
    const unsigned char* data = nullptr;
    unsigned int len = 0;
    SSL_get0_alpn_selected(client.get(), &data, &len);
    return std::string(reinterpret_cast<const char*>(data), len);
  }
};

Handshake handshake(ssl::context& server_ctx, const Credentials& creds, const ClientOptions& opt) {
  const SslCtxPtr client_ctx(SSL_CTX_new(TLS_client_method()));
  X509_STORE_add_cert(SSL_CTX_get_cert_store(client_ctx.get()),
                      parse_cert(creds.ca_cert_pem).get());
  SSL_CTX_set_verify(client_ctx.get(), SSL_VERIFY_PEER, nullptr);
  if (opt.max_version != 0) {
    // Let the client go as low as it is told, so only the server can refuse.
    SSL_CTX_set_security_level(client_ctx.get(), 0);
    SSL_CTX_set_min_proto_version(client_ctx.get(), TLS1_VERSION);
    SSL_CTX_set_max_proto_version(client_ctx.get(), opt.max_version);
  }
  if (opt.cert_from != nullptr) {
    SSL_CTX_use_certificate(client_ctx.get(), parse_cert(opt.cert_from->client_cert_pem).get());
    SSL_CTX_use_PrivateKey(client_ctx.get(), parse_key(opt.cert_from->client_key_pem).get());
  }
  SSL_CTX_set_alpn_protos(client_ctx.get(), reinterpret_cast<const unsigned char*>(opt.alpn.data()),
                          static_cast<unsigned int>(opt.alpn.size()));

  Handshake h;
  h.server.reset(SSL_new(server_ctx.native_handle()));
  h.client.reset(SSL_new(client_ctx.get()));
  SSL_set1_host(h.client.get(), opt.host);
  BIO* server_bio = nullptr;
  BIO* client_bio = nullptr;
  BIO_new_bio_pair(&server_bio, 0, &client_bio, 0);
  SSL_set_bio(h.server.get(), server_bio, server_bio);
  SSL_set_bio(h.client.get(), client_bio, client_bio);
  SSL_set_accept_state(h.server.get());
  SSL_set_connect_state(h.client.get());

  bool client_failed = false;
  bool server_failed = false;
  for (int round = 0; round < 50 && !(h.client_ok && h.server_ok); ++round) {
    if (!h.client_ok && !client_failed) {
      const int rc = SSL_do_handshake(h.client.get());
      h.client_ok = rc == 1;
      const int err = SSL_get_error(h.client.get(), rc);
      client_failed = rc != 1 && err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE;
    }
    if (!h.server_ok && !server_failed) {
      const int rc = SSL_do_handshake(h.server.get());
      h.server_ok = rc == 1;
      const int err = SSL_get_error(h.server.get(), rc);
      server_failed = rc != 1 && err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE;
    }
    if (client_failed || server_failed) break;
  }
  ERR_clear_error();
  return h;
}

class TlsContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kcm-tls-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    auto creds = load_or_create(root_ / "data", {});
    ASSERT_TRUE(creds.ok()) << creds.error();
    creds_ = std::move(*creds);
    const auto configured = configure_server_tls(server_ctx_, creds_);
    ASSERT_TRUE(configured.ok()) << configured.error();
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
  Credentials creds_;
  ssl::context server_ctx_{ssl::context::tls_server};
};

TEST_F(TlsContextTest, ClientCertificateGivesTheAdminIdentity) {
  const Handshake h = handshake(server_ctx_, creds_, {.cert_from = &creds_});
  ASSERT_TRUE(h.client_ok && h.server_ok);
  EXPECT_EQ(SSL_get_verify_result(h.client.get()), X509_V_OK);
  EXPECT_EQ(h.selected_alpn(), "http/1.1");
  const auto identity = client_certificate_identity(h.server.get());
  ASSERT_TRUE(identity.has_value());
  EXPECT_EQ(identity->user, "kcm-admin");
  EXPECT_THAT(identity->groups, ::testing::ElementsAre("system:masters"));
}

TEST_F(TlsContextTest, NoClientCertificateIsAllowedForTokenUsers) {
  const Handshake h = handshake(server_ctx_, creds_, {});
  ASSERT_TRUE(h.client_ok && h.server_ok);
  EXPECT_EQ(h.selected_alpn(), "http/1.1");
  EXPECT_FALSE(client_certificate_identity(h.server.get()).has_value());
  EXPECT_FALSE(client_certificate_identity(nullptr).has_value());
}

TEST_F(TlsContextTest, Tls12WorksToo) {
  const Handshake h =
      handshake(server_ctx_, creds_, {.cert_from = &creds_, .max_version = TLS1_2_VERSION});
  ASSERT_TRUE(h.client_ok && h.server_ok);
  EXPECT_EQ(SSL_version(h.server.get()), TLS1_2_VERSION);
  EXPECT_EQ(h.selected_alpn(), "http/1.1");
  ASSERT_TRUE(client_certificate_identity(h.server.get()).has_value());
}

TEST_F(TlsContextTest, AlpnNeverSelectsH2) {
  const Handshake only_h2 = handshake(server_ctx_, creds_, {.alpn = std::string_view("\x02h2", 3)});
  ASSERT_TRUE(only_h2.client_ok && only_h2.server_ok);
  EXPECT_EQ(only_h2.selected_alpn(), "");
  const Handshake none = handshake(server_ctx_, creds_, {.alpn = {}});
  ASSERT_TRUE(none.client_ok && none.server_ok);
  EXPECT_EQ(none.selected_alpn(), "");
}

TEST_F(TlsContextTest, RefusesOldProtocols) {
  for (const int version : {TLS1_VERSION, TLS1_1_VERSION}) {
    const Handshake h = handshake(server_ctx_, creds_, {.max_version = version});
    EXPECT_FALSE(h.server_ok) << version;
  }
}

TEST_F(TlsContextTest, ClientVerifiesTheServingCertificateByName) {
  EXPECT_TRUE(handshake(server_ctx_, creds_, {.host = "127.0.0.1"}).client_ok);
  EXPECT_FALSE(handshake(server_ctx_, creds_, {.host = "example.com"}).client_ok);
}

TEST_F(TlsContextTest, ForeignClientCertificateFailsTheHandshake) {
  auto other = load_or_create(root_ / "other", {});
  ASSERT_TRUE(other.ok()) << other.error();
  const Handshake h = handshake(server_ctx_, creds_, {.cert_from = &*other});
  EXPECT_FALSE(h.server_ok);
  EXPECT_FALSE(client_certificate_identity(h.server.get()).has_value());
}

TEST_F(TlsContextTest, ServingCertificateIsNotAClientCertificate) {
  Credentials as_client = creds_;
  as_client.client_cert_pem = creds_.server_cert_pem;
  as_client.client_key_pem = creds_.server_key_pem;
  EXPECT_FALSE(handshake(server_ctx_, creds_, {.cert_from = &as_client}).server_ok);
}

TEST_F(TlsContextTest, BadCredentialsAreErrorsNamingTheFile) {
  struct Case {
    std::string Credentials::*field;
    const fs::path Credentials::*file;
  };
  for (const Case& c : {Case{&Credentials::server_cert_pem, &Credentials::server_cert_file},
                        Case{&Credentials::server_key_pem, &Credentials::server_key_file},
                        Case{&Credentials::ca_cert_pem, &Credentials::ca_cert_file}}) {
    Credentials bad = creds_;
    bad.*c.field = "garbage";
    ssl::context ctx(ssl::context::tls_server);
    const auto configured = configure_server_tls(ctx, bad);
    ASSERT_FALSE(configured.ok());
    EXPECT_THAT(configured.error(), ::testing::StartsWith((creds_.*c.file).string() + ": "));
  }
  Credentials mismatched = creds_;
  mismatched.server_key_pem = creds_.client_key_pem;
  ssl::context ctx(ssl::context::tls_server);
  const auto configured = configure_server_tls(ctx, mismatched);
  ASSERT_FALSE(configured.ok());
  EXPECT_THAT(configured.error(), ::testing::StartsWith(creds_.server_key_file.string() + ": "));
}

}  // namespace
}  // namespace kcm::local::pki
