#include "app/serving_certificate.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/options.h"

namespace kcm::app {
namespace {

namespace fs = std::filesystem;

// RSA key generation is slow (more so under sanitizers): share two pairs.
const SelfSignedPair& pair_a() {
  static const SelfSignedPair pair = [] {
    auto p = generate_self_signed_cert_key("localhost", {"127.0.0.1"}, {"localhost"});
    EXPECT_TRUE(p.ok()) << p.error();
    return p.ok() ? *p : SelfSignedPair{};
  }();
  return pair;
}
const SelfSignedPair& pair_b() {
  static const SelfSignedPair pair = [] {
    auto p = generate_self_signed_cert_key("10.0.0.1", {}, {"example.test"});
    EXPECT_TRUE(p.ok()) << p.error();
    return p.ok() ? *p : SelfSignedPair{};
  }();
  return pair;
}

struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;

std::vector<X509Ptr> parse_certs(const std::string& pem) {
  std::vector<X509Ptr> out;
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  while (X509* x = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr))
    out.emplace_back(x);
  BIO_free(bio);
  return out;
}

std::string common_name(X509_NAME* name) {
  char buf[256] = {};
  X509_NAME_get_text_by_NID(name, NID_commonName, buf, sizeof(buf));
  return buf;
}

// "DNS:x" / "IP:y" entries in order.
std::vector<std::string> sans(X509* cert) {
  std::vector<std::string> out;
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (names == nullptr) return out;
  for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
    if (n->type == GEN_DNS) {
      out.push_back("DNS:" +
                    std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.dNSName)),
                                ASN1_STRING_length(n->d.dNSName)));
    } else if (n->type == GEN_IPADD) {
      const unsigned char* ip = ASN1_STRING_get0_data(n->d.iPAddress);
      if (ASN1_STRING_length(n->d.iPAddress) == 4) {
        out.push_back("IP:" + std::to_string(ip[0]) + "." + std::to_string(ip[1]) + "." +
                      std::to_string(ip[2]) + "." + std::to_string(ip[3]));
      } else {
        out.push_back("IP:v6");
      }
    }
  }
  GENERAL_NAMES_free(names);
  return out;
}

