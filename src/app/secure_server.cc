#include "app/secure_server.h"

#include <openssl/ssl.h>

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "api/duration.h"
#include "app/debug_flags.h"
#include "app/url_unescape.h"
#include "log/log.h"
#include "log/thread_name.h"
#include "metrics/registry.h"
#include "metrics/text_format.h"
#include "tls/go_cipher_suites.h"

namespace kcm::app {

namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using Stream = beast::ssl_stream<beast::tcp_stream>;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr auto kUseTuple = net::as_tuple(net::use_awaitable);
constexpr std::string_view kHttp11 = "http/1.1";
constexpr std::string_view kTextPlain = "text/plain; charset=utf-8";
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr auto kWriteTimeout = std::chrono::seconds(30);
constexpr std::size_t kMaxHeaderBytes = 1 << 20;  // Go's MaxHeaderBytes on the secure server
constexpr std::size_t kMaxBodyBytes = 3 << 20;

// Picks "http/1.1" from the client's ALPN list; without it none is
// acknowledged (h2 is not served).
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

// Go's syscall error text: lowercase first letter.
std::string go_error_text(const boost::system::error_code& ec) {
  std::string text = ec.message();
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

// net.JoinHostPort.
std::string join_host_port(std::string_view host, std::uint16_t port) {
  if (host.find(':') != std::string_view::npos) {
    return "[" + std::string(host) + "]:" + std::to_string(port);
  }
  return std::string(host) + ":" + std::to_string(port);
}

std::string endpoint_text(const tcp::endpoint& ep) {
  return join_host_port(ep.address().to_string(), ep.port());
}

// RFC 1123 in GMT, as Go's Date header.
std::string http_date() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

HttpAnswer not_found() {
  return http_error(404, "404 page not found");
}

}  // namespace

struct SecureServer::Impl {
  SecureServerOptions options;
  ServingCertificate certificate;
  SecureServerHandlers handlers;

  std::atomic<std::uint16_t> bound_port{0};

  // Connections and the accept loop, for stop().
  std::mutex mu;
  std::condition_variable cv;
  bool started = false;
  bool stopping = false;
  bool accepting = false;
  std::uint64_t next_id = 0;
  std::map<std::uint64_t, std::weak_ptr<Stream>> streams;

  // Declared after what coroutine frames touch, so the io_context (and the
  // frames it still owns) goes first on destruction.
  ssl::context tls{ssl::context::tls_server};
  net::io_context ioc;
  std::optional<net::strand<net::io_context::executor_type>> accept_strand;
  std::optional<tcp::acceptor> acceptor;
  std::vector<std::thread> threads;

  Result<void> configure_tls();
  Result<void> listen();
  net::awaitable<void> accept_loop();
  net::awaitable<void> session(tcp::socket socket);
  HttpAnswer route(const Request& req) const;
  Response respond(const Request& req, const std::string& remote) const;

  // RAII registration of a live connection.
  struct Registration {
    Impl* impl;
    std::uint64_t id;
    bool ok;
    ~Registration() {
      std::lock_guard lock(impl->mu);
      impl->streams.erase(id);
      impl->cv.notify_all();
    }
  };
  Registration register_stream(const std::shared_ptr<Stream>& stream) {
    std::lock_guard lock(mu);
    const std::uint64_t id = next_id++;
    if (stopping) return {this, id, false};
    streams.emplace(id, stream);
    return {this, id, true};
  }
};

Result<void> SecureServer::Impl::configure_tls() {
  boost::system::error_code ec;
  tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                      ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                      ssl::context::no_compression,
                  ec);
  SSL_CTX* native = tls.native_handle();
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  // kube-controller-manager serves with Go's crypto/tls.
  tls::choose_tls13_suites_as_go_server(native);
  SSL_CTX_set_alpn_select_cb(native, select_http11, nullptr);
  tls.use_certificate_chain(net::buffer(certificate.cert_pem), ec);
  if (ec) return fail("unable to load server certificate: " + ec.message());
  tls.use_private_key(net::buffer(certificate.key_pem), ssl::context::pem, ec);
  if (ec) return fail("unable to load server private key: " + ec.message());
  if (SSL_CTX_check_private_key(native) != 1) {
    return fail("tls: private key does not match public key");
  }
  return {};
}

