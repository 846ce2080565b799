#include "local/pki/certificates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

#include "pki_test_util.h"

namespace kcm::local::pki {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

using StorePtr = std::unique_ptr<X509_STORE, Deleter<X509_STORE_free>>;
using StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, Deleter<X509_STORE_CTX_free>>;

void write(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

// The subject as OpenSSL prints it in RFC 2253 form, e.g. "CN=kcm-admin,O=system:masters".
std::string subject(X509* cert) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  X509_NAME_print_ex(bio.get(), X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(len));
}

// X509_verify_cert of `leaf` against `ca` for an SSL purpose.
int verify(X509* leaf, X509* ca, int purpose) {
  const StorePtr store(X509_STORE_new());
  X509_STORE_add_cert(store.get(), ca);
  const StoreCtxPtr ctx(X509_STORE_CTX_new());
  X509_STORE_CTX_init(ctx.get(), store.get(), leaf, nullptr);
  X509_STORE_CTX_set_purpose(ctx.get(), purpose);
  if (X509_verify_cert(ctx.get()) == 1) return X509_V_OK;
  return X509_STORE_CTX_get_error(ctx.get());
}

// Days from now until the certificate's notAfter.
int days_left(X509* cert) {
  int days = 0;
  int seconds = 0;
  ASN1_TIME_diff(&days, &seconds, nullptr, X509_get0_notAfter(cert));
  return days;
}

// A certificate for `key` signed by `issuer_key`, valid for `days`: a stand-in
// for certificates kcm-local did not make (expiring, foreign).
X509Ptr make_cert(EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, long days, const char* cn,
                  const char* san) {
  X509Ptr cert(X509_new());
  X509_set_version(cert.get(), X509_VERSION_3);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 42);
  X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
  X509_set_issuer_name(cert.get(), X509_get_subject_name(issuer ? issuer : cert.get()));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), days * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer ? issuer : cert.get(), cert.get(), nullptr, nullptr, 0);
  if (issuer == nullptr) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, NID_basic_constraints, "CA:TRUE");
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (san != nullptr) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, san);
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  X509_sign(cert.get(), issuer_key, EVP_sha256());
  return cert;
}

std::string to_pem(X509* cert) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert);
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(len));
}

std::string to_pem(EVP_PKEY* key) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(len));
}

class CertificatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kcm-pki-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    dir_ = root_ / "data";
    pki_ = dir_ / "pki";
  }
  void TearDown() override { fs::remove_all(root_); }

  Credentials create(const std::vector<std::string>& sans = {}) {
    auto creds = load_or_create(dir_, sans);
    EXPECT_TRUE(creds.ok()) << creds.error();
    return creds.ok() ? std::move(*creds) : Credentials{};
  }

  std::string error_of(const std::vector<std::string>& sans = {}) {
    auto creds = load_or_create(dir_, sans);
    return creds.ok() ? "<no error>" : creds.error();
  }

  fs::path root_;
  fs::path dir_;
  fs::path pki_;
};

