// The serving certificate of kcm's HTTPS endpoint, chosen as the apiserver's
// SecureServingOptions do for kube-controller-manager: --tls-cert-file and
// --tls-private-key-file when given; else, with --cert-dir, the pair
// <cert-dir>/kube-controller-manager.{crt,key}, generated and written there
// when neither file exists, reused afterwards; else a self-signed pair
// generated in memory (client-go's GenerateSelfSignedCertKey: an RSA 2048 CA
// signing an RSA 2048 serving certificate for "localhost", one year).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::app {

struct Options;

struct CertificateSources {
  // The secure-serving bind address: unspecified ("0.0.0.0", "::", "") adds
  // the DNS name "localhost" to a generated certificate, else the address.
  std::string bind_address = "0.0.0.0";
  std::string cert_dir;
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::string pair_name = "kube-controller-manager";
};

// The sources kcm's flags name.
CertificateSources certificate_sources(const Options& options);

// Whether a bind address listens on every interface: "", "0.0.0.0", "::" or
// "[::]".
inline bool is_unspecified_address(std::string_view address) {
  return address.empty() || address == "0.0.0.0" || address == "::" || address == "[::]";
}

struct ServingCertificate {
  std::string cert_pem;  // the serving certificate, then its chain
  std::string key_pem;
  // Files the pair was read from; empty for an in-memory pair.
  std::string cert_file;
  std::string key_file;
  bool generated = false;  // made by this call (in memory or written to cert_dir)
};

// A freshly generated pair, as GenerateSelfSignedCertKey returns it: the
// certificate PEM holds the serving certificate then the CA; the key is a
// PKCS#1 "RSA PRIVATE KEY".
struct SelfSignedPair {
  std::string cert_pem;
  std::string key_pem;
};

// `host` is an IP address or a DNS name (the certificate's first SAN and its
// common name "<host>@<unix seconds>"); the alternates follow it.
Result<SelfSignedPair> generate_self_signed_cert_key(std::string_view host,
                                                     const std::vector<std::string>& alternate_ips,
                                                     const std::vector<std::string>& alternate_dns);

// tls.X509KeyPair's checks with its messages: PEM blocks present, the first
// certificate parses, the key parses and matches it.
Result<void> check_key_pair(std::string_view cert_pem, std::string_view key_pem);

// MaybeDefaultWithSelfSignedCerts("localhost", nil, [127.0.0.1]) followed by
// loading the files. Errors read as upstream's, e.g.
//   open /x/tls.crt: no such file or directory
//   error creating self-signed certificates: error reading /d/kube-controller-manager.key,
//     certificate and key must be supplied as a pair
//   missing filename for serving cert
// and parse failures name the file first: "/x/tls.crt: tls: failed to find any
// PEM data in certificate input".
Result<ServingCertificate> load_serving_certificate(const CertificateSources& sources);

}  // namespace kcm::app