bool verifies(X509* leaf, X509* ca) {
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, ca);
  X509_STORE_CTX* ctx = X509_STORE_CTX_new();
  X509_STORE_CTX_init(ctx, store, leaf, nullptr);
  X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
  const bool ok = X509_verify_cert(ctx) == 1;
  X509_STORE_CTX_free(ctx);
  X509_STORE_free(store);
  return ok;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ServingCertificateTest, GeneratedPairIsACaSignedServingCertificate) {
  const auto& pair = pair_a();
  ASSERT_TRUE(check_key_pair(pair.cert_pem, pair.key_pem));
  EXPECT_TRUE(pair.key_pem.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
  const auto certs = parse_certs(pair.cert_pem);
  ASSERT_EQ(certs.size(), 2u);
  X509* leaf = certs[0].get();
  X509* ca = certs[1].get();

  EXPECT_TRUE(common_name(X509_get_subject_name(leaf)).starts_with("localhost@"));
  EXPECT_TRUE(common_name(X509_get_subject_name(ca)).starts_with("localhost-ca@"));
  EXPECT_EQ(common_name(X509_get_issuer_name(leaf)), common_name(X509_get_subject_name(ca)));
  EXPECT_EQ(ASN1_INTEGER_get(X509_get_serialNumber(ca)), 1);
  EXPECT_EQ(ASN1_INTEGER_get(X509_get_serialNumber(leaf)), 2);
  EXPECT_EQ(sans(leaf),
            (std::vector<std::string>{"DNS:localhost", "DNS:localhost", "IP:127.0.0.1"}));
  EXPECT_EQ(X509_check_ca(ca), 1);
  EXPECT_EQ(X509_check_ca(leaf), 0);
  EXPECT_TRUE(X509_get_extended_key_usage(leaf) & XKU_SSL_SERVER);
  EXPECT_EQ(EVP_PKEY_get_bits(X509_get0_pubkey(leaf)), 2048);
  EXPECT_EQ(EVP_PKEY_get_base_id(X509_get0_pubkey(leaf)), EVP_PKEY_RSA);
  EXPECT_TRUE(verifies(leaf, ca));
  EXPECT_EQ(X509_check_host(leaf, "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_ip_asc(leaf, "127.0.0.1", 0), 1);

  // Valid from an hour ago for a year.
  time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  int days = 0;
  int secs = 0;
  ASSERT_EQ(ASN1_TIME_diff(&days, &secs, X509_get0_notBefore(leaf), X509_get0_notAfter(leaf)), 1);
  EXPECT_EQ(days, 365);
  EXPECT_EQ(secs, 0);
  EXPECT_LT(X509_cmp_time(X509_get0_notBefore(leaf), &now), 0);
  time_t hour_ago_plus = now - 3500;
  EXPECT_LT(X509_cmp_time(X509_get0_notBefore(leaf), &hour_ago_plus), 0);
  time_t hour_ago_minus = now - 3700;
  EXPECT_GT(X509_cmp_time(X509_get0_notBefore(leaf), &hour_ago_minus), 0);
}

TEST(ServingCertificateTest, HostMayBeAnIp) {
  const auto certs = parse_certs(pair_b().cert_pem);
  ASSERT_EQ(certs.size(), 2u);
  EXPECT_EQ(sans(certs[0].get()), (std::vector<std::string>{"DNS:example.test", "IP:10.0.0.1"}));
  EXPECT_TRUE(common_name(X509_get_subject_name(certs[0].get())).starts_with("10.0.0.1@"));
}

TEST(ServingCertificateTest, InvalidAlternateIp) {
  auto r = generate_self_signed_cert_key("localhost", {"not-an-ip"}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "invalid IP address not-an-ip");
}

TEST(ServingCertificateTest, SourcesFromOptions) {
  Options o;
  o.bind_address = "127.0.0.2";
  o.cert_dir = "/d";
  o.tls_cert_file = "/c";
  o.tls_private_key_file = "/k";
  const CertificateSources s = certificate_sources(o);
  EXPECT_EQ(s.bind_address, "127.0.0.2");
  EXPECT_EQ(s.cert_dir, "/d");
  EXPECT_EQ(s.tls_cert_file, "/c");
  EXPECT_EQ(s.tls_private_key_file, "/k");
  EXPECT_EQ(s.pair_name, "kube-controller-manager");
}

TEST(ServingCertificateTest, InMemoryWhenNothingIsConfigured) {
  CertificateSources s;
  s.bind_address = "127.0.0.1";
  auto c = load_serving_certificate(s);
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(c->generated);
  EXPECT_EQ(c->cert_file, "");
  ASSERT_TRUE(check_key_pair(c->cert_pem, c->key_pem));
  const auto certs = parse_certs(c->cert_pem);
  ASSERT_EQ(certs.size(), 2u);
  // A specific bind address is added as an IP rather than "localhost".
  EXPECT_EQ(sans(certs[0].get()),
            (std::vector<std::string>{"DNS:localhost", "IP:127.0.0.1", "IP:127.0.0.1"}));
}

class ServingCertificateFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kcm-serving-cert-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }

  Result<ServingCertificate> load_files(const fs::path& cert, const fs::path& key) {
    CertificateSources s;
    s.tls_cert_file = cert.string();
    s.tls_private_key_file = key.string();
    s.cert_dir = (root_ / "ignored").string();
    return load_serving_certificate(s);
  }

  fs::path root_;
};

TEST_F(ServingCertificateFilesTest, CertDirPairIsWrittenThenReused) {
  CertificateSources s;
  s.cert_dir = (root_ / "nested" / "certs").string();
  const ::mode_t old = ::umask(022);
  auto first = load_serving_certificate(s);
  ::umask(old);
  ASSERT_TRUE(first) << first.error();
  EXPECT_TRUE(first->generated);
  const fs::path crt = root_ / "nested" / "certs" / "kube-controller-manager.crt";
  const fs::path key = root_ / "nested" / "certs" / "kube-controller-manager.key";
  EXPECT_EQ(first->cert_file, crt.string());
  EXPECT_EQ(first->key_file, key.string());
  EXPECT_EQ(read(crt), first->cert_pem);
  EXPECT_EQ(read(key), first->key_pem);
  EXPECT_EQ(fs::status(key).permissions(), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::status(crt).permissions(), fs::perms::owner_read | fs::perms::owner_write |
                                               fs::perms::group_read | fs::perms::others_read);

  auto second = load_serving_certificate(s);
  ASSERT_TRUE(second) << second.error();
  EXPECT_FALSE(second->generated);
  EXPECT_EQ(second->cert_pem, first->cert_pem);
  EXPECT_EQ(second->key_pem, first->key_pem);
}

TEST_F(ServingCertificateFilesTest, CertDirHalfAPairIsAnError) {
  CertificateSources s;
  s.cert_dir = root_.string();
  write(root_ / "kube-controller-manager.crt", pair_a().cert_pem);
  auto r = load_serving_certificate(s);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "error creating self-signed certificates: error reading " +
                           (root_ / "kube-controller-manager.key").string() +
                           ", certificate and key must be supplied as a pair");
  fs::remove(root_ / "kube-controller-manager.crt");
  write(root_ / "kube-controller-manager.key", pair_a().key_pem);
  r = load_serving_certificate(s);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "error creating self-signed certificates: error reading " +
                           (root_ / "kube-controller-manager.crt").string() +
                           ", certificate and key must be supplied as a pair");
}