TEST_F(CertificatesTest, CreatesEveryFileWithPrivateModesForSecrets) {
  const Credentials creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "ca.key", pki_ / "ca.crt", pki_ / "apiserver.key",
                                         pki_ / "apiserver.crt", pki_ / "admin.key",
                                         pki_ / "admin.crt", pki_ / "token"));
  EXPECT_EQ(mode_of(pki_), 0700u);
  struct Expect {
    const char* name;
    unsigned mode;
  };
  for (const Expect& e : {Expect{"ca.key", 0600}, Expect{"apiserver.key", 0600},
                          Expect{"admin.key", 0600}, Expect{"token", 0600}, Expect{"ca.crt", 0644},
                          Expect{"apiserver.crt", 0644}, Expect{"admin.crt", 0644}}) {
    EXPECT_EQ(mode_of(pki_ / e.name), e.mode) << e.name;
  }
  EXPECT_FALSE(fs::exists(pki_ / "token.tmp"));

  EXPECT_EQ(creds.ca_cert_file, pki_ / "ca.crt");
  EXPECT_EQ(creds.ca_key_file, pki_ / "ca.key");
  EXPECT_EQ(creds.server_cert_file, pki_ / "apiserver.crt");
  EXPECT_EQ(creds.server_key_file, pki_ / "apiserver.key");
  EXPECT_EQ(creds.client_cert_file, pki_ / "admin.crt");
  EXPECT_EQ(creds.client_key_file, pki_ / "admin.key");
  EXPECT_EQ(creds.token_file, pki_ / "token");
  EXPECT_EQ(read(creds.ca_cert_file), creds.ca_cert_pem);
  EXPECT_EQ(read(creds.server_key_file), creds.server_key_pem);
  EXPECT_EQ(read(creds.token_file), creds.token + "\n");

  EXPECT_EQ(creds.token.size(), 64u);
  EXPECT_EQ(creds.token.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_THAT(creds.server_key_pem, ::testing::StartsWith("-----BEGIN PRIVATE KEY-----\n"));
  EXPECT_THAT(creds.server_cert_pem, ::testing::StartsWith("-----BEGIN CERTIFICATE-----\n"));
}

TEST_F(CertificatesTest, ReloadReusesEverything) {
  const Credentials first = create({"10.0.0.1", "::1"});
  const Credentials second = create({"10.0.0.1", "::1"});
  EXPECT_THAT(second.written, IsEmpty());
  EXPECT_EQ(second.ca_cert_pem, first.ca_cert_pem);
  EXPECT_EQ(second.server_cert_pem, first.server_cert_pem);
  EXPECT_EQ(second.server_key_pem, first.server_key_pem);
  EXPECT_EQ(second.client_cert_pem, first.client_cert_pem);
  EXPECT_EQ(second.client_key_pem, first.client_key_pem);
  EXPECT_EQ(second.token, first.token);
  // The defaults and names differing only in case or notation are covered too.
  const Credentials third = create({"LOCALHOST", "127.0.0.1", "[0:0::0:1]", "::1"});
  EXPECT_EQ(third.server_cert_pem, first.server_cert_pem);
}

TEST_F(CertificatesTest, CaIsASelfSignedTenYearCa) {
  const Credentials creds = create();
  const X509Ptr ca = parse_cert(creds.ca_cert_pem);
  ASSERT_TRUE(ca);
  EXPECT_EQ(subject(ca.get()), "CN=kcm-local-ca");
  EXPECT_EQ(X509_check_issued(ca.get(), ca.get()), X509_V_OK);
  EXPECT_EQ(verify(ca.get(), ca.get(), X509_PURPOSE_ANY), X509_V_OK);
  EXPECT_EQ(X509_check_ca(ca.get()), 1);
  EXPECT_EQ(X509_get_version(ca.get()), X509_VERSION_3);

  int critical = -1;
  auto* bc = static_cast<BASIC_CONSTRAINTS*>(
      X509_get_ext_d2i(ca.get(), NID_basic_constraints, &critical, nullptr));
  ASSERT_NE(bc, nullptr);
  EXPECT_TRUE(bc->ca);
  EXPECT_EQ(critical, 1);
  BASIC_CONSTRAINTS_free(bc);

  EXPECT_EQ(X509_get_key_usage(ca.get()),
            static_cast<uint32_t>(KU_KEY_CERT_SIGN | KU_CRL_SIGN | KU_DIGITAL_SIGNATURE));
  EXPECT_NE(X509_get0_subject_key_id(ca.get()), nullptr);
  EXPECT_NEAR(days_left(ca.get()), 3650, 1);

  const PkeyPtr key = parse_key(read(creds.ca_key_file));
  ASSERT_TRUE(key);
  EXPECT_EQ(X509_check_private_key(ca.get(), key.get()), 1);
}

