// TLS for kcm-local's API server: the serving certificate, client certificate
// verification against kcm-local's CA, and the identity a verified client
// certificate carries. The only kcm-local file that touches Boost.Asio SSL.
#pragma once

#include <openssl/types.h>

#include <optional>
#include <string>
#include <vector>

#include "api/result.h"
#include "local/pki/certificates.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace kcm::local::pki {

// Configures a server context (made with ssl::context::tls_server): the
// serving certificate and key, TLS 1.2 or later, ALPN "http/1.1" only (Go
// offers h2 first), and client certificates requested and verified against the
// CA but not required, since token users have none. A certificate that fails
// verification fails the handshake.
kcm::Result<void> configure_server_tls(boost::asio::ssl::context& ctx, const Credentials& creds);

// Who a client certificate says the caller is, as Kubernetes reads it: the
// subject's common name is the user, its organizations are the groups.
struct ClientIdentity {
  std::string user;
  std::vector<std::string> groups;
};

// The identity of a completed handshake's verified client certificate;
// nullopt without a certificate, when verification failed or the CN is empty.
std::optional<ClientIdentity> client_certificate_identity(const SSL* ssl);

}  // namespace kcm::local::pki
