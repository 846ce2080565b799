#include "local/apiserver/http_server.h"

#include <fmt/format.h>

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <list>
#include <mutex>
#include <span>
#include <sstream>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "local/pki/certificates.h"
#include "local/pki/tls_context.h"

namespace kcm::local::apiserver {

namespace beast = boost::beast;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

namespace {

// Every authenticated user is in this group, as upstream's authenticators add it.
constexpr std::string_view kAuthenticatedGroup = "system:authenticated";

constexpr auto kHandshakeTimeout = 30s;
constexpr auto kIdleTimeout = 10min;  // keep-alive connections with no request
constexpr auto kWriteTimeout = 60s;   // a client that stops reading

constexpr std::string_view kCrlf = "\r\n";
constexpr std::string_view kLastChunk = "0\r\n\r\n";

std::string status_body(const api::Status& s) {
  return boost::json::serialize(s.to_json());
}

// A response's status line and fields, as Beast writes them, ending in the
// blank line.
std::string header_text(const http::response_header<>& header) {
  std::ostringstream out;
  out << header;
  return std::move(out).str();
}

}  // namespace

class Session final : public Exchange, public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, net::ssl::context& tls, const HttpServerOptions& options,
          const Handler& handler)
      : stream_(std::move(socket), tls), options_(options), handler_(handler) {}

  const HttpRequest& request() const override { return req_; }
  const std::string& user() const override { return user_; }
  const std::vector<std::string>& groups() const override { return *groups_; }

  net::awaitable<void> respond(http::status status, std::string_view content_type, std::string body,
                               Headers headers) override {
    if (responded_) co_return;
    responded_ = true;
    http::response<http::string_body> res{status, req_.version()};
    res.set(http::field::content_type, content_type);
    res.set(http::field::cache_control, "no-cache, private");
    for (auto& [k, v] : headers)
      res.insert(k, v);
    res.keep_alive(keep_alive_);
    res.body() = std::move(body);
    res.prepare_payload();
    const std::string head = header_text(res.base());
    const std::array<net::const_buffer, 2> buffers{net::buffer(head), net::buffer(res.body())};
    co_await write_buffers(buffers);
  }

  net::awaitable<bool> start_stream(http::status status, std::string_view content_type) override {
    responded_ = true;
    streaming_ = true;
    http::response<http::empty_body> res{status, req_.version()};
    res.set(http::field::content_type, content_type);
    res.set(http::field::cache_control, "no-cache, private");
    res.chunked(true);
    res.keep_alive(false);
    const std::string head = header_text(res.base());
    const std::array<net::const_buffer, 1> buffers{net::buffer(head)};
    const bool open = co_await write_buffers(buffers);
    co_return open;
  }

  // One chunk of the chunked encoding (RFC 9112 §7.1): its size in hex, the
  // data, CRLF. An empty chunk would end the body, so nothing is sent for it.
  net::awaitable<bool> write_chunk(std::string data) override {
    if (closed_) co_return false;
    if (data.empty()) co_return true;
    const std::string size_line = fmt::format("{:x}\r\n", data.size());
    const std::array<net::const_buffer, 3> buffers{net::buffer(size_line), net::buffer(data),
                                                   net::buffer(kCrlf)};
    const bool open = co_await write_buffers(buffers);
    co_return open;
  }

  net::awaitable<void> finish_stream() override {
    if (closed_) co_return;
    const std::array<net::const_buffer, 1> buffers{net::buffer(kLastChunk)};
    co_await write_buffers(buffers);
    closed_ = true;  // a streamed response ends the connection
  }

  net::awaitable<void> wait_closed() override {
    // The client sends nothing while it reads a stream: any read completion
    // (data, EOF or error) means it is gone or misbehaving.
    char byte = 0;
    beast::error_code ec;
    co_await stream_.async_read_some(net::buffer(&byte, 1),
                                     net::redirect_error(net::use_awaitable, ec));
    // Cancelled because the stream ended on our side: the connection is fine.
    if (ec != net::error::operation_aborted) closed_ = true;
  }

  net::awaitable<void> run() {
    auto self = shared_from_this();
    beast::error_code ec;
    stream_.next_layer().expires_after(kHandshakeTimeout);
    co_await stream_.async_handshake(net::ssl::stream_base::server,
                                     net::redirect_error(net::use_awaitable, ec));
    if (ec) co_return;
    if (auto identity = pki::client_certificate_identity(stream_.native_handle())) {
      cert_user_ = identity->user;
      cert_groups_ = std::move(identity->groups);
      cert_groups_.push_back(std::string(kAuthenticatedGroup));
    }
    while (!closed_) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(options_.body_limit);
      parser.header_limit(1 << 20);
      stream_.next_layer().expires_after(kIdleTimeout);
      co_await http::async_read(stream_, buffer_, parser,
                                net::redirect_error(net::use_awaitable, ec));
      stream_.next_layer().expires_never();
      if (ec == http::error::body_limit) {
        req_ = {};
        keep_alive_ = false;
        co_await respond(http::status::payload_too_large, "application/json",
                         status_body(api::request_entity_too_large(
                             "limit is " + std::to_string(options_.body_limit))),
                         {});
        break;
      }
      if (ec) {
        if (ec != http::error::end_of_stream && ec != net::error::eof &&
            ec != net::ssl::error::stream_truncated && ec != net::error::operation_aborted &&
            ec != beast::error::timeout && ec != net::error::connection_reset) {
          req_ = {};
          keep_alive_ = false;
          co_await respond(http::status::bad_request, "application/json",
                           status_body(api::bad_request("malformed HTTP request: " + ec.message())),
                           {});
        }
        break;
      }
      req_ = parser.release();
      keep_alive_ = req_.keep_alive();
      responded_ = false;
      if (!authenticate()) {
        co_await respond(http::status::unauthorized, "application/json",
                         status_body(api::unauthorized()), {});
      } else {
        co_await handler_(*this);
        if (!responded_) {
          co_await respond(http::status::internal_server_error, "application/json",
                           status_body(api::internal_error("no response")), {});
        }
      }
      if (!keep_alive_ || streaming_) break;
    }
    stream_.next_layer().expires_after(2s);
    co_await stream_.async_shutdown(net::redirect_error(net::use_awaitable, ec));
  }

  net::any_io_executor executor() { return stream_.get_executor(); }

  // Every response leaves through this one write of whole buffers (header
  // text, body, chunk framing): each kind of Beast write on the TLS stream
  // was a template instantiation of its own, and together they made this
  // the slowest file of every build to compile. The callers' buffers stay on
  // their frames (no allocation per watch chunk). A failed write closes the
  // exchange; returns whether it is still open.
  net::awaitable<bool> write_buffers(std::span<const net::const_buffer> buffers) {
    stream_.next_layer().expires_after(kWriteTimeout);
    beast::error_code ec;
    co_await net::async_write(stream_, buffers, net::redirect_error(net::use_awaitable, ec));
    stream_.next_layer().expires_never();
    if (ec) closed_ = true;
    co_return !closed_;
  }

  // Closes the socket from any thread (server shutdown).
  void close() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->stream_.next_layer().socket().shutdown(tcp::socket::shutdown_both, ec);
      self->stream_.next_layer().close();
    });
  }

 private:
  bool authenticate() {
    if (!cert_user_.empty()) {
      user_ = cert_user_;
      groups_ = &cert_groups_;
      return true;
    }
    const auto auth = req_[http::field::authorization];
    constexpr std::string_view kBearer = "Bearer ";
    if (auth.size() > kBearer.size() && auth.substr(0, kBearer.size()) == kBearer &&
        options_.token_ok && options_.token_ok(auth.substr(kBearer.size()))) {
      // The token is the admin's, as the certificate is.
      user_ = pki::kAdminUser;
      static const std::vector<std::string> kTokenGroups = {std::string(pki::kAdminGroup),
                                                            std::string(kAuthenticatedGroup)};
      groups_ = &kTokenGroups;
      return true;
    }
    user_.clear();
    groups_ = &kNoGroups;
    std::string_view target = req_.target();
    target = target.substr(0, target.find('?'));
    for (const auto& p : options_.public_paths) {
      if (target == p) return true;
    }
    return false;
  }

  beast::ssl_stream<beast::tcp_stream> stream_;
  const HttpServerOptions& options_;
  const Handler& handler_;
  beast::flat_buffer buffer_;
  HttpRequest req_;
  std::string cert_user_;
  std::vector<std::string> cert_groups_;
  std::string user_;
  // The groups of the request being served: the certificate's, the token's
  // or none; pointed at, not copied, on every request.
  static inline const std::vector<std::string> kNoGroups;
  const std::vector<std::string>* groups_ = &kNoGroups;
  bool keep_alive_ = true;
  bool responded_ = false;
  bool streaming_ = false;
  bool closed_ = false;
};

