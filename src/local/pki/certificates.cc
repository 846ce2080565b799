#include "local/pki/certificates.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

#include "local/pki/openssl_ptr.h"

namespace kcm::local::pki {
namespace {

namespace fs = std::filesystem;

using BignumPtr = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using ExtensionPtr = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION_free>>;
using GeneralNamesPtr = std::unique_ptr<GENERAL_NAMES, Deleter<GENERAL_NAMES_free>>;
using GeneralNamePtr = std::unique_ptr<GENERAL_NAME, Deleter<GENERAL_NAME_free>>;
using OctetStringPtr = std::unique_ptr<ASN1_OCTET_STRING, Deleter<ASN1_OCTET_STRING_free>>;
using Ia5StringPtr = std::unique_ptr<ASN1_IA5STRING, Deleter<ASN1_IA5STRING_free>>;

constexpr int kCaDays = 3650;
constexpr int kLeafDays = 365;
constexpr long kBackdateSeconds = 3600;  // tolerate small clock differences
constexpr std::time_t kRenewBeforeSeconds = 30L * 24 * 3600;
constexpr std::size_t kMaxFileBytes = 1 << 20;
constexpr std::size_t kTokenBytes = 32;
constexpr fs::perms kSecretMode = fs::perms::owner_read | fs::perms::owner_write;
constexpr fs::perms kPublicMode = kSecretMode | fs::perms::group_read | fs::perms::others_read;

// Takes (and clears) OpenSSL's error queue into a message about `what`.
std::string openssl_error(std::string_view what) {
  std::string message(what);
  if (const unsigned long code = ERR_get_error(); code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    message += ": ";
    message += buf;
  }
  ERR_clear_error();
  return message;
}

std::string errno_message(int err) {
  return std::generic_category().message(err);
}

// ---- files ----------------------------------------------------------------

// True when `file` exists, false when it does not, an error when stat fails
// for another reason (e.g. a parent is not a directory).
kcm::Result<bool> file_exists(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) == 0) return true;
  if (errno == ENOENT) return false;
  return kcm::fail("cannot access " + file.string() + ": " + errno_message(errno));
}

kcm::Result<std::string> read_file(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return kcm::fail("cannot read " + file.string() + ": " + errno_message(errno));
  std::string data;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return kcm::fail("cannot read " + file.string() + ": " + errno_message(err));
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > kMaxFileBytes) {
      ::close(fd);
      return kcm::fail(file.string() + ": larger than 1 MiB");
    }
  }
  ::close(fd);
  return data;
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Creates `dir` with mode 0700 unless it exists (as a directory).
kcm::Result<void> make_private_directory(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return {};
  const int err = errno;
  struct stat st {};
  if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return {};
  if (err == EEXIST)
    return kcm::fail("cannot create directory " + dir.string() + ": not a directory");
  return kcm::fail("cannot create directory " + dir.string() + ": " + errno_message(err));
}

// ---- PEM ------------------------------------------------------------------

// Refuses to prompt on the terminal for a passphrase: kcm-local's keys have none.
int no_passphrase(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*u*/) {
  return 0;
}

BioPtr memory_bio(std::string_view data) {
  return BioPtr(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
}

std::string bio_contents(BIO* bio) {
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(len));
}

kcm::Result<X509Ptr> parse_certificate(const fs::path& file, std::string_view pem) {
  const BioPtr bio = memory_bio(pem);
  X509Ptr cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, no_passphrase, nullptr) : nullptr);
  ERR_clear_error();
  if (!cert) return kcm::fail(file.string() + ": not a PEM certificate");
  return cert;
}

kcm::Result<PkeyPtr> parse_private_key(const fs::path& file, std::string_view pem) {
  const BioPtr bio = memory_bio(pem);
  PkeyPtr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr) : nullptr);
  ERR_clear_error();
  if (!key) return kcm::fail(file.string() + ": not a PEM private key");
  return key;
}

kcm::Result<std::string> certificate_pem(X509* cert) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) {
    return kcm::fail(openssl_error("encoding a certificate"));
  }
  return bio_contents(bio.get());
}

kcm::Result<std::string> private_key_pem(EVP_PKEY* key) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio ||
      PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return kcm::fail(openssl_error("encoding a private key"));
  }
  return bio_contents(bio.get());
}

// ---- subject alternative names ---------------------------------------------

struct San {
  bool is_ip = false;
  std::string value;  // raw address bytes for IPs, lowercase name for DNS
};

bool operator==(const San& a, const San& b) {
  return a.is_ip == b.is_ip && a.value == b.value;
}