TEST_F(CertificatesTest, ServingCertificateVerifiesAndCarriesTheSans) {
  const Credentials creds = create({"10.1.2.3", "kcm.example.com", "[::1]", "*.apps.example"});
  const X509Ptr ca = parse_cert(creds.ca_cert_pem);
  const X509Ptr cert = parse_cert(creds.server_cert_pem);
  ASSERT_TRUE(ca && cert);
  EXPECT_EQ(verify(cert.get(), ca.get(), X509_PURPOSE_SSL_SERVER), X509_V_OK);
  EXPECT_NE(verify(cert.get(), ca.get(), X509_PURPOSE_SSL_CLIENT), X509_V_OK);
  EXPECT_EQ(subject(cert.get()), "CN=kcm-local-apiserver");
  EXPECT_EQ(X509_get_version(cert.get()), X509_VERSION_3);
  EXPECT_EQ(X509_check_ca(cert.get()), 0);

  for (const char* ip : {"127.0.0.1", "10.1.2.3", "::1"}) {
    EXPECT_EQ(X509_check_ip_asc(cert.get(), ip, 0), 1) << ip;
  }
  for (const char* host : {"localhost", "kcm.example.com", "KCM.example.com", "a.apps.example"}) {
    EXPECT_EQ(X509_check_host(cert.get(), host, 0, 0, nullptr), 1) << host;
  }
  EXPECT_EQ(X509_check_ip_asc(cert.get(), "10.1.2.4", 0), 0);
  EXPECT_EQ(X509_check_host(cert.get(), "example.com", 0, 0, nullptr), 0);

  EXPECT_EQ(X509_get_extended_key_usage(cert.get()), static_cast<uint32_t>(XKU_SSL_SERVER));
  EXPECT_EQ(X509_get_key_usage(cert.get()), static_cast<uint32_t>(KU_DIGITAL_SIGNATURE));
  const ASN1_OCTET_STRING* akid = X509_get0_authority_key_id(cert.get());
  ASSERT_NE(akid, nullptr);
  EXPECT_EQ(ASN1_OCTET_STRING_cmp(akid, X509_get0_subject_key_id(ca.get())), 0);
  EXPECT_NEAR(days_left(cert.get()), 365, 1);

  const PkeyPtr key = parse_key(creds.server_key_pem);
  ASSERT_TRUE(key);
  EXPECT_EQ(EVP_PKEY_get_base_id(key.get()), EVP_PKEY_EC);
  char curve[64] = {};
  EVP_PKEY_get_group_name(key.get(), curve, sizeof curve, nullptr);
  EXPECT_STREQ(curve, "prime256v1");
  EXPECT_EQ(X509_check_private_key(cert.get(), key.get()), 1);
}

TEST_F(CertificatesTest, ClientCertificateIsTheAdminOfSystemMasters) {
  const Credentials creds = create();
  const X509Ptr ca = parse_cert(creds.ca_cert_pem);
  const X509Ptr cert = parse_cert(creds.client_cert_pem);
  ASSERT_TRUE(ca && cert);
  EXPECT_EQ(verify(cert.get(), ca.get(), X509_PURPOSE_SSL_CLIENT), X509_V_OK);
  EXPECT_NE(verify(cert.get(), ca.get(), X509_PURPOSE_SSL_SERVER), X509_V_OK);
  EXPECT_EQ(subject(cert.get()), "CN=kcm-admin,O=system:masters");
  EXPECT_EQ(X509_get_extended_key_usage(cert.get()), static_cast<uint32_t>(XKU_SSL_CLIENT));
  const PkeyPtr key = parse_key(creds.client_key_pem);
  ASSERT_TRUE(key);
  EXPECT_EQ(X509_check_private_key(cert.get(), key.get()), 1);
}