Result<void> SecureServer::Impl::listen() {
  const std::uint16_t port = options.pick_free_port ? 0 : static_cast<std::uint16_t>(options.port);
  const std::string shown = join_host_port(
      is_unspecified_address(options.bind_address) ? std::string("0.0.0.0") : options.bind_address,
      port);
  std::vector<tcp::endpoint> candidates;
  if (is_unspecified_address(options.bind_address)) {
    // Go listens dual-stack on [::] for an unspecified address.
    candidates.emplace_back(net::ip::address_v6::any(), port);
    candidates.emplace_back(net::ip::address_v4::any(), port);
  } else {
    std::string host = options.bind_address;
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    boost::system::error_code ec;
    const auto address = net::ip::make_address(host, ec);
    if (ec) return fail("failed to listen on " + shown + ": invalid bind address " + host);
    candidates.emplace_back(address, port);
  }
  std::string last_error;
  for (const auto& ep : candidates) {
    tcp::acceptor a(*accept_strand);
    boost::system::error_code ec;
    std::string step = "socket";
    a.open(ep.protocol(), ec);
    if (!ec && ep.address().is_v6() && ep.address().is_unspecified()) {
      a.set_option(net::ip::v6_only(false), ec);
      step = "setsockopt";
    }
    if (!ec) {
      a.set_option(tcp::acceptor::reuse_address(true), ec);
      step = "setsockopt";
    }
    if (!ec) {
      a.bind(ep, ec);
      step = "bind";
    }
    if (!ec) {
      a.listen(net::socket_base::max_listen_connections, ec);
      step = "listen";
    }
    if (ec) {
      last_error = "failed to listen on " + shown + ": listen tcp " + shown + ": " + step + ": " +
                   go_error_text(ec);
      // Only fall back to IPv4 when IPv6 itself is unavailable.
      if (step == "bind" && ec == net::error::address_in_use) break;
      continue;
    }
    bound_port = a.local_endpoint().port();
    log::info("Serving securely on " + endpoint_text(a.local_endpoint()));
    acceptor.emplace(std::move(a));
    return {};
  }
  return fail(last_error);
}

net::awaitable<void> SecureServer::Impl::accept_loop() {
  for (;;) {
    auto [ec, socket] = co_await acceptor->async_accept(net::make_strand(ioc), kUseTuple);
    if (ec) {
      if (ec == net::error::operation_aborted || ec == net::error::bad_descriptor) break;
      {
        std::lock_guard lock(mu);
        if (stopping) break;
      }
      log::error("Accepting a connection failed", {{"err", ec.message()}});
      // EMFILE and friends: pause instead of spinning.
      net::steady_timer pause(co_await net::this_coro::executor, std::chrono::milliseconds(100));
      co_await pause.async_wait(kUseTuple);
      continue;
    }
    auto executor = socket.get_executor();
    net::co_spawn(executor, session(std::move(socket)), net::detached);
  }
  std::lock_guard lock(mu);
  accepting = false;
  cv.notify_all();
}