bool valid_dns_name(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t dot = std::min(name.find('.', start), name.size());
    const std::string_view label = name.substr(start, dot - start);
    if (label.empty() || label.size() > 63) return false;
    const bool wildcard = start == 0 && label == "*" && dot < name.size();
    if (!wildcard) {
      for (const char c : label) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
      }
      if (label.front() == '-' || label.back() == '-') return false;
    }
    start = dot + 1;
  }
  return true;
}

kcm::Result<San> parse_san(std::string_view text) {
  std::string_view host = text;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string h(host);
  unsigned char addr[16];
  if (::inet_pton(AF_INET, h.c_str(), addr) == 1) {
    return San{true, std::string(reinterpret_cast<const char*>(addr), 4)};
  }
  if (::inet_pton(AF_INET6, h.c_str(), addr) == 1) {
    return San{true, std::string(reinterpret_cast<const char*>(addr), 16)};
  }
  if (host.size() == text.size() && valid_dns_name(host)) {
    std::string lower(host);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return San{false, std::move(lower)};
  }
  return kcm::fail("invalid subject alternative name \"" + std::string(text) +
                   "\": not an IP address or DNS name");
}

kcm::Result<std::vector<San>> wanted_sans(const std::vector<std::string>& extra) {
  std::vector<std::string> all{"127.0.0.1", "localhost"};
  all.insert(all.end(), extra.begin(), extra.end());
  std::vector<San> sans;
  for (const std::string& text : all) {
    auto san = parse_san(text);
    if (!san) return kcm::fail(san.error());
    if (std::find(sans.begin(), sans.end(), *san) == sans.end()) sans.push_back(std::move(*san));
  }
  return sans;
}

std::vector<San> certificate_sans(X509* cert) {
  std::vector<San> sans;
  const GeneralNamesPtr names(
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr)));
  if (!names) return sans;
  for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type == GEN_IPADD) {
      const ASN1_OCTET_STRING* ip = name->d.iPAddress;
      sans.push_back(San{true, std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(ip)),
                                           static_cast<std::size_t>(ASN1_STRING_length(ip)))});
    } else if (name->type == GEN_DNS) {
      const ASN1_IA5STRING* dns = name->d.dNSName;
      std::string lower(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                        static_cast<std::size_t>(ASN1_STRING_length(dns)));
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      sans.push_back(San{false, std::move(lower)});
    }
  }
  return sans;
}

kcm::Result<void> add_san_extension(X509* cert, const std::vector<San>& sans) {
  const GeneralNamesPtr names(sk_GENERAL_NAME_new_null());
  if (!names) return kcm::fail(openssl_error("building subjectAltName"));
  for (const San& san : sans) {
    GeneralNamePtr name(GENERAL_NAME_new());
    if (!name) return kcm::fail(openssl_error("building subjectAltName"));
    if (san.is_ip) {
      OctetStringPtr ip(ASN1_OCTET_STRING_new());
      if (!ip ||
          ASN1_OCTET_STRING_set(ip.get(), reinterpret_cast<const unsigned char*>(san.value.data()),
                                static_cast<int>(san.value.size())) != 1) {
        return kcm::fail(openssl_error("building subjectAltName"));
      }
      GENERAL_NAME_set0_value(name.get(), GEN_IPADD, ip.release());
    } else {
      Ia5StringPtr dns(ASN1_IA5STRING_new());
      if (!dns ||
          ASN1_STRING_set(dns.get(), san.value.data(), static_cast<int>(san.value.size())) != 1) {
        return kcm::fail(openssl_error("building subjectAltName"));
      }
      GENERAL_NAME_set0_value(name.get(), GEN_DNS, dns.release());
    }
    if (sk_GENERAL_NAME_push(names.get(), name.get()) == 0) {
      return kcm::fail(openssl_error("building subjectAltName"));
    }
    name.release();  // owned by `names` now
  }
  if (X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) != 1) {
    return kcm::fail(openssl_error("adding subjectAltName"));
  }
  return {};
}

// ---- issuing ------------------------------------------------------------------

PkeyPtr generate_key() {
  return PkeyPtr(EVP_EC_gen("P-256"));
}

// A random positive 128-bit serial number (RFC 5280 allows up to 20 octets).
kcm::Result<void> set_random_serial(X509* cert) {
  unsigned char bytes[16];
  do {
    if (RAND_bytes(bytes, sizeof bytes) != 1) {
      return kcm::fail(openssl_error("generating a serial number"));
    }
  } while (std::all_of(std::begin(bytes), std::end(bytes), [](unsigned char b) { return b == 0; }));
  const BignumPtr bn(BN_bin2bn(bytes, sizeof bytes, nullptr));
  if (!bn || !BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert))) {
    return kcm::fail(openssl_error("setting a serial number"));
  }
  return {};
}

