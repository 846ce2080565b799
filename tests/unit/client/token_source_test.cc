#include "client/token_source.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <thread>

#include "api/json.h"
#include "config_test_support.h"

namespace kcm::client {
namespace {

using testing::read_all;
using testing::TempDir;
using Clock = std::chrono::system_clock;

// A wall clock the test moves by hand.
struct FakeNow {
  std::shared_ptr<std::atomic<Clock::rep>> ticks = std::make_shared<std::atomic<Clock::rep>>(
      Clock::time_point(std::chrono::seconds(1'800'000'000)).time_since_epoch().count());
  Clock::time_point now() const { return Clock::time_point(Clock::duration(ticks->load())); }
  void step(Clock::duration d) { ticks->fetch_add(d.count()); }
  TokenSourceOptions options(std::vector<std::string>* logs = nullptr) const {
    TokenSourceOptions o;
    auto t = ticks;
    o.now = [t] { return Clock::time_point(Clock::duration(t->load())); };
    o.log = [logs](const std::string& m) {
      if (logs != nullptr) logs->push_back(m);
    };
    return o;
  }
};

std::string header_of(TokenSource& s) {
  auto c = s.credentials();
  EXPECT_TRUE(c.ok()) << c.error();
  return c ? c->authorization : "<error>";
}

TEST(TokenSourceTest, StaticBasicAndNone) {
  RestConfig bearer;
  bearer.bearer_token = "abc";
  auto s = make_token_source(bearer);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Bearer abc");

  RestConfig basic;
  basic.username = "alice";
  basic.password = "s3cret";
  s = make_token_source(basic);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Basic YWxpY2U6czNjcmV0");

  s = make_token_source(RestConfig{});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "");

  RestConfig both = bearer;
  both.username = "alice";
  s = make_token_source(both);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "username/password or bearer token may be set, but not both");
}

TEST(TokenSourceTest, TokenFileIsReReadAfterTheCachePeriod) {
  TempDir dir;
  FakeNow clock;
  std::vector<std::string> logs;
  const std::string path = dir.write("token", "  first\n");
  RestConfig rc;
  rc.bearer_token_file = path;
  auto s = make_token_source(rc, clock.options(&logs));
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Bearer first");

  dir.write("token", "second");
  clock.step(std::chrono::seconds(49));
  EXPECT_EQ(header_of(**s), "Bearer first");  // cached for period - leeway = 50s
  clock.step(std::chrono::seconds(2));
  EXPECT_EQ(header_of(**s), "Bearer second");

  // A failed re-read keeps the last token and says so.
  std::filesystem::remove(path);
  clock.step(std::chrono::seconds(60));
  EXPECT_EQ(header_of(**s), "Bearer second");
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[0], "Unable to rotate token: failed to read token file \"" + path + "\": open " +
                         path + ": no such file or directory");

