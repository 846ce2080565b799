#include "app/secure_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "app/leader_metrics.h"
#include "log/log.h"
#include "metrics/gauge.h"
#include "metrics/registry.h"
#include "tls/go_cipher_suites.h"

namespace kcm::app {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using ::testing::HasSubstr;

// The in-memory pair for bind address 127.0.0.1, generated once (RSA is slow).
const ServingCertificate& certificate() {
  static const ServingCertificate cert = [] {
    CertificateSources s;
    s.bind_address = "127.0.0.1";
    auto c = load_serving_certificate(s);
    EXPECT_TRUE(c.ok()) << c.error();
    return c.ok() ? *c : ServingCertificate{};
  }();
  return cert;
}

// The CA: the second certificate of the generated chain.
std::string ca_pem() {
  const std::string& pem = certificate().cert_pem;
  const std::string end = "-----END CERTIFICATE-----\n";
  return pem.substr(pem.find(end) + end.size());
}

struct Reply {
  int status = 0;
  std::string content_type;
  std::string cache_control;
  std::string nosniff;
  std::string body;
};

// A small HTTPS client that verifies the server against `ca` for `host`.
class Client {
 public:
  Client(std::uint16_t port, const std::string& ca, const std::string& host = "localhost")
      : tls_(ssl::context::tls_client), stream_(ioc_, tls_) {
    tls_.add_certificate_authority(net::buffer(ca));
    // The stream's SSL object exists already: set its own verify mode.
    stream_.set_verify_mode(ssl::verify_peer);
    stream_.set_verify_callback(ssl::host_name_verification(host));
    SSL_set_tlsext_host_name(stream_.native_handle(), host.c_str());
    port_ = port;
  }

  Result<void> connect() {
    boost::system::error_code ec;
    stream_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);
    if (ec) return fail("connect: " + ec.message());
    stream_.handshake(ssl::stream_base::client, ec);
    if (ec) return fail("handshake: " + ec.message());
    return {};
  }

  Result<Reply> get(const std::string& target, http::verb verb = http::verb::get,
                    const std::string& body = "", const std::string& accept = "") {
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, "localhost");
    req.set(http::field::user_agent, "kcm-test");
    if (!accept.empty()) req.set(http::field::accept, accept);
    if (verb == http::verb::put) {
      req.body() = body;
      req.prepare_payload();
    }
    boost::system::error_code ec;
    http::write(stream_, req, ec);
    if (ec) return fail("write: " + ec.message());
    http::response_parser<http::string_body> parser;
    if (verb == http::verb::head) parser.skip(true);
    http::read(stream_, buffer_, parser, ec);
    if (ec) return fail("read: " + ec.message());
    const auto& res = parser.get();
    Reply r;
    r.status = static_cast<int>(res.result_int());
    r.content_type = std::string(res[http::field::content_type]);
    r.cache_control = std::string(res[http::field::cache_control]);
    r.nosniff = std::string(res["X-Content-Type-Options"]);
    r.body = res.body();
    if (verb == http::verb::head) r.body = std::string(res[http::field::content_length]);
    return r;
  }

  // The TLS cipher suite of the connection.
  std::string cipher() { return SSL_get_cipher_name(stream_.native_handle()); }

 private:
  net::io_context ioc_;
  ssl::context tls_;
  ssl::stream<tcp::socket> stream_;
  boost::beast::flat_buffer buffer_;
  std::uint16_t port_ = 0;
};

Result<Reply> fetch(std::uint16_t port, const std::string& target) {
  Client c(port, ca_pem());
  if (auto r = c.connect(); !r) return fail(r.error());
  return c.get(target);
}

class SecureServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(certificate().cert_pem.empty());
    auto slis = HealthcheckSlis::create();
    ASSERT_TRUE(slis) << slis.error();
    slis_ = *slis;
    healthz_ = std::make_shared<HealthzHandler>(
        std::vector<NamedHealthCheck>{ping_check("good")}, "/healthz",
        [s = slis_](std::string_view check, std::string_view type, bool ok) {
          s->observe(check, type, ok);
        });
    registry_ = std::make_shared<metrics::Registry>();
    metrics::Opts opts;
    opts.name = "kcm_test_gauge";
    opts.help = "A gauge for the test.";
    auto gauge = metrics::GaugeVec::create(opts, {"kind"});
    ASSERT_TRUE(gauge);
    (*(*gauge)->with_label_values({"x"}))->set(7);
    ASSERT_TRUE(registry_->register_collector(*gauge));
    auto leader = LeaderElectionMetrics::create(*registry_);
    ASSERT_TRUE(leader) << leader.error();
    (*leader)->leader_on("kube-controller-manager");

    SecureServerOptions o;
    o.bind_address = "127.0.0.1";
    o.pick_free_port = true;
    debug_ = std::make_shared<ControllerDebugHandlers>();
    // Echoes what it was given, as the path it sees and the query.
    ASSERT_TRUE(debug_->add("echo-controller", [](std::string_view path, std::string_view query) {
      HttpAnswer a;
      a.content_type = "text/vnd.graphviz";
      a.body = "path=" + std::string(path) + " query=" + std::string(query);
      return a;
    }));
    server_ = std::make_unique<SecureServer>(
        o, certificate(),
        SecureServerHandlers{
            .healthz = healthz_,
            .registry = registry_,
            .slis = slis_,
            .debug = debug_,
            .configz = HttpAnswer{.content_type = "application/json",
                                  .nosniff = true,
                                  .body = R"({"test.config.k8s.io":{"A":1}})"},
            .zpages = std::make_shared<const Zpages>(ZpagesOptions{
                .flagz = true, .flags = {{"v", "0"}}, .pick = [](std::size_t) { return 2; }})});
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error();
    ASSERT_NE(server_->port(), 0);
  }

  std::shared_ptr<HealthcheckSlis> slis_;
  std::shared_ptr<HealthzHandler> healthz_;
  std::shared_ptr<metrics::Registry> registry_;
  std::shared_ptr<ControllerDebugHandlers> debug_;
  std::unique_ptr<SecureServer> server_;
};

TEST_F(SecureServerTest, HealthzOk) {
  auto r = fetch(server_->port(), "/healthz");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "ok");
  EXPECT_EQ(r->content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(r->cache_control, "no-cache, private");
  EXPECT_EQ(r->nosniff, "nosniff");

  r = fetch(server_->port(), "/healthz?verbose");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->body, "[+]good ok\nhealthz check passed\n");

  r = fetch(server_->port(), "/healthz/good");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "ok");
}

TEST_F(SecureServerTest, FailingCheckAddedLater) {
  ASSERT_TRUE(healthz_->add_checks(
      {{"leaderElection", []() -> Result<void> { return fail("lease expired"); }}}));
  auto r = fetch(server_->port(), "/healthz");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(r->body,
            "[+]good ok\n[-]leaderElection failed: reason withheld\nhealthz check failed\n");
  EXPECT_EQ(r->nosniff, "nosniff");

  r = fetch(server_->port(), "/healthz/leaderElection");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(r->body, "internal server error: lease expired\n");

  r = fetch(server_->port(), "/healthz?exclude=leaderElection");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "ok");
}

TEST_F(SecureServerTest, Metrics) {
  auto r = fetch(server_->port(), "/metrics");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(r->cache_control, "no-cache, private");
  EXPECT_NE(r->body.find("# TYPE kcm_test_gauge gauge\nkcm_test_gauge{kind=\"x\"} 7\n"),
            std::string::npos)
      << r->body;
  EXPECT_NE(r->body.find("leader_election_master_status{name=\"kube-controller-manager\"} 1\n"),
            std::string::npos)
      << r->body;
  EXPECT_EQ(r->body, registry_->render_text());
}