struct CertSpec {
  std::string_view common_name;
  std::string_view organization;  // empty: none
  int days = kLeafDays;
  bool is_ca = false;
  const char* ext_key_usage = nullptr;  // "serverAuth", "clientAuth" or none
  const std::vector<San>* sans = nullptr;
};

// Issues a certificate for `key`, signed by `issuer_key` (self-signed when
// `issuer` is null).
kcm::Result<X509Ptr> issue(const CertSpec& spec, EVP_PKEY* key, X509* issuer,
                           EVP_PKEY* issuer_key) {
  const std::string what = "issuing the " + std::string(spec.common_name) + " certificate";
  X509Ptr cert(X509_new());
  if (!cert || X509_set_version(cert.get(), X509_VERSION_3) != 1) {
    return kcm::fail(openssl_error(what));
  }
  if (auto serial = set_random_serial(cert.get()); !serial) return kcm::fail(serial.error());

  X509_NAME* subject = X509_get_subject_name(cert.get());
  const auto add_entry = [&](const char* field, std::string_view value) {
    return X509_NAME_add_entry_by_txt(subject, field, MBSTRING_UTF8,
                                      reinterpret_cast<const unsigned char*>(value.data()),
                                      static_cast<int>(value.size()), -1, 0) == 1;
  };
  if (!spec.organization.empty() && !add_entry("O", spec.organization)) {
    return kcm::fail(openssl_error(what));
  }
  if (!add_entry("CN", spec.common_name)) return kcm::fail(openssl_error(what));
  X509* signer = issuer != nullptr ? issuer : cert.get();
  if (X509_set_issuer_name(cert.get(), X509_get_subject_name(signer)) != 1 ||
      X509_gmtime_adj(X509_getm_notBefore(cert.get()), -kBackdateSeconds) == nullptr ||
      X509_time_adj_ex(X509_getm_notAfter(cert.get()), spec.days, 0, nullptr) == nullptr ||
      X509_set_pubkey(cert.get(), key) != 1) {
    return kcm::fail(openssl_error(what));
  }

  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, signer, cert.get(), nullptr, nullptr, 0);
  const auto add_ext = [&](int nid, const char* value) {
    const ExtensionPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
    return ext && X509_add_ext(cert.get(), ext.get(), -1) == 1;
  };
  bool ok = true;
  if (spec.is_ca) {
    ok = add_ext(NID_basic_constraints, "critical,CA:TRUE") &&
         add_ext(NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature") &&
         add_ext(NID_subject_key_identifier, "hash");
  } else {
    ok = add_ext(NID_basic_constraints, "critical,CA:FALSE") &&
         add_ext(NID_key_usage, "critical,digitalSignature") &&
         add_ext(NID_ext_key_usage, spec.ext_key_usage) &&
         add_ext(NID_subject_key_identifier, "hash") &&
         add_ext(NID_authority_key_identifier, "keyid,issuer");
  }
  if (!ok) return kcm::fail(openssl_error(what));
  if (spec.sans != nullptr) {
    if (auto added = add_san_extension(cert.get(), *spec.sans); !added) {
      return kcm::fail(added.error());
    }
  }
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0) return kcm::fail(openssl_error(what));
  return cert;
}

// ---- loading -------------------------------------------------------------------

struct KeyPair {
  X509Ptr cert;
  PkeyPtr key;
  std::string cert_pem;
  std::string key_pem;
};

kcm::Result<KeyPair> read_key_pair(const fs::path& cert_file, const fs::path& key_file) {
  KeyPair pair;
  auto cert_pem = read_file(cert_file);
  if (!cert_pem) return kcm::fail(cert_pem.error());
  auto cert = parse_certificate(cert_file, *cert_pem);
  if (!cert) return kcm::fail(cert.error());
  auto key_pem = read_file(key_file);
  if (!key_pem) return kcm::fail(key_pem.error());
  auto key = parse_private_key(key_file, *key_pem);
  if (!key) return kcm::fail(key.error());
  pair.cert = std::move(*cert);
  pair.key = std::move(*key);
  pair.cert_pem = std::move(*cert_pem);
  pair.key_pem = std::move(*key_pem);
  return pair;
}

bool key_matches(X509* cert, EVP_PKEY* key) {
  const bool ok = X509_check_private_key(cert, key) == 1;
  ERR_clear_error();
  return ok;
}

bool expires_before(X509* cert, std::time_t when) {
  // X509_cmp_time: -1 when notAfter <= when, 0 on a malformed time.
  return X509_cmp_time(X509_get0_notAfter(cert), &when) <= 0;
}