TEST_F(CertificatesTest, SerialNumbersAreRandom128BitPositive) {
  const Credentials creds = create();
  std::vector<std::string> serials;
  for (const std::string* pem :
       {&creds.ca_cert_pem, &creds.server_cert_pem, &creds.client_cert_pem}) {
    const X509Ptr cert = parse_cert(*pem);
    const std::unique_ptr<BIGNUM, Deleter<BN_free>> bn(
        ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert.get()), nullptr));
    EXPECT_FALSE(BN_is_negative(bn.get()));
    EXPECT_FALSE(BN_is_zero(bn.get()));
    EXPECT_LE(BN_num_bits(bn.get()), 128);
    EXPECT_GT(BN_num_bits(bn.get()), 64);  // fails with probability 2^-64
    char* hex = BN_bn2hex(bn.get());
    serials.emplace_back(hex);
    OPENSSL_free(hex);
  }
  EXPECT_NE(serials[0], serials[1]);
  EXPECT_NE(serials[1], serials[2]);
}

TEST_F(CertificatesTest, NewSanReissuesOnlyTheServingCertificate) {
  const Credentials first = create();
  const Credentials second = create({"192.168.7.7"});
  EXPECT_THAT(second.written, ElementsAre(pki_ / "apiserver.key", pki_ / "apiserver.crt"));
  EXPECT_NE(second.server_cert_pem, first.server_cert_pem);
  EXPECT_NE(second.server_key_pem, first.server_key_pem);
  EXPECT_EQ(second.ca_cert_pem, first.ca_cert_pem);
  EXPECT_EQ(second.client_cert_pem, first.client_cert_pem);
  EXPECT_EQ(second.client_key_pem, first.client_key_pem);
  EXPECT_EQ(second.token, first.token);
  EXPECT_EQ(mode_of(pki_ / "apiserver.key"), 0600u);

  const X509Ptr cert = parse_cert(second.server_cert_pem);
  EXPECT_EQ(X509_check_ip_asc(cert.get(), "192.168.7.7", 0), 1);
  EXPECT_EQ(X509_check_ip_asc(cert.get(), "127.0.0.1", 0), 1);
  EXPECT_EQ(X509_check_host(cert.get(), "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(verify(cert.get(), parse_cert(second.ca_cert_pem).get(), X509_PURPOSE_SSL_SERVER),
            X509_V_OK);

  // Asking for a subset again keeps the wider certificate.
  const Credentials third = create();
  EXPECT_THAT(third.written, IsEmpty());
  EXPECT_EQ(third.server_cert_pem, second.server_cert_pem);
}

TEST_F(CertificatesTest, ReissuesUnsoundLeaves) {
  const Credentials first = create();
  const X509Ptr ca = parse_cert(first.ca_cert_pem);
  const PkeyPtr ca_key = parse_key(read(pki_ / "ca.key"));
  const PkeyPtr leaf_key = parse_key(first.server_key_pem);

  // Expiring within 30 days, though otherwise fine.
  write(pki_ / "apiserver.crt",
        to_pem(make_cert(leaf_key.get(), ca.get(), ca_key.get(), 20, "kcm-local-apiserver",
                         "IP:127.0.0.1,DNS:localhost")
                   .get()));
  Credentials creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "apiserver.key", pki_ / "apiserver.crt"));
  EXPECT_NEAR(days_left(parse_cert(creds.server_cert_pem).get()), 365, 1);

  // Valid for 40 days: kept.
  write(pki_ / "apiserver.crt",
        to_pem(make_cert(leaf_key.get(), ca.get(), ca_key.get(), 40, "kcm-local-apiserver",
                         "IP:127.0.0.1,DNS:localhost")
                   .get()));
  write(pki_ / "apiserver.key", first.server_key_pem);
  creds = create();
  EXPECT_THAT(creds.written, IsEmpty());

  // Signed by another CA.
  const PkeyPtr other_key(EVP_EC_gen("P-256"));
  const X509Ptr other_ca =
      make_cert(other_key.get(), nullptr, other_key.get(), 100, "other", nullptr);
  write(pki_ / "admin.crt", to_pem(make_cert(parse_key(first.client_key_pem).get(), other_ca.get(),
                                             other_key.get(), 100, "kcm-admin", nullptr)
                                       .get()));
  creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "admin.key", pki_ / "admin.crt"));
  EXPECT_EQ(verify(parse_cert(creds.client_cert_pem).get(), ca.get(), X509_PURPOSE_SSL_CLIENT),
            X509_V_OK);

  // A key that does not match its certificate (a crash between the two writes).
  write(pki_ / "apiserver.key", to_pem(other_key.get()));
  creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "apiserver.key", pki_ / "apiserver.crt"));

  // A missing half.
  fs::remove(pki_ / "admin.key");
  creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "admin.key", pki_ / "admin.crt"));
  fs::remove(pki_ / "token");
  creds = create();
  EXPECT_THAT(creds.written, ElementsAre(pki_ / "token"));
  EXPECT_NE(creds.token, first.token);
  EXPECT_EQ(creds.ca_cert_pem, first.ca_cert_pem);
}