  // invalidate() after a 401 re-reads at once, but only for the current token.
  dir.write("token", "third");
  auto used = (*s)->credentials();
  ASSERT_TRUE(used.ok());
  dir.write("token", "fourth");
  (*s)->invalidate(used.value());
  EXPECT_EQ(header_of(**s), "Bearer fourth");
  dir.write("token", "fifth");
  (*s)->invalidate(used.value());  // stale: already rotated since
  EXPECT_EQ(header_of(**s), "Bearer fourth");
}

TEST(TokenSourceTest, TokenFileErrors) {
  TempDir dir;
  RestConfig rc;
  rc.bearer_token_file = dir.file("missing");
  auto s = make_token_source(rc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "failed to read token file \"" + dir.file("missing") + "\": open " +
                           dir.file("missing") + ": no such file or directory");

  rc.bearer_token_file = dir.write("empty", " \n");
  s = make_token_source(rc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "read empty token from file \"" + dir.file("empty") + "\"");

  // With a token already known (in-cluster, kubeconfig tokenFile) it is the fallback.
  rc.bearer_token = "initial\n";
  s = make_token_source(rc);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Bearer initial");
}

// ---------------------------------------------------------------------------
// Exec plugins: a shell script that records its input and prints out.json.

struct Plugin {
  TempDir dir;
  std::string path;
  explicit Plugin(int exit_code = 0, const std::string& stderr_text = "") {
    path = dir.write("plugin.sh",
                     "#!/bin/sh\n"
                     "cd \"$(dirname \"$0\")\"\n"
                     "printf '%s' \"$KUBERNETES_EXEC_INFO\" > info\n"
                     "printf '%s' \"$PLUGIN_ENV\" > env\n"
                     "echo \"$@\" > args\n"
                     "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count\n"
                     "cat out.json\n"
                     "printf '" +
                         stderr_text +
                         "' >&2\n"
                         "exit " +
                         std::to_string(exit_code) + "\n",
                     true);
  }
  void output(const std::string& json) const { dir.write("out.json", json); }
  int runs() const { return std::atoi(read_all(dir.file("count")).c_str()); }
  RestConfig config(const std::string& api_version = "client.authentication.k8s.io/v1") const {
    RestConfig rc;
    rc.host = "https://10.0.0.1:6443";
    rc.exec = ExecConfig{};
    rc.exec->command = path;
    rc.exec->api_version = api_version;
    rc.exec->interactive_mode = "IfAvailable";
    return rc;
  }
};

std::string credential(const std::string& status,
                       const std::string& api_version = "client.authentication.k8s.io/v1") {
  return R"({"kind":"ExecCredential","apiVersion":")" + api_version + R"(","status":)" + status +
         "}";
}

TEST(ExecTokenSourceTest, RunsPluginCachesUntilExpiryAndAfterInvalidate) {
  Plugin plugin;
  FakeNow clock;
  plugin.output(credential(R"({"token":"tok-1","expirationTimestamp":"2027-01-15T08:00:10Z"})"));
  RestConfig rc = plugin.config();
  rc.exec->args = {"get", "--flag"};
  rc.exec->env = {{"PLUGIN_ENV", "from-config"}};
  auto s = make_token_source(rc, clock.options());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Bearer tok-1");
  EXPECT_EQ(plugin.runs(), 1);
  EXPECT_EQ(read_all(plugin.dir.file("info")),
            R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1",)"
            R"("spec":{"interactive":false}})"
            "\n");  // json.Encoder ends documents with a newline
  EXPECT_EQ(read_all(plugin.dir.file("env")), "from-config");
  EXPECT_EQ(read_all(plugin.dir.file("args")), "get --flag\n");

  // Cached while not expired (the clock starts at 2027-01-15T08:00:00Z).
  EXPECT_EQ(header_of(**s), "Bearer tok-1");
  clock.step(std::chrono::seconds(10));
  EXPECT_EQ(header_of(**s), "Bearer tok-1");
  EXPECT_EQ(plugin.runs(), 1);

  plugin.output(credential(R"({"token":"tok-2"})"));
  clock.step(std::chrono::seconds(1));
  auto second = (*s)->credentials();
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second->authorization, "Bearer tok-2");
  EXPECT_EQ(plugin.runs(), 2);