bool signed_by(X509* cert, X509* ca, EVP_PKEY* ca_key) {
  const bool ok = X509_check_issued(ca, cert) == X509_V_OK && X509_verify(cert, ca_key) == 1;
  ERR_clear_error();
  return ok;
}

// Generates a key and a certificate and writes both (key first: a crash in
// between leaves a mismatched pair, which the next start reissues).
kcm::Result<KeyPair> create_key_pair(const CertSpec& spec, X509* issuer, EVP_PKEY* issuer_key,
                                     const fs::path& cert_file, const fs::path& key_file,
                                     std::vector<fs::path>& written) {
  KeyPair pair;
  pair.key = generate_key();
  if (!pair.key) return kcm::fail(openssl_error("generating an ECDSA P-256 key"));
  auto cert =
      issue(spec, pair.key.get(), issuer, issuer_key != nullptr ? issuer_key : pair.key.get());
  if (!cert) return kcm::fail(cert.error());
  pair.cert = std::move(*cert);
  auto key_pem = private_key_pem(pair.key.get());
  if (!key_pem) return kcm::fail(key_pem.error());
  auto cert_pem = certificate_pem(pair.cert.get());
  if (!cert_pem) return kcm::fail(cert_pem.error());
  pair.key_pem = std::move(*key_pem);
  pair.cert_pem = std::move(*cert_pem);
  if (auto w = write_file_atomically(key_file, pair.key_pem, kSecretMode); !w) {
    return kcm::fail(w.error());
  }
  written.push_back(key_file);
  if (auto w = write_file_atomically(cert_file, pair.cert_pem, kPublicMode); !w) {
    return kcm::fail(w.error());
  }
  written.push_back(cert_file);
  return pair;
}

// The CA is never replaced behind the user's back once its certificate
// exists: kubeconfigs handed out earlier trust it.
kcm::Result<KeyPair> load_or_create_ca(const fs::path& cert_file, const fs::path& key_file,
                                       std::vector<fs::path>& written) {
  auto cert_exists = file_exists(cert_file);
  if (!cert_exists) return kcm::fail(cert_exists.error());
  if (!*cert_exists) {
    const CertSpec spec{kCaCommonName, {}, kCaDays, true};
    return create_key_pair(spec, nullptr, nullptr, cert_file, key_file, written);
  }
  auto key_exists = file_exists(key_file);
  if (!key_exists) return kcm::fail(key_exists.error());
  if (!*key_exists) {
    return kcm::fail(key_file.string() + ": missing, but " + cert_file.string() +
                     " exists (remove both to create a new CA)");
  }
  auto pair = read_key_pair(cert_file, key_file);
  if (!pair) return kcm::fail(pair.error());
  if (X509_check_ca(pair->cert.get()) == 0) {
    return kcm::fail(cert_file.string() + ": not a CA certificate");
  }
  if (!key_matches(pair->cert.get(), pair->key.get())) {
    return kcm::fail(key_file.string() + ": does not match " + cert_file.string());
  }
  if (expires_before(pair->cert.get(), std::time(nullptr))) {
    return kcm::fail(cert_file.string() + ": expired (remove it and " + key_file.string() +
                     " to create a new CA)");
  }
  return pair;
}

// Reuses a leaf pair when it is sound, issues a new one otherwise.
kcm::Result<KeyPair> load_or_issue_leaf(const CertSpec& spec, const KeyPair& ca,
                                        const fs::path& cert_file, const fs::path& key_file,
                                        std::vector<fs::path>& written) {
  auto cert_exists = file_exists(cert_file);
  if (!cert_exists) return kcm::fail(cert_exists.error());
  auto key_exists = file_exists(key_file);
  if (!key_exists) return kcm::fail(key_exists.error());
  if (*cert_exists && *key_exists) {
    auto pair = read_key_pair(cert_file, key_file);
    if (!pair) return kcm::fail(pair.error());
    X509* cert = pair->cert.get();
    bool reusable = key_matches(cert, pair->key.get()) &&
                    signed_by(cert, ca.cert.get(), ca.key.get()) &&
                    !expires_before(cert, std::time(nullptr) + kRenewBeforeSeconds);
    if (reusable && spec.sans != nullptr) {
      const std::vector<San> have = certificate_sans(cert);
      reusable = std::all_of(spec.sans->begin(), spec.sans->end(), [&](const San& san) {
        return std::find(have.begin(), have.end(), san) != have.end();
      });
    }
    if (reusable) return pair;
  }
  return create_key_pair(spec, ca.cert.get(), ca.key.get(), cert_file, key_file, written);
}