TEST_F(SecureServerTest, SliMetricsCountTheChecksHealthzRuns) {
  auto r = fetch(server_->port(), "/metrics/slis");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(r->body, "");  // no check has run yet

  ASSERT_TRUE(healthz_->add_checks(
      {{"leaderElection", []() -> Result<void> { return fail("lease expired"); }}}));
  ASSERT_EQ(fetch(server_->port(), "/healthz")->status, 500);
  ASSERT_EQ(fetch(server_->port(), "/healthz?exclude=leaderElection")->status, 200);
  ASSERT_EQ(fetch(server_->port(), "/healthz/good")->status, 200);  // not counted
  r = fetch(server_->port(), "/metrics/slis");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->body,
            "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single "
            "healthcheck.\n"
            "# TYPE kubernetes_healthcheck gauge\n"
            "kubernetes_healthcheck{name=\"good\",type=\"healthz\"} 1\n"
            "kubernetes_healthcheck{name=\"leaderElection\",type=\"healthz\"} 0\n"
            "# HELP kubernetes_healthchecks_total [STABLE] This metric records the results of all "
            "healthcheck.\n"
            "# TYPE kubernetes_healthchecks_total counter\n"
            "kubernetes_healthchecks_total{name=\"good\",status=\"success\",type=\"healthz\"} 2\n"
            "kubernetes_healthchecks_total{name=\"leaderElection\",status=\"error\","
            "type=\"healthz\"} 1\n");
  // Not on the main registry.
  EXPECT_EQ(fetch(server_->port(), "/metrics")->body.find("kubernetes_healthcheck"),
            std::string::npos);

  Client c(server_->port(), ca_pem());
  ASSERT_TRUE(c.connect());
  auto reset = c.get("/metrics/slis", http::verb::delete_, "");
  ASSERT_TRUE(reset) << reset.error();
  EXPECT_EQ(reset->status, 200);
  EXPECT_EQ(reset->body, "metrics reset\n");
  EXPECT_EQ(reset->content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(fetch(server_->port(), "/metrics/slis")->body, "");
}

TEST_F(SecureServerTest, NotFound) {
  // /livez and /readyz are on upstream's always-allow list but kcm does not serve them.
  for (const std::string target : {"/", "/nope", "/livez", "/readyz", "/healthz/", "/healthz/nope",
                                   "/metricsx", "/configz/"}) {
    SCOPED_TRACE(target);
    auto r = fetch(server_->port(), target);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 404);
    EXPECT_EQ(r->body, "404 page not found\n");
    EXPECT_EQ(r->content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(r->nosniff, "nosniff");
  }
}

TEST_F(SecureServerTest, ControllerDebugHandlersSeeThePathWithoutTheirPrefix) {
  struct Case {
    std::string target;
    int status;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"/debug/controllers/echo-controller", 200, "path= query="},
      {"/debug/controllers/echo-controller/", 200, "path=/ query="},
      {"/debug/controllers/echo-controller/graph?uid=a&uid=b", 200,
       "path=/graph query=uid=a&uid=b"},
      {"/debug/controllers/echo%2Dcontroller/graph", 200, "path=/graph query="},
      {"/debug/controllers/echo-controllerx/graph", 404, "404 page not found\n"},
      {"/debug/controllers/other/graph", 404, "404 page not found\n"},
      {"/debug/controllers/", 404, "404 page not found\n"},
      {"/debug/controllers", 404, "404 page not found\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.target);
    auto r = fetch(server_->port(), c.target);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, c.status);
    EXPECT_EQ(r->body, c.body);
    if (c.status == 200) {
      EXPECT_EQ(r->content_type, "text/vnd.graphviz");
    }
  }
  // A second handler for the same name is refused.
  EXPECT_FALSE(debug_->add("echo-controller", nullptr));
}

TEST_F(SecureServerTest, ConfigzServesItsAnswerToAnyMethod) {
  for (const http::verb method : {http::verb::get, http::verb::post}) {
    Client c(server_->port(), ca_pem());
    ASSERT_TRUE(c.connect());
    auto r = c.get("/configz?ignored=1", method);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, R"({"test.config.k8s.io":{"A":1}})");
    EXPECT_EQ(r->content_type, "application/json");
    EXPECT_EQ(r->nosniff, "nosniff");
    EXPECT_EQ(r->cache_control, "no-cache, private");
  }
}

TEST_F(SecureServerTest, ZpagesSeeTheAcceptHeader) {
  Client c(server_->port(), ca_pem());
  ASSERT_TRUE(c.connect());
  auto r = c.get("/flagz", http::verb::get, "", "application/json, */*");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(r->body.ends_with("\nv=0\n")) << r->body;
  EXPECT_EQ(r->content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(r->cache_control, "no-cache, private");
  r = c.get("/flagz", http::verb::get, "", "application/json");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 406);
  EXPECT_EQ(r->body, "media type not acceptable, must be: text/plain\n");
  // Its gate is off: not served.
  r = c.get("/statusz", http::verb::get, "", "*/*");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 404);
}