TEST_F(CertificatesTest, MissingCaCertificateCreatesANewCaAndLeaves) {
  const Credentials first = create();
  fs::remove(pki_ / "ca.crt");  // ca.key stays: what a crash between the two writes leaves
  const Credentials second = create();
  EXPECT_THAT(second.written,
              ElementsAre(pki_ / "ca.key", pki_ / "ca.crt", pki_ / "apiserver.key",
                          pki_ / "apiserver.crt", pki_ / "admin.key", pki_ / "admin.crt"));
  EXPECT_NE(second.ca_cert_pem, first.ca_cert_pem);
  EXPECT_EQ(second.token, first.token);
  const X509Ptr ca = parse_cert(second.ca_cert_pem);
  EXPECT_EQ(verify(parse_cert(second.server_cert_pem).get(), ca.get(), X509_PURPOSE_SSL_SERVER),
            X509_V_OK);
}

TEST_F(CertificatesTest, CorruptFilesAreErrorsNamingTheFile) {
  struct Case {
    const char* file;
    const char* contents;
    const char* error;  // after "<pki dir>/<file>"
  };
  const Case cases[] = {
      {"ca.crt", "garbage", ": not a PEM certificate"},
      {"ca.crt", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
       ": not a PEM certificate"},
      {"ca.key", "", ": not a PEM private key"},
      {"apiserver.crt", "-----BEGIN CERTIFICATE-----\n", ": not a PEM certificate"},
      {"apiserver.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
       ": not a PEM private key"},
      {"admin.crt", "\x01\x02\x03", ": not a PEM certificate"},
      {"admin.key", "not a key", ": not a PEM private key"},
      {"token", "", ": not a token (one line of visible ASCII characters)"},
      {"token", "\n", ": not a token (one line of visible ASCII characters)"},
      {"token", "two words\n", ": not a token (one line of visible ASCII characters)"},
      {"token", "line1\nline2\n", ": not a token (one line of visible ASCII characters)"},
  };
  create();
  for (const Case& c : cases) {
    const fs::path file = pki_ / c.file;
    const std::string saved = read(file);
    write(file, c.contents);
    EXPECT_EQ(error_of(), file.string() + c.error) << c.file << " " << c.contents;
    write(file, saved);
    EXPECT_EQ(error_of(), "<no error>");
  }
}

TEST_F(CertificatesTest, AcceptsAUserSuppliedTokenWithTrailingNewline) {
  create();
  write(pki_ / "token", "my-secret-token\r\n");
  const Credentials creds = create();
  EXPECT_EQ(creds.token, "my-secret-token");
  EXPECT_THAT(creds.written, IsEmpty());
}

TEST_F(CertificatesTest, UnreadableFileIsAnErrorNamingTheFile) {
  create();
  fs::remove(pki_ / "admin.crt");
  fs::create_directory(pki_ / "admin.crt");
  EXPECT_EQ(error_of(), "cannot read " + (pki_ / "admin.crt").string() + ": Is a directory");
}

