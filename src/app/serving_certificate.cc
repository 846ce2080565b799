#include "app/serving_certificate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>

#include "app/options.h"
#include "log/log.h"

namespace kcm::app {

namespace {

namespace fs = std::filesystem;

struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct ExtFree {
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using ExtPtr = std::unique_ptr<X509_EXTENSION, ExtFree>;

std::string openssl_error(std::string_view what) {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return std::string(what);
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return std::string(what) + ": " + buf;
}

// Go's syscall error text: strerror with a lowercase first letter.
std::string errno_text(int err) {
  std::string text = std::strerror(err);
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

// os.ReadFile with Go's error wording ("open <path>: ...", "read <path>: ...").
Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("open " + path + ": " + errno_text(errno));
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fail("read " + path + ": is a directory");
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return fail("read " + path + ": " + errno_text(errno));
  return out.str();
}

bool can_read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<bool>(in);
}

// certutil.WriteCert / keyutil.WriteKey: parent made 0755, file written with
// `mode` (0644 certificate, 0600 key).
Result<void> write_file(const std::string& path, std::string_view data, mode_t mode) {
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) return fail("mkdir " + parent.string() + ": " + errno_text(ec.value()));
  }
  // Created with its final mode (less the umask, as Go's os.WriteFile), so
  // a key is never readable by others.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return fail("open " + path + ": " + errno_text(errno));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return fail("write " + path + ": " + errno_text(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return fail("close " + path + ": " + errno_text(errno));
  return {};
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(len));
}

struct PemBlock {
  std::string type;
  std::string der;
};

// Every PEM block in `text`, in order (pem.Decode in a loop; data that is not a
// block is skipped).
std::vector<PemBlock> pem_blocks(std::string_view text) {
  std::vector<PemBlock> blocks;
  BioPtr bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  if (!bio) return blocks;
  for (;;) {
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    if (PEM_read_bio(bio.get(), &name, &header, &data, &len) != 1) break;
    blocks.push_back(
        {name, std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(len))});
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(data);
  }
  ERR_clear_error();
  return blocks;
}

std::string type_list(const std::vector<std::string>& types) {
  std::string out = "[";
  for (std::size_t i = 0; i < types.size(); ++i)
    out += (i ? " " : "") + types[i];
  return out + "]";
}

enum class PairPart { kCert, kKey, kBoth };
struct PairError {
  PairPart part;
  std::string message;
};

std::optional<PairError> check_pair(std::string_view cert_pem, std::string_view key_pem) {
  std::vector<std::string> skipped;
  std::string first_cert;
  for (const auto& b : pem_blocks(cert_pem)) {
    if (b.type == "CERTIFICATE") {
      if (first_cert.empty()) first_cert = b.der;
    } else if (first_cert.empty()) {
      skipped.push_back(b.type);
    }
  }
  if (first_cert.empty()) {
    if (skipped.empty()) {
      return PairError{PairPart::kCert, "tls: failed to find any PEM data in certificate input"};
    }
    return PairError{PairPart::kCert,
                     "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after "
                     "skipping PEM blocks of the following types: " +
                         type_list(skipped)};
  }
  skipped.clear();
  std::string key_der;
  bool found_key = false;
  for (const auto& b : pem_blocks(key_pem)) {
    if (b.type == "PRIVATE KEY" || b.type.ends_with(" PRIVATE KEY")) {
      key_der = b.der;
      found_key = true;
      break;
    }
    skipped.push_back(b.type);
  }
  if (!found_key) {
    if (skipped.empty()) {
      return PairError{PairPart::kKey, "tls: failed to find any PEM data in key input"};
    }
    if (skipped.size() == 1 && skipped[0] == "CERTIFICATE") {
      return PairError{PairPart::kKey,
                       "tls: found a certificate rather than a key in the PEM for the private key"};
    }
    return PairError{PairPart::kKey,
                     "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key "
                     "input after skipping PEM blocks of the following types: " +
                         type_list(skipped)};
  }
  const auto* cp = reinterpret_cast<const unsigned char*>(first_cert.data());
  X509Ptr cert(d2i_X509(nullptr, &cp, static_cast<long>(first_cert.size())));
  if (!cert) {
    ERR_clear_error();
    return PairError{PairPart::kCert, "x509: malformed certificate"};
  }
  const auto* kp = reinterpret_cast<const unsigned char*>(key_der.data());
  PkeyPtr key(d2i_AutoPrivateKey(nullptr, &kp, static_cast<long>(key_der.size())));
  if (!key) {
    ERR_clear_error();
    return PairError{PairPart::kKey, "tls: failed to parse private key"};
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return PairError{PairPart::kBoth, "tls: private key does not match public key"};
  }
  return std::nullopt;
}