net::awaitable<void> SecureServer::Impl::session(tcp::socket socket) {
  std::string remote;
  {
    boost::system::error_code ec;
    const auto ep = socket.remote_endpoint(ec);
    if (!ec) remote = endpoint_text(ep);
  }
  auto stream = std::make_shared<Stream>(std::move(socket), tls);
  const Registration registration = register_stream(stream);
  if (!registration.ok) co_return;

  auto& lowest = beast::get_lowest_layer(*stream);
  lowest.expires_after(kHandshakeTimeout);
  if (auto [ec] = co_await stream->async_handshake(ssl::stream_base::server, kUseTuple); ec) {
    if (log::v(4)) log::info("TLS handshake error", {{"remote", remote}, {"err", ec.message()}});
    co_return;
  }
  beast::flat_buffer buffer;
  for (;;) {
    lowest.expires_after(options.idle_timeout);
    http::request_parser<http::string_body> parser;
    parser.header_limit(kMaxHeaderBytes);
    parser.body_limit(kMaxBodyBytes);
    auto [read_ec, read_n] = co_await http::async_read(*stream, buffer, parser, kUseTuple);
    (void)read_n;
    if (read_ec) {
      if (read_ec != http::error::end_of_stream && read_ec != net::error::operation_aborted &&
          read_ec != beast::error::timeout && read_ec != net::ssl::error::stream_truncated &&
          read_ec != net::error::eof && read_ec != net::error::connection_reset) {
        // Go answers a malformed request with a bare 400 and closes.
        Response bad{http::status::bad_request, 11};
        bad.set(http::field::content_type, kTextPlain);
        bad.set(http::field::connection, "close");
        bad.body() = "400 Bad Request";
        bad.prepare_payload();
        lowest.expires_after(kWriteTimeout);
        co_await http::async_write(*stream, bad, kUseTuple);
      }
      break;
    }
    const Request req = parser.release();
    Response res = respond(req, remote);
    lowest.expires_after(kWriteTimeout);
    auto [write_ec, write_n] = co_await http::async_write(*stream, res, kUseTuple);
    (void)write_n;
    if (write_ec || !res.keep_alive()) break;
  }
  lowest.expires_after(std::chrono::seconds(2));
  co_await stream->async_shutdown(kUseTuple);
}

HttpAnswer SecureServer::Impl::route(const Request& req) const {
  std::string_view target(req.target().data(), req.target().size());
  // Absolute-form targets ("https://host/path").
  if (const auto scheme = target.find("://");
      !target.starts_with('/') && scheme != std::string_view::npos) {
    const auto slash = target.find('/', scheme + 3);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  const std::size_t q = target.find('?');
  const std::string_view raw_path = target.substr(0, q);
  const std::string_view raw_query =
      q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  const auto path = url_unescape(raw_path, /*plus_is_space=*/false);
  if (!path) return http_error(400, "400 Bad Request");

  const SecureServerHandlers& h = handlers;
  if (*path == "/metrics") {
    HttpAnswer a;
    a.content_type = std::string(metrics::kTextContentType);
    if (h.registry) a.body = h.registry->render_text();
    return a;
  }
  if (*path == "/metrics/slis" && h.slis) {
    // metrics.HandlerWithReset: DELETE resets, any other method reads.
    HttpAnswer a;
    if (req.method() == http::verb::delete_) {
      h.slis->reset();
      a.body = "metrics reset\n";
      return a;
    }
    a.content_type = std::string(metrics::kTextContentType);
    a.body = h.slis->registry()->render_text();
    return a;
  }
  if (*path == "/configz" && h.configz) return *h.configz;
  if (h.zpages) {
    const auto accept = req[http::field::accept];
    if (auto a = h.zpages->serve(*path, std::string_view(accept.data(), accept.size())))
      return std::move(*a);
  }
  if (options.profiling) {
    std::string_view method(req.method_string().data(), req.method_string().size());
    if (auto flags = serve_debug_flags(method, *path, req.body())) return std::move(*flags);
  }
  if (h.debug) {
    if (auto a = h.debug->serve(*path, raw_query)) return std::move(*a);
  }
  if (h.healthz && (*path == h.healthz->path() || path->starts_with(h.healthz->path() + "/"))) {
    auto answer = h.healthz->serve(*path, raw_query);
    if (!answer) return not_found();
    return std::move(*answer);
  }
  return not_found();
}

Response SecureServer::Impl::respond(const Request& req, const std::string& remote) const {
  const auto start = std::chrono::steady_clock::now();
  HttpAnswer answer;
  try {
    answer = route(req);
  } catch (const std::exception& e) {
    // WithPanicRecovery.
    log::error("apiserver panic'd", {{"method", std::string(req.method_string())},
                                     {"URI", std::string(req.target())},
                                     {"err", e.what()}});
    answer =
        http_error(500, "This request caused apiserver to panic. Look in the logs for details.");
  }
  Response res{static_cast<http::status>(answer.status), req.version()};
  res.set(http::field::cache_control, "no-cache, private");
  res.set(http::field::content_type, answer.content_type);
  if (answer.nosniff) res.set("X-Content-Type-Options", "nosniff");
  res.set(http::field::date, http_date());
  res.keep_alive(req.keep_alive());
  const std::size_t length = answer.body.size();
  res.body() = std::move(answer.body);
  res.prepare_payload();
  if (req.method() == http::verb::head) {
    res.body().clear();
    res.content_length(length);
  }
  if (log::v(3)) {
    log::info("HTTP", {{"verb", std::string(req.method_string())},
                       {"URI", std::string(req.target())},
                       {"latency", api::format_duration(std::chrono::steady_clock::now() - start)},
                       {"userAgent", std::string(req[http::field::user_agent])},
                       {"audit-ID", ""},
                       {"srcIP", remote},
                       {"resp", answer.status}});
  }
  return res;
}

SecureServer::SecureServer(SecureServerOptions options, ServingCertificate certificate,
                           SecureServerHandlers handlers)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->certificate = std::move(certificate);
  impl_->handlers = std::move(handlers);
}