TEST_F(CertificatesTest, CaProblemsAreErrors) {
  const Credentials first = create();
  const std::string ca_key = read(pki_ / "ca.key");

  fs::remove(pki_ / "ca.key");
  EXPECT_EQ(error_of(), (pki_ / "ca.key").string() + ": missing, but " +
                            (pki_ / "ca.crt").string() +
                            " exists (remove both to create a new CA)");

  write(pki_ / "ca.key", first.client_key_pem);
  EXPECT_EQ(error_of(),
            (pki_ / "ca.key").string() + ": does not match " + (pki_ / "ca.crt").string());

  write(pki_ / "ca.crt", first.server_cert_pem);
  write(pki_ / "ca.key", first.server_key_pem);
  EXPECT_EQ(error_of(), (pki_ / "ca.crt").string() + ": not a CA certificate");

  // An expired CA.
  const PkeyPtr key = parse_key(ca_key);
  write(pki_ / "ca.crt",
        to_pem(make_cert(key.get(), nullptr, key.get(), -1, "old", nullptr).get()));
  write(pki_ / "ca.key", ca_key);
  EXPECT_EQ(error_of(), (pki_ / "ca.crt").string() + ": expired (remove it and " +
                            (pki_ / "ca.key").string() + " to create a new CA)");
}

TEST_F(CertificatesTest, InvalidSansAreRejectedBeforeTouchingTheDisk) {
  for (const char* san : {"", "bad name", "[localhost]", "under_score.example", "-a.example",
                          "a..b", "a.example.", "a.*.example", "*", "1.2.3.4:80", "[1.2.3.4"}) {
    EXPECT_EQ(error_of({san}), "invalid subject alternative name \"" + std::string(san) +
                                   "\": not an IP address or DNS name");
  }
  EXPECT_FALSE(fs::exists(dir_));
}

TEST_F(CertificatesTest, DataDirectoryProblemsAreErrors) {
  write(root_ / "file", "x");
  dir_ = root_ / "file" / "data";
  EXPECT_EQ(error_of(), "cannot create directory " + dir_.string() + ": Not a directory");

  dir_ = root_ / "data2";
  fs::create_directory(dir_);
  write(dir_ / "pki", "x");
  EXPECT_EQ(error_of(), "cannot create directory " + (dir_ / "pki").string() + ": not a directory");
}

TEST_F(CertificatesTest, TokenMatchesOnlyTheExactToken) {
  Credentials creds;
  creds.token = "abc123";
  EXPECT_TRUE(token_matches(creds, "abc123"));
  EXPECT_FALSE(token_matches(creds, "abc12"));
  EXPECT_FALSE(token_matches(creds, "abc1234"));
  EXPECT_FALSE(token_matches(creds, "abc124"));
  EXPECT_FALSE(token_matches(creds, ""));
  creds.token.clear();
  EXPECT_FALSE(token_matches(creds, ""));
}

TEST_F(CertificatesTest, WriteFileAtomicallyCreatesWithTheModeAndReplaces) {
  const fs::path file = root_ / "secret";
  write(file, "old");
  fs::permissions(file, fs::perms::all);
  write(root_ / "secret.tmp", "stale");  // left by a crash, with a lax mode
  fs::permissions(root_ / "secret.tmp", fs::perms::all);

  ASSERT_TRUE(
      write_file_atomically(file, "new", fs::perms::owner_read | fs::perms::owner_write).ok());
  EXPECT_EQ(read(file), "new");
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_FALSE(fs::exists(root_ / "secret.tmp"));

  const fs::path missing = root_ / "no-such-dir" / "f";
  const auto result = write_file_atomically(missing, "x", fs::perms::owner_read);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "cannot write " + missing.string() + ": No such file or directory");
}

}  // namespace
}  // namespace kcm::local::pki