  // No expiry: cached until a 401.
  clock.step(std::chrono::hours(100));
  EXPECT_EQ(header_of(**s), "Bearer tok-2");
  EXPECT_EQ(plugin.runs(), 2);
  plugin.output(credential(R"({"token":"tok-3"})"));
  (*s)->invalidate(*second);
  EXPECT_EQ(header_of(**s), "Bearer tok-3");
  EXPECT_EQ(plugin.runs(), 3);
  (*s)->invalidate(*second);  // an old credential: nothing to do
  EXPECT_EQ(header_of(**s), "Bearer tok-3");
  EXPECT_EQ(plugin.runs(), 3);
}

TEST(ExecTokenSourceTest, ProvidesClusterInfoWhenAsked) {
  Plugin plugin;
  plugin.output(credential(R"({"token":"t"})", "client.authentication.k8s.io/v1beta1"));
  RestConfig rc = plugin.config("client.authentication.k8s.io/v1beta1");
  rc.exec->provide_cluster_info = true;
  rc.exec->cluster_config_json = R"({"audience":"kcm"})";
  rc.ca_pem = "CA";
  rc.tls_server_name = "kube";
  FakeNow clock;
  auto s = make_token_source(rc, clock.options());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(header_of(**s), "Bearer t");
  EXPECT_EQ(
      read_all(plugin.dir.file("info")),
      R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1",)"
      R"("spec":{"cluster":{"server":"https://10.0.0.1:6443","tls-server-name":"kube",)"
      R"("certificate-authority-data":"Q0E=","config":{"audience":"kcm"}},"interactive":false}})"
      "\n");
}

TEST(ExecTokenSourceTest, OtherCredentialsWinOverThePlugin) {
  Plugin plugin;
  RestConfig rc = plugin.config();
  rc.bearer_token = "static";
  auto s = make_token_source(rc);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(header_of(**s), "Bearer static");
  rc.bearer_token.clear();
  rc.client_cert_pem = "C";
  rc.client_key_pem = "K";
  s = make_token_source(rc);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(header_of(**s), "");
  EXPECT_EQ(plugin.runs(), 0);
}

TEST(ExecTokenSourceTest, SharesOnePluginPerConfigProcessWide) {
  Plugin plugin;
  plugin.output(credential(R"({"token":"shared"})"));
  auto a = make_token_source(plugin.config());
  auto b = make_token_source(plugin.config());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(header_of(**a), "Bearer shared");
  EXPECT_EQ(header_of(**b), "Bearer shared");
  EXPECT_EQ(plugin.runs(), 1);
}

TEST(ExecTokenSourceTest, ConcurrentCallersRunThePluginOnce) {
  Plugin plugin;
  plugin.output(credential(R"({"token":"t"})"));
  FakeNow clock;
  auto s = make_token_source(plugin.config(), clock.options());
  ASSERT_TRUE(s.ok());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (auto c = (*s)->credentials(); c && c->authorization == "Bearer t") ++ok;
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(plugin.runs(), 1);
}

TEST(ExecTokenSourceTest, ReportsPluginFailures) {
  const std::string v1 = "client.authentication.k8s.io/v1";
  struct Case {
    std::string output;
    std::string want;
  };
  const Case cases[] = {
      {"not json",
       "decoding stdout: couldn't get version/kind; json parse error: invalid JSON at byte 0: "},
      {"[1]", "decoding stdout: couldn't get version/kind; json parse error: expected an object"},
      {R"({"apiVersion":"client.authentication.k8s.io/v1","status":{"token":"t"}})",
       "decoding stdout: Object 'Kind' is missing in plugin output"},
      {R"({"kind":"ExecCredential","status":{"token":"t"}})",
       "decoding stdout: Object 'apiVersion' is missing in plugin output"},
      {credential(R"({"token":"t"})", "client.authentication.k8s.io/v1beta1"),
       "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin "
       "returned version client.authentication.k8s.io/v1beta1"},
      {credential(R"({"token":"t"})", "example.com/v1"),
       "decoding stdout: no kind \"ExecCredential\" is registered for version \"example.com/v1\""},
      {R"({"kind":"Other","apiVersion":"client.authentication.k8s.io/v1"})",
       "decoding stdout: no kind \"Other\" is registered for version "
       "\"client.authentication.k8s.io/v1\""},
      {R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1"})",
       "exec plugin didn't return a status field"},
      {credential("{}"), "exec plugin didn't return a token or cert/key pair"},
      {credential(R"({"token":7})"), "decoding stdout: status.token: expected string, got number"},
      {credential(R"({"clientCertificateData":"C"})"),
       "exec plugin returned only certificate or key, not both"},
      {credential(R"({"clientCertificateData":"C","clientKeyData":"K"})"),
       "failed parsing client key/certificate: tls: failed to find any PEM data in certificate "
       "input"},
      {credential(R"({"token":"t","expirationTimestamp":"soon"})"),
       "decoding stdout: parsing time \"soon\" as \"2006-01-02T15:04:05Z07:00\": cannot parse "
       "\"soon\" as \"2006\""},
  };
  for (const auto& c : cases) {
    Plugin plugin;
    plugin.output(c.output);
    FakeNow clock;
    auto s = make_token_source(plugin.config(v1), clock.options());
    ASSERT_TRUE(s.ok()) << s.error();
    auto creds = (*s)->credentials();
    ASSERT_FALSE(creds.ok()) << c.output;
    if (c.want.back() == ' ') {
      EXPECT_EQ(creds.error().substr(0, c.want.size()), c.want) << creds.error();
    } else {
      EXPECT_EQ(creds.error(), c.want) << c.output;
    }
  }
}

TEST(ExecTokenSourceTest, NonZeroExitCarriesStderr) {
  Plugin plugin(3, "boom: no credentials\\n");
  plugin.output("");
  FakeNow clock;
  auto s = make_token_source(plugin.config(), clock.options());
  ASSERT_TRUE(s.ok());
  auto creds = (*s)->credentials();
  ASSERT_FALSE(creds.ok());
  EXPECT_EQ(creds.error(), "exec: executable " + plugin.path +
                               " failed with exit code 3; stderr: boom: no credentials");
}

TEST(ExecTokenSourceTest, SuccessfulPluginStderrIsLogged) {
  Plugin plugin(0, "note from plugin");
  plugin.output(credential(R"({"token":"t"})"));
  FakeNow clock;
  std::vector<std::string> logs;
  auto s = make_token_source(plugin.config(), clock.options(&logs));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(header_of(**s), "Bearer t");
  EXPECT_EQ(logs, std::vector<std::string>{"note from plugin"});
}

TEST(ExecTokenSourceTest, MissingPluginShowsTheInstallHint) {
  TempDir dir;
  RestConfig rc;
  rc.host = "https://h";
  rc.exec = ExecConfig{};
  rc.exec->command = dir.file("no-such-plugin");
  rc.exec->api_version = "client.authentication.k8s.io/v1";
  rc.exec->interactive_mode = "Never";
  rc.exec->install_hint = "apt install it";
  FakeNow clock;
  auto s = make_token_source(rc, clock.options());
  ASSERT_TRUE(s.ok());
  const std::string plain = "exec: executable " + dir.file("no-such-plugin") + " not found";
  const std::string hinted =
      plain +
      "\n\nIt looks like you are trying to use a client-go credential plugin that is not "
      "installed.\n\nTo learn more about this feature, consult the documentation available at:\n"
      "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
      "#client-go-credential-plugins\n\napt install it";
  for (int i = 0; i < 10; ++i) {
    auto c = (*s)->credentials();
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error(), hinted) << i;
  }
  EXPECT_EQ((*s)->credentials().error(), plain);  // at most 10 hints an hour
  clock.step(std::chrono::hours(1));
  EXPECT_EQ((*s)->credentials().error(), hinted);