struct HttpServer::Impl {
  explicit Impl(net::io_context& ioc) : acceptor(net::make_strand(ioc)) {}
  tcp::acceptor acceptor;
  std::mutex mu;
  std::list<std::weak_ptr<Session>> sessions;
};

HttpServer::HttpServer(HttpServerOptions options, std::shared_ptr<net::ssl::context> tls,
                       Handler handler)
    : options_(std::move(options)),
      tls_(std::move(tls)),
      handler_(std::move(handler)),
      impl_(std::make_unique<Impl>(ioc_)) {}

HttpServer::~HttpServer() {
  stop();
}

Result<unsigned short> HttpServer::start() {
  beast::error_code ec;
  const auto address = net::ip::make_address(options_.host, ec);
  if (ec) return fail("invalid listen address " + options_.host + ": " + ec.message());
  tcp::endpoint endpoint(address, options_.port);
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return fail("cannot listen on " + options_.host + ":" + std::to_string(options_.port) + ": " +
                ec.message());
  }
  const unsigned short port = acceptor.local_endpoint().port();
  net::co_spawn(acceptor.get_executor(), accept_loop(), net::detached);
  std::size_t n = options_.threads;
  if (n == 0) n = std::max<std::size_t>(2, std::thread::hardware_concurrency());
  for (std::size_t i = 0; i < n; ++i)
    threads_.emplace_back([this] { ioc_.run(); });
  return port;
}