bool is_ip(std::string_view s) {
  const std::string text(s);
  unsigned char buf[16];
  return inet_pton(AF_INET, text.c_str(), buf) == 1 || inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

Result<void> add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  ExtPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) {
    return fail(openssl_error("certificate extension " + value));
  }
  return {};
}

Result<PkeyPtr> rsa_key() {
  PkeyPtr key(EVP_RSA_gen(2048));
  if (!key) return fail(openssl_error("generating an RSA key"));
  return key;
}

struct CertSpec {
  long serial = 0;
  std::string common_name;
  std::int64_t not_before = 0;  // unix seconds
  std::int64_t not_after = 0;
  bool is_ca = false;
  std::string subject_alt_names;  // "DNS:x,IP:y"
};

Result<X509Ptr> make_cert(const CertSpec& spec, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key) {
  X509Ptr cert(X509_new());
  if (!cert) return fail(openssl_error("X509_new"));
  X509_set_version(cert.get(), X509_VERSION_3);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), spec.serial);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(spec.common_name.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);
  ASN1_TIME_set(X509_getm_notBefore(cert.get()), static_cast<time_t>(spec.not_before));
  ASN1_TIME_set(X509_getm_notAfter(cert.get()), static_cast<time_t>(spec.not_after));
  X509_set_pubkey(cert.get(), key);
  X509* const signer = issuer ? issuer : cert.get();
  if (spec.is_ca) {
    if (auto r = add_extension(cert.get(), signer, NID_key_usage,
                               "critical,digitalSignature,keyEncipherment,keyCertSign");
        !r)
      return fail(r.error());
    if (auto r = add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE"); !r)
      return fail(r.error());
    if (auto r = add_extension(cert.get(), signer, NID_subject_key_identifier, "hash"); !r)
      return fail(r.error());
  } else {
    if (auto r = add_extension(cert.get(), signer, NID_key_usage,
                               "critical,digitalSignature,keyEncipherment");
        !r)
      return fail(r.error());
    if (auto r = add_extension(cert.get(), signer, NID_ext_key_usage, "serverAuth"); !r)
      return fail(r.error());
    if (auto r = add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE"); !r)
      return fail(r.error());
    if (auto r = add_extension(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
        !r)
      return fail(r.error());
    if (!spec.subject_alt_names.empty()) {
      if (auto r = add_extension(cert.get(), signer, NID_subject_alt_name, spec.subject_alt_names);
          !r)
        return fail(r.error());
    }
  }
  if (X509_sign(cert.get(), issuer_key ? issuer_key : key, EVP_sha256()) <= 0) {
    return fail(openssl_error("signing the certificate"));
  }
  return cert;
}

Result<ServingCertificate> load_pair(const std::string& cert_file, const std::string& key_file) {
  // dynamiccertificates.NewDynamicServingContentFromFiles("serving-cert", ...).
  if (cert_file.empty() || key_file.empty()) return fail("missing filename for serving cert");
  auto cert = read_file(cert_file);
  if (!cert) return fail(cert.error());
  auto key = read_file(key_file);
  if (!key) return fail(key.error());
  if (cert->empty() || key->empty()) {
    return fail("missing content for serving cert \"serving-cert::" + cert_file + "::" + key_file +
                "\"");
  }
  if (const auto err = check_pair(*cert, *key)) {
    switch (err->part) {
      case PairPart::kCert:
        return fail(cert_file + ": " + err->message);
      case PairPart::kKey:
        return fail(key_file + ": " + err->message);
      case PairPart::kBoth:
        return fail(cert_file + ", " + key_file + ": " + err->message);
    }
  }
  ServingCertificate out;
  out.cert_pem = std::move(*cert);
  out.key_pem = std::move(*key);
  out.cert_file = cert_file;
  out.key_file = key_file;
  return out;
}

}  // namespace

CertificateSources certificate_sources(const Options& options) {
  CertificateSources s;
  s.bind_address = options.bind_address;
  s.cert_dir = options.cert_dir;
  s.tls_cert_file = options.tls_cert_file;
  s.tls_private_key_file = options.tls_private_key_file;
  return s;
}

Result<SelfSignedPair> generate_self_signed_cert_key(
    std::string_view host, const std::vector<std::string>& alternate_ips,
    const std::vector<std::string>& alternate_dns) {
  const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  // Valid from an hour ago against clock skew, for one year.
  const std::int64_t valid_from = now - 3600;
  const std::int64_t valid_to = valid_from + 365LL * 24 * 3600;

  for (const auto& ip : alternate_ips) {
    if (!is_ip(ip)) return fail("invalid IP address " + ip);
  }
  auto ca_key = rsa_key();
  if (!ca_key) return fail(ca_key.error());
  CertSpec ca_spec;
  ca_spec.serial = 1;
  ca_spec.common_name = std::string(host) + "-ca@" + std::to_string(now);
  ca_spec.not_before = valid_from;
  ca_spec.not_after = valid_to;
  ca_spec.is_ca = true;
  auto ca = make_cert(ca_spec, ca_key->get(), nullptr, nullptr);
  if (!ca) return fail(ca.error());

  auto key = rsa_key();
  if (!key) return fail(key.error());
  // Go writes DNS names before IP addresses.
  std::vector<std::string> dns;
  std::vector<std::string> ips;
  (is_ip(host) ? ips : dns).emplace_back(host);
  ips.insert(ips.end(), alternate_ips.begin(), alternate_ips.end());
  dns.insert(dns.end(), alternate_dns.begin(), alternate_dns.end());
  std::string sans;
  for (const auto& d : dns)
    sans += (sans.empty() ? "DNS:" : ",DNS:") + d;
  for (const auto& ip : ips)
    sans += (sans.empty() ? "IP:" : ",IP:") + ip;
  CertSpec spec;
  spec.serial = 2;
  spec.common_name = std::string(host) + "@" + std::to_string(now);
  spec.not_before = valid_from;
  spec.not_after = valid_to;
  spec.subject_alt_names = sans;
  auto cert = make_cert(spec, key->get(), ca->get(), ca_key->get());
  if (!cert) return fail(cert.error());

  BioPtr cert_bio(BIO_new(BIO_s_mem()));
  BioPtr key_bio(BIO_new(BIO_s_mem()));
  if (!cert_bio || !key_bio || PEM_write_bio_X509(cert_bio.get(), cert->get()) != 1 ||
      PEM_write_bio_X509(cert_bio.get(), ca->get()) != 1 ||
      PEM_write_bio_PrivateKey_traditional(key_bio.get(), key->get(), nullptr, nullptr, 0, nullptr,
                                           nullptr) != 1) {
    return fail(openssl_error("encoding the certificate"));
  }
  return SelfSignedPair{bio_text(cert_bio.get()), bio_text(key_bio.get())};
}

Result<void> check_key_pair(std::string_view cert_pem, std::string_view key_pem) {
  if (const auto err = check_pair(cert_pem, key_pem)) return fail(err->message);
  return {};
}

Result<ServingCertificate> load_serving_certificate(const CertificateSources& sources) {
  if (!sources.tls_cert_file.empty() || !sources.tls_private_key_file.empty()) {
    return load_pair(sources.tls_cert_file, sources.tls_private_key_file);
  }
  // MaybeDefaultWithSelfSignedCerts("localhost", nil, [127.0.0.1]).
  std::vector<std::string> alternate_ips = {"127.0.0.1"};
  std::vector<std::string> alternate_dns;
  if (is_unspecified_address(sources.bind_address)) {
    alternate_dns.emplace_back("localhost");
  } else {
    std::string ip = sources.bind_address;
    if (ip.size() > 2 && ip.front() == '[' && ip.back() == ']') ip = ip.substr(1, ip.size() - 2);
    alternate_ips.push_back(ip);
  }
  if (!sources.cert_dir.empty()) {
    const std::string cert_file =
        (fs::path(sources.cert_dir) / (sources.pair_name + ".crt")).string();
    const std::string key_file =
        (fs::path(sources.cert_dir) / (sources.pair_name + ".key")).string();
    const bool cert_readable = can_read_file(cert_file);
    const bool key_readable = can_read_file(key_file);
    if (cert_readable != key_readable) {
      return fail("error creating self-signed certificates: error reading " +
                  (cert_readable ? key_file : cert_file) +
                  ", certificate and key must be supplied as a pair");
    }
    bool generated = false;
    if (!cert_readable) {
      auto pair = generate_self_signed_cert_key("localhost", alternate_ips, alternate_dns);
      if (!pair) {
        return fail(
            "error creating self-signed certificates: unable to generate self signed cert: " +
            pair.error());
      }
      if (auto w = write_file(cert_file, pair->cert_pem, 0644); !w) {
        return fail("error creating self-signed certificates: " + w.error());
      }
      if (auto w = write_file(key_file, pair->key_pem, 0600); !w) {
        return fail("error creating self-signed certificates: " + w.error());
      }
      log::info("Generated self-signed cert", {{"cert", cert_file}, {"key", key_file}});
      generated = true;
    }
    auto loaded = load_pair(cert_file, key_file);
    if (loaded) loaded->generated = generated;
    return loaded;
  }
  auto pair = generate_self_signed_cert_key("localhost", alternate_ips, alternate_dns);
  if (!pair) {
    return fail("error creating self-signed certificates: unable to generate self signed cert: " +
                pair.error());
  }
  log::info("Generated self-signed cert in-memory");
  ServingCertificate out;
  out.cert_pem = std::move(pair->cert_pem);
  out.key_pem = std::move(pair->key_pem);
  out.generated = true;
  return out;
}

}  // namespace kcm::app