TEST_F(SecureServerTest, DebugFlagsSetTheVerbosityAsKlogDoes) {
  const int before = log::verbosity();
  Client c(server_->port(), ca_pem());
  ASSERT_TRUE(c.connect());
  auto r = c.get("/debug/flags/v", http::verb::put, "4");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "successfully set klog.logging.verbosity to 4\n");
  EXPECT_EQ(r->content_type, "text/plain");
  EXPECT_EQ(r->nosniff, "nosniff");
  EXPECT_EQ(log::verbosity(), 4);

  // Bad values: 400 with klog's error (strconv.ParseInt(s, 10, 32)), the level kept.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"x",
       "failed set klog.logging.verbosity x: strconv.ParseInt: parsing \"x\": invalid "
       "syntax\n"},
      {"5\n",
       "failed set klog.logging.verbosity 5\n: strconv.ParseInt: parsing \"5\\n\": "
       "invalid syntax\n"},
      {"0x5",
       "failed set klog.logging.verbosity 0x5: strconv.ParseInt: parsing \"0x5\": "
       "invalid syntax\n"},
      {"4294967296",
       "failed set klog.logging.verbosity 4294967296: strconv.ParseInt: parsing "
       "\"4294967296\": value out of range\n"},
  };
  for (const auto& [value, message] : bad) {
    r = c.get("/debug/flags/v", http::verb::put, value);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 400) << value;
    EXPECT_EQ(r->body, message);
  }
  EXPECT_EQ(log::verbosity(), 4);

  // Only PUT sets.
  r = c.get("/debug/flags/v");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 406);
  EXPECT_EQ(r->body, "unsupported http method\n");
  log::set_verbosity(before);
}

TEST_F(SecureServerTest, DebugFlagsIndexListsTheFlag) {
  for (const std::string target :
       {"/debug/flags", "/debug/flags/", "/debug/flags/nope", "/debug/flags/v/"}) {
    SCOPED_TRACE(target);
    auto r = fetch(server_->port(), target);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->content_type, "text/html; charset=utf-8");
    EXPECT_THAT(r->body, HasSubstr("<title>/debug/flags/</title>"));
    EXPECT_THAT(r->body, HasSubstr("<tr>v<br>"));
  }
  // Go's pprof handlers have no counterpart.
  auto r = fetch(server_->port(), "/debug/pprof/");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 404);
}

TEST_F(SecureServerTest, NegotiatesTheTls13SuiteGoWould) {
  Client c(server_->port(), ca_pem());
  ASSERT_TRUE(c.connect());
  // An OpenSSL client lists AES-256-GCM first; Go's server still takes AES-128-GCM.
  EXPECT_EQ(c.cipher(), tls::has_aes_gcm_hardware() ? "TLS_AES_128_GCM_SHA256"
                                                    : "TLS_CHACHA20_POLY1305_SHA256");
}

TEST_F(SecureServerTest, PercentEncodedPathsAndBadEscapes) {
  auto r = fetch(server_->port(), "/health%7A");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "ok");
  r = fetch(server_->port(), "/health%zz");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 400);
}

TEST_F(SecureServerTest, KeepAliveAndHead) {
  Client c(server_->port(), ca_pem());
  ASSERT_TRUE(c.connect());
  for (int i = 0; i < 3; ++i) {
    auto r = c.get("/healthz");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->body, "ok");
  }
  auto head = c.get("/healthz/good", http::verb::head);
  ASSERT_TRUE(head) << head.error();
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->body, "2");  // Content-Length of "ok", no body
  auto r = c.get("/metrics");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
}

TEST_F(SecureServerTest, VerifiesForTheIpSanAndRefusesAnotherCa) {
  Client by_ip(server_->port(), ca_pem(), "127.0.0.1");
  ASSERT_TRUE(by_ip.connect());
  EXPECT_EQ(by_ip.get("/healthz")->status, 200);

  auto other = generate_self_signed_cert_key("localhost", {"127.0.0.1"}, {});
  ASSERT_TRUE(other);
  const std::string end = "-----END CERTIFICATE-----\n";
  const std::string other_ca = other->cert_pem.substr(other->cert_pem.find(end) + end.size());
  Client wrong(server_->port(), other_ca);
  const auto r = wrong.connect();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("handshake"), std::string::npos) << r.error();

  Client wrong_host(server_->port(), ca_pem(), "example.com");
  EXPECT_FALSE(wrong_host.connect());
}