  rc.exec->command = "kcm-surely-not-on-path-plugin";
  s = make_token_source(rc, clock.options());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(
      (*s)->credentials().error().substr(0, 60),
      std::string("exec: executable kcm-surely-not-on-path-plugin not found\n\nIt").substr(0, 60));
}

TEST(ExecTokenSourceTest, ConfigErrors) {
  Plugin plugin;
  RestConfig rc = plugin.config("client.authentication.k8s.io/v1alpha1");
  auto s = make_token_source(rc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"");

  rc = plugin.config();
  rc.exec->interactive_mode = "Always";
  FakeNow clock;
  s = make_token_source(rc, clock.options());
  ASSERT_TRUE(s.ok());
  auto c = (*s)->credentials();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().rfind("exec plugin cannot support interactive mode: standard input is ", 0),
            0u)
      << c.error();
  EXPECT_EQ(plugin.runs(), 0);
}

// ---------------------------------------------------------------------------
// Client certificates from plugins.

struct KeyPair {
  std::string cert_pem;
  std::string key_pem;
};

KeyPair make_key_pair() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("kcm"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_sign(cert, key, EVP_sha256());
  KeyPair kp;
  BIO* b = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(b, cert);
  char* data = nullptr;
  long n = BIO_get_mem_data(b, &data);
  kp.cert_pem.assign(data, static_cast<std::size_t>(n));
  BIO_free(b);
  b = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr);
  n = BIO_get_mem_data(b, &data);
  kp.key_pem.assign(data, static_cast<std::size_t>(n));
  BIO_free(b);
  X509_free(cert);
  EVP_PKEY_free(key);
  return kp;
}

TEST(KeyPairTest, ChecksCertificateAndKey) {
  const KeyPair a = make_key_pair();
  const KeyPair b = make_key_pair();
  EXPECT_EQ(check_key_pair(a.cert_pem, a.key_pem), std::nullopt);
  EXPECT_EQ(check_key_pair(a.cert_pem, b.key_pem), "tls: private key does not match public key");
  EXPECT_EQ(check_key_pair("junk", a.key_pem),
            "tls: failed to find any PEM data in certificate input");
  EXPECT_EQ(check_key_pair(a.key_pem, a.key_pem),
            "tls: failed to find \"CERTIFICATE\" PEM block in certificate input");
  EXPECT_EQ(check_key_pair(a.cert_pem, "junk"), "tls: failed to find any PEM data in key input");
  EXPECT_EQ(
      check_key_pair(a.cert_pem, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
      "tls: failed to parse private key");
}

TEST(ExecTokenSourceTest, ReturnsClientCertificates) {
  const KeyPair kp = make_key_pair();
  Plugin plugin;
  api::json::object status;
  status["clientCertificateData"] = kp.cert_pem;
  status["clientKeyData"] = kp.key_pem;
  plugin.output(credential(api::to_json_string(status)));
  FakeNow clock;
  auto s = make_token_source(plugin.config(), clock.options());
  ASSERT_TRUE(s.ok());
  auto c = (*s)->credentials();
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->authorization, "");
  EXPECT_EQ(c->client_cert_pem, kp.cert_pem);
  EXPECT_EQ(c->client_key_pem, kp.key_pem);
}

}  // namespace
}  // namespace kcm::client
