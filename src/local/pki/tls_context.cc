#include "local/pki/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>
#include <cstring>
#include <memory>
#include <string_view>

#include "tls/go_cipher_suites.h"

namespace kcm::local::pki {
namespace {

namespace ssl = boost::asio::ssl;

constexpr std::string_view kHttp11 = "http/1.1";
constexpr std::string_view kSessionIdContext = "kcm-local";

// Picks "http/1.1" from the client's ALPN list. Without it no protocol is
// acknowledged, and Go clients fall back to HTTP/1.1 anyway.
int select_http11(SSL* /*ssl*/, const unsigned char** out, unsigned char* outlen,
                  const unsigned char* in, unsigned int inlen, void* /*arg*/) {
  for (unsigned int i = 0; i < inlen;) {
    const unsigned int len = in[i];
    if (i + 1 + len > inlen) break;
    if (len == kHttp11.size() && std::memcmp(in + i + 1, kHttp11.data(), len) == 0) {
      *out = in + i + 1;
      *outlen = static_cast<unsigned char>(len);
      return SSL_TLSEXT_ERR_OK;
    }
    i += 1 + len;
  }
  return SSL_TLSEXT_ERR_NOACK;
}

std::string openssl_reason() {
  std::string reason = "unknown error";
  if (const unsigned long code = ERR_get_error(); code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    reason = buf;
  }
  ERR_clear_error();
  return reason;
}

std::string utf8(const ASN1_STRING* value) {
  unsigned char* out = nullptr;
  const int len = ASN1_STRING_to_UTF8(&out, value);
  if (len < 0) {
    ERR_clear_error();
    return {};
  }
  std::string text(reinterpret_cast<const char*>(out), static_cast<std::size_t>(len));
  OPENSSL_free(out);
  return text;
}

}  // namespace

kcm::Result<void> configure_server_tls(ssl::context& ctx, const Credentials& creds) {
  SSL_CTX* native = ctx.native_handle();
  boost::system::error_code ec;
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_compression |
                      ssl::context::single_dh_use,
                  ec);
  if (ec) return kcm::fail("configuring TLS: " + ec.message());
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
  // Idle connections (thousands of quiet watches) give their record buffers back.
  SSL_CTX_set_mode(native, SSL_MODE_RELEASE_BUFFERS);
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) {
    return kcm::fail("configuring TLS: " + openssl_reason());
  }
  // kube-apiserver is a Go server: the same TLS 1.3 suite for the same client.
  tls::choose_tls13_suites_as_go_server(native);

  ctx.use_certificate_chain(boost::asio::buffer(creds.server_cert_pem), ec);
  if (ec) return kcm::fail(creds.server_cert_file.string() + ": " + ec.message());
  ctx.use_private_key(boost::asio::buffer(creds.server_key_pem), ssl::context::pem, ec);
  if (ec) return kcm::fail(creds.server_key_file.string() + ": " + ec.message());
  if (SSL_CTX_check_private_key(native) != 1) {
    ERR_clear_error();
    return kcm::fail(creds.server_key_file.string() + ": does not match " +
                     creds.server_cert_file.string());
  }

  // Trust the CA for client certificates and name it in the CertificateRequest.
  ctx.add_certificate_authority(boost::asio::buffer(creds.ca_cert_pem), ec);
  if (ec) return kcm::fail(creds.ca_cert_file.string() + ": " + ec.message());
  {
    const std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(creds.ca_cert_pem.data(), static_cast<int>(creds.ca_cert_pem.size())),
        &BIO_free);
    const std::unique_ptr<X509, decltype(&X509_free)> ca(
        bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free);
    if (!ca || SSL_CTX_add_client_CA(native, ca.get()) != 1) {
      return kcm::fail(creds.ca_cert_file.string() + ": " + openssl_reason());
    }
  }
  ctx.set_verify_mode(ssl::verify_peer, ec);  // not verify_fail_if_no_peer_cert
  if (ec) return kcm::fail("configuring TLS: " + ec.message());
  SSL_CTX_set_purpose(native, X509_PURPOSE_SSL_CLIENT);  // client certs need clientAuth
  // Session resumption with client verification requires a session id context.
  SSL_CTX_set_session_id_context(native,
                                 reinterpret_cast<const unsigned char*>(kSessionIdContext.data()),
                                 static_cast<unsigned int>(kSessionIdContext.size()));

  SSL_CTX_set_alpn_select_cb(native, select_http11, nullptr);
  return {};
}

std::optional<ClientIdentity> client_certificate_identity(const SSL* ssl) {
  X509* cert = ssl != nullptr ? SSL_get0_peer_certificate(ssl) : nullptr;
  if (cert == nullptr || SSL_get_verify_result(ssl) != X509_V_OK) return std::nullopt;
  const X509_NAME* subject = X509_get_subject_name(cert);
  ClientIdentity identity;
  for (int i = 0; i < X509_NAME_entry_count(subject); ++i) {
    const X509_NAME_ENTRY* entry = X509_NAME_get_entry(subject, i);
    const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
    if (nid == NID_commonName) {
      identity.user = utf8(X509_NAME_ENTRY_get_data(entry));  // the last CN wins, as in Go
    } else if (nid == NID_organizationName) {
      identity.groups.push_back(utf8(X509_NAME_ENTRY_get_data(entry)));
    }
  }
  if (identity.user.empty()) return std::nullopt;
  return identity;
}

}  // namespace kcm::local::pki