TEST_F(SecureServerTest, StopClosesIdleConnections) {
  Client idle(server_->port(), ca_pem());
  ASSERT_TRUE(idle.connect());
  ASSERT_TRUE(idle.get("/healthz"));
  // A raw TCP connection that never handshakes, too.
  net::io_context ioc;
  tcp::socket raw(ioc);
  raw.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto start = std::chrono::steady_clock::now();
  server_->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_FALSE(idle.get("/healthz"));
  server_->stop();  // idempotent
  EXPECT_FALSE(fetch(server_->port(), "/healthz"));
}

TEST_F(SecureServerTest, ConcurrentClientsWhileChecksAreAdded) {
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 3; ++t) {
    clients.emplace_back([&] {
      Client c(server_->port(), ca_pem());
      if (!c.connect()) return;
      for (int i = 0; i < 10; ++i) {
        auto r = c.get("/healthz?verbose");
        if (r && r->status == 200) ok.fetch_add(1);
      }
    });
  }
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(healthz_->add_checks({ping_check("c" + std::to_string(i))}));
  for (auto& t : clients)
    t.join();
  EXPECT_EQ(ok.load(), 30);
}

TEST_F(SecureServerTest, PortInUse) {
  SecureServerOptions o;
  o.bind_address = "127.0.0.1";
  o.port = server_->port();
  SecureServer second(o, certificate(), {.healthz = healthz_, .registry = registry_});
  const auto r = second.start();
  ASSERT_FALSE(r);
  const std::string addr = "127.0.0.1:" + std::to_string(server_->port());
  EXPECT_EQ(r.error(), "failed to listen on " + addr + ": listen tcp " + addr +
                           ": bind: address already in use");
  EXPECT_EQ(second.port(), 0);
}

TEST(SecureServerDisabledTest, PortZeroServesNothing) {
  SecureServerOptions o;
  o.port = 0;
  SecureServer s(o, ServingCertificate{}, {.healthz = std::make_shared<HealthzHandler>()});
  EXPECT_FALSE(s.enabled());
  ASSERT_TRUE(s.start());
  EXPECT_EQ(s.port(), 0);
  s.stop();
}

TEST(SecureServerDisabledTest, BadCertificateFailsStart) {
  SecureServerOptions o;
  o.bind_address = "127.0.0.1";
  o.pick_free_port = true;
  ServingCertificate bad;
  bad.cert_pem = "garbage";
  bad.key_pem = "garbage";
  SecureServer s(o, bad, {.healthz = std::make_shared<HealthzHandler>()});
  const auto r = s.start();
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().starts_with("unable to load server certificate: ")) << r.error();
}

TEST(SecureServerDisabledTest, NoDebugFlagsWithoutProfiling) {
  SecureServerOptions o;
  o.bind_address = "127.0.0.1";
  o.pick_free_port = true;
  o.threads = 1;
  o.profiling = false;  // --profiling=false
  SecureServer s(o, certificate(), {.healthz = std::make_shared<HealthzHandler>()});
  ASSERT_TRUE(s.start());
  const int before = log::verbosity();
  Client c(s.port(), ca_pem());
  ASSERT_TRUE(c.connect());
  for (const std::string target : {"/debug/flags", "/debug/flags/v"}) {
    auto r = c.get(target, http::verb::put, "7");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 404) << target;
  }
  EXPECT_EQ(log::verbosity(), before);
  s.stop();
}

TEST(SecureServerDisabledTest, NullRegistryServesAnEmptyPage) {
  SecureServerOptions o;
  o.bind_address = "127.0.0.1";
  o.pick_free_port = true;
  o.threads = 1;
  SecureServer s(o, certificate(), {});
  ASSERT_TRUE(s.start());
  auto r = fetch(s.port(), "/metrics");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "");
  r = fetch(s.port(), "/healthz");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->status, 404);
}

}  // namespace
}  // namespace kcm::app