TEST_F(ServingCertificateFilesTest, CertDirThatCannotBeCreated) {
  write(root_ / "file", "x");
  CertificateSources s;
  s.cert_dir = (root_ / "file" / "sub").string();
  auto r = load_serving_certificate(s);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "error creating self-signed certificates: mkdir " +
                           (root_ / "file" / "sub").string() + ": not a directory");
}

TEST_F(ServingCertificateFilesTest, ExplicitFilesWinOverCertDir) {
  write(root_ / "tls.crt", pair_a().cert_pem);
  write(root_ / "tls.key", pair_a().key_pem);
  auto r = load_files(root_ / "tls.crt", root_ / "tls.key");
  ASSERT_TRUE(r) << r.error();
  EXPECT_FALSE(r->generated);
  EXPECT_EQ(r->cert_pem, pair_a().cert_pem);
  EXPECT_EQ(r->cert_file, (root_ / "tls.crt").string());
  EXPECT_FALSE(fs::exists(root_ / "ignored"));
}

TEST_F(ServingCertificateFilesTest, BadFilesAreErrorsNamingTheFile) {
  const fs::path crt = root_ / "tls.crt";
  const fs::path key = root_ / "tls.key";
  const fs::path other_key = root_ / "other.key";
  const fs::path garbage = root_ / "garbage";
  const fs::path empty = root_ / "empty";
  const fs::path key_as_cert = root_ / "key-as-cert.crt";
  write(crt, pair_a().cert_pem);
  write(key, pair_a().key_pem);
  write(other_key, pair_b().key_pem);
  write(garbage, "not pem at all\n");
  write(empty, "");
  write(key_as_cert, pair_a().key_pem);
  const fs::path leaf_only = root_ / "leaf.crt";
  const std::string& chain = pair_a().cert_pem;
  const std::string end = "-----END CERTIFICATE-----\n";
  write(leaf_only, chain.substr(0, chain.find(end) + end.size()));
  const fs::path missing = root_ / "missing.crt";

  struct Case {
    std::string name;
    fs::path cert;
    fs::path key;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"missing cert", missing, key, "open " + missing.string() + ": no such file or directory"},
      {"missing key", crt, missing, "open " + missing.string() + ": no such file or directory"},
      {"no key flag", crt, "", "missing filename for serving cert"},
      {"no cert flag", "", key, "missing filename for serving cert"},
      {"directory", root_, key, "read " + root_.string() + ": is a directory"},
      {"empty cert", empty, key,
       "missing content for serving cert \"serving-cert::" + empty.string() + "::" + key.string() +
           "\""},
      {"garbage cert", garbage, key,
       garbage.string() + ": tls: failed to find any PEM data in certificate input"},
      {"key as cert", key_as_cert, key,
       key_as_cert.string() +
           ": tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping "
           "PEM blocks of the following types: [RSA PRIVATE KEY]"},
      {"garbage key", crt, garbage,
       garbage.string() + ": tls: failed to find any PEM data in key input"},
      {"cert as key", crt, leaf_only,
       leaf_only.string() +
           ": tls: found a certificate rather than a key in the PEM for the private key"},
      {"chain as key", crt, crt,
       crt.string() +
           ": tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input "
           "after skipping PEM blocks of the following types: [CERTIFICATE CERTIFICATE]"},
      {"mismatched key", crt, other_key,
       crt.string() + ", " + other_key.string() + ": tls: private key does not match public key"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = load_files(tc.cert, tc.key);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), tc.error);
  }
}

TEST(ServingCertificateTest, CheckKeyPairMessages) {
  const std::string cert_block = pair_a().cert_pem;
  const std::string corrupt_cert = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
  const std::string corrupt_key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
  const std::string odd_blocks =
      "-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n"
      "-----BEGIN BAR-----\nAAAA\n-----END BAR-----\n";
  EXPECT_EQ(check_key_pair(corrupt_cert, pair_a().key_pem).error(), "x509: malformed certificate");
  EXPECT_EQ(check_key_pair(cert_block, corrupt_key).error(), "tls: failed to parse private key");
  EXPECT_EQ(check_key_pair(cert_block, odd_blocks).error(),
            "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after "
            "skipping PEM blocks of the following types: [FOO BAR]");
  EXPECT_EQ(check_key_pair(odd_blocks, pair_a().key_pem).error(),
            "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping "
            "PEM blocks of the following types: [FOO BAR]");
  EXPECT_TRUE(check_key_pair(pair_b().cert_pem, pair_b().key_pem));
}

}  // namespace
}  // namespace kcm::app