bool valid_token(std::string_view token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
    return c > ' ' && c < 0x7f;  // visible ASCII: safe in an Authorization header
  });
}

kcm::Result<std::string> load_or_create_token(const fs::path& file,
                                              std::vector<fs::path>& written) {
  auto exists = file_exists(file);
  if (!exists) return kcm::fail(exists.error());
  if (*exists) {
    auto text = read_file(file);
    if (!text) return kcm::fail(text.error());
    std::string token = std::move(*text);
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r'))
      token.pop_back();
    if (!valid_token(token)) {
      return kcm::fail(file.string() + ": not a token (one line of visible ASCII characters)");
    }
    return token;
  }
  unsigned char bytes[kTokenBytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    return kcm::fail(openssl_error("generating the bearer token"));
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(2 * kTokenBytes);
  for (const unsigned char b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 0xf]);
  }
  OPENSSL_cleanse(bytes, sizeof bytes);
  if (auto w = write_file_atomically(file, token + "\n", kSecretMode); !w) {
    return kcm::fail(w.error());
  }
  written.push_back(file);
  return token;
}

}  // namespace

kcm::Result<void> write_file_atomically(const fs::path& file, std::string_view contents,
                                        fs::perms mode) {
  fs::path tmp = file;
  tmp += ".tmp";
  // A leftover from a crash may have any mode; O_EXCL guarantees ours.
  if (::unlink(tmp.c_str()) != 0 && errno != ENOENT) {
    return kcm::fail("cannot write " + file.string() + ": " + errno_message(errno));
  }
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                        static_cast<mode_t>(mode & fs::perms::mask));
  if (fd < 0) return kcm::fail("cannot write " + file.string() + ": " + errno_message(errno));
  bool ok = write_all(fd, contents) && ::fsync(fd) == 0;
  int err = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return kcm::fail("cannot write " + file.string() + ": " + errno_message(err));
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const int rename_err = errno;
    ::unlink(tmp.c_str());
    return kcm::fail("cannot write " + file.string() + ": " + errno_message(rename_err));
  }
  // Make the rename durable; some file systems cannot sync directories, which is harmless.
  fs::path parent = file.parent_path();
  if (parent.empty()) parent = ".";
  if (const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return {};
}

kcm::Result<Credentials> load_or_create(const fs::path& dir, const std::vector<std::string>& sans) {
  auto wanted = wanted_sans(sans);
  if (!wanted) return kcm::fail(wanted.error());

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return kcm::fail("cannot create directory " + dir.string() + ": " + ec.message());
  const fs::path pki = dir / "pki";
  if (auto made = make_private_directory(pki); !made) return kcm::fail(made.error());

  Credentials creds;
  creds.ca_cert_file = pki / "ca.crt";
  creds.ca_key_file = pki / "ca.key";
  creds.server_cert_file = pki / "apiserver.crt";
  creds.server_key_file = pki / "apiserver.key";
  creds.client_cert_file = pki / "admin.crt";
  creds.client_key_file = pki / "admin.key";
  creds.token_file = pki / "token";

  auto ca = load_or_create_ca(creds.ca_cert_file, creds.ca_key_file, creds.written);
  if (!ca) return kcm::fail(ca.error());

  CertSpec server_spec{kServerCommonName};
  server_spec.ext_key_usage = "serverAuth";
  server_spec.sans = &*wanted;
  auto server = load_or_issue_leaf(server_spec, *ca, creds.server_cert_file, creds.server_key_file,
                                   creds.written);
  if (!server) return kcm::fail(server.error());

  CertSpec client_spec{kAdminUser, kAdminGroup};
  client_spec.ext_key_usage = "clientAuth";
  auto client = load_or_issue_leaf(client_spec, *ca, creds.client_cert_file, creds.client_key_file,
                                   creds.written);
  if (!client) return kcm::fail(client.error());

  auto token = load_or_create_token(creds.token_file, creds.written);
  if (!token) return kcm::fail(token.error());

  creds.ca_cert_pem = std::move(ca->cert_pem);
  creds.server_cert_pem = std::move(server->cert_pem);
  creds.server_key_pem = std::move(server->key_pem);
  creds.client_cert_pem = std::move(client->cert_pem);
  creds.client_key_pem = std::move(client->key_pem);
  creds.token = std::move(*token);
  return creds;
}

bool token_matches(const Credentials& creds, std::string_view presented) {
  return !creds.token.empty() && presented.size() == creds.token.size() &&
         CRYPTO_memcmp(presented.data(), creds.token.data(), presented.size()) == 0;
}

}  // namespace kcm::local::pki