SecureServer::~SecureServer() {
  stop();
}

bool SecureServer::enabled() const {
  return impl_->options.pick_free_port || impl_->options.port != 0;
}

std::uint16_t SecureServer::port() const {
  return impl_->bound_port.load();
}

Result<void> SecureServer::start() {
  if (!enabled()) return {};
  if (impl_->options.port < 0 || impl_->options.port > 65535) {
    return fail("invalid port " + std::to_string(impl_->options.port));
  }
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->started) return fail("secure server already started");
    impl_->started = true;
  }
  if (auto r = impl_->configure_tls(); !r) return r;
  impl_->accept_strand.emplace(net::make_strand(impl_->ioc));
  if (auto r = impl_->listen(); !r) return r;
  {
    std::lock_guard lock(impl_->mu);
    impl_->accepting = true;
  }
  net::co_spawn(*impl_->accept_strand, impl_->accept_loop(), net::detached);
  const std::size_t n = std::max<std::size_t>(1, impl_->options.threads);
  for (std::size_t i = 0; i < n; ++i)
    impl_->threads.emplace_back([this] {
      log::set_thread_name("https");
      impl_->ioc.run();
    });
  return {};
}

void SecureServer::stop() {
  Impl& impl = *impl_;
  std::vector<std::weak_ptr<Stream>> open;
  {
    std::lock_guard lock(impl.mu);
    if (impl.stopping) return;
    impl.stopping = true;
    for (const auto& [id, s] : impl.streams)
      open.push_back(s);
  }
  if (impl.threads.empty()) return;
  net::post(*impl.accept_strand, [&impl] {
    boost::system::error_code ignored;
    impl.acceptor->close(ignored);
  });
  for (const auto& weak : open) {
    if (auto s = weak.lock()) {
      // Closed on the connection's own strand, where its operations run.
      net::post(s->get_executor(), [weak] {
        if (auto stream = weak.lock()) {
          boost::system::error_code ignored;
          beast::get_lowest_layer(*stream).socket().close(ignored);
        }
      });
    }
  }
  {
    std::unique_lock lock(impl.mu);
    impl.cv.wait_for(lock, std::chrono::seconds(5),
                     [&] { return !impl.accepting && impl.streams.empty(); });
  }
  impl.ioc.stop();
  for (auto& t : impl.threads)
    t.join();
  impl.threads.clear();
}

}  // namespace kcm::app