net::awaitable<void> HttpServer::accept_loop() {
  for (;;) {
    beast::error_code ec;
    tcp::socket socket = co_await impl_->acceptor.async_accept(
        net::make_strand(ioc_), net::redirect_error(net::use_awaitable, ec));
    if (ec) {
      if (ec == net::error::operation_aborted || !impl_->acceptor.is_open()) co_return;
      continue;  // e.g. too many open files: keep serving the others
    }
    socket.set_option(tcp::no_delay(true), ec);
    auto session = std::make_shared<Session>(std::move(socket), *tls_, options_, handler_);
    {
      std::lock_guard lock(impl_->mu);
      impl_->sessions.remove_if([](const auto& w) { return w.expired(); });
      impl_->sessions.push_back(session);
    }
    // The session runs on its socket's strand: its reads and writes never overlap.
    net::co_spawn(session->executor(), session->run(), net::detached);
  }
}

void HttpServer::stop() {
  if (threads_.empty()) return;
  net::post(impl_->acceptor.get_executor(), [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lock(impl_->mu);
    for (auto& w : impl_->sessions) {
      if (auto s = w.lock()) live.push_back(std::move(s));
    }
  }
  for (auto& s : live)
    s->close();
  live.clear();
  // Give sessions a moment to unwind (their watches unregister), then stop.
  for (int i = 0; i < 100; ++i) {
    bool any = false;
    {
      std::lock_guard lock(impl_->mu);
      for (auto& w : impl_->sessions)
        any = any || !w.expired();
    }
    if (!any) break;
    std::this_thread::sleep_for(20ms);
  }
  ioc_.stop();
  for (auto& t : threads_)
    t.join();
  threads_.clear();
}

}  // namespace kcm::local::apiserver
