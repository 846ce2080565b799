#include "bench/https_client.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <optional>

namespace kcm::bench {

namespace beast = boost::beast;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto kConnectTimeout = 30s;
// Generous: a full list of 100k pods is half a gigabyte.
constexpr auto kRequestTimeout = 600s;

}  // namespace

Result<std::shared_ptr<net::ssl::context>> make_client_tls(const std::string& ca_pem) {
  auto tls = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
  beast::error_code ec;
  tls->add_certificate_authority(net::buffer(ca_pem), ec);
  if (ec) return fail("cannot load the CA certificate: " + ec.message());
  tls->set_verify_mode(net::ssl::verify_peer, ec);
  if (ec) return fail("cannot enable peer verification: " + ec.message());
  return tls;
}

std::shared_ptr<net::ssl::context> make_insecure_client_tls() {
  auto tls = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
  // With verify_none the handshake goes on whatever the verification found.
  tls->set_verify_mode(net::ssl::verify_none);
  return tls;
}

struct HttpsConnection::Impl {
  std::optional<beast::ssl_stream<beast::tcp_stream>> stream;
  beast::flat_buffer buffer;
  bool connected = false;

  // Streaming state. The parser keeps references to the callbacks, so both
  // live here, next to it.
  std::optional<http::response_parser<http::empty_body>> stream_parser;
  std::function<std::size_t(std::uint64_t, beast::string_view, beast::error_code&)> on_chunk;
  std::function<bool(std::string_view)> on_line;
  std::string partial_line;
  bool stopped = false;

  // Splits chunk data into lines; chunk boundaries need not match lines.
  void feed(std::string_view data) {
    std::size_t start = 0;
    while (!stopped) {
      const std::size_t nl = data.find('\n', start);
      if (nl == std::string_view::npos) {
        partial_line.append(data.substr(start));
        return;
      }
      if (partial_line.empty()) {
        stopped = !on_line(data.substr(start, nl - start));
      } else {
        partial_line.append(data.substr(start, nl - start));
        stopped = !on_line(partial_line);
        partial_line.clear();
      }
      start = nl + 1;
    }
  }
};

HttpsConnection::HttpsConnection(net::any_io_executor executor,
                                 std::shared_ptr<net::ssl::context> tls, ServerEndpoint endpoint)
    : executor_(std::move(executor)),
      tls_(std::move(tls)),
      endpoint_(std::move(endpoint)),
      impl_(std::make_unique<Impl>()) {}

HttpsConnection::~HttpsConnection() = default;

bool HttpsConnection::connected() const {
  return impl_->connected;
}

void HttpsConnection::close() {
  impl_->connected = false;
  if (impl_->stream) {
    beast::error_code ec;
    beast::get_lowest_layer(*impl_->stream).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(*impl_->stream).close();
  }
}

net::awaitable<Result<void>> HttpsConnection::connect() {
  close();
  // A TLS session cannot be reused after close: start from a fresh stream.
  impl_->stream.emplace(executor_, *tls_);
  impl_->buffer.clear();
  auto& stream = *impl_->stream;
  beast::error_code ec;
  tcp::resolver resolver(executor_);
  const auto endpoints = co_await resolver.async_resolve(
      endpoint_.host, std::to_string(endpoint_.port), net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return fail("resolve " + endpoint_.host + ": " + ec.message());
  auto& tcp_stream = beast::get_lowest_layer(stream);
  tcp_stream.expires_after(kConnectTimeout);
  co_await tcp_stream.async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return fail("connect: " + ec.message());
  tcp_stream.socket().set_option(tcp::no_delay(true), ec);
  // SNI only for names; the certificate check covers names and IP addresses.
  beast::error_code ip_ec;
  net::ip::make_address(endpoint_.host, ip_ec);
  if (ip_ec) SSL_set_tlsext_host_name(stream.native_handle(), endpoint_.host.c_str());
  stream.set_verify_callback(net::ssl::host_name_verification(endpoint_.host));
  co_await stream.async_handshake(net::ssl::stream_base::client,
                                  net::redirect_error(net::use_awaitable, ec));
  tcp_stream.expires_never();
  if (ec) co_return fail("TLS handshake: " + ec.message());
  impl_->connected = true;
  co_return Result<void>();
}

namespace {

http::request<http::string_body> make_request(http::verb verb, std::string_view target,
                                              const ServerEndpoint& endpoint, std::string body,
                                              std::string_view content_type) {
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, endpoint.host + ":" + std::to_string(endpoint.port));
  req.set(http::field::user_agent, "kcm-apiserver-bench");
  req.set(http::field::accept, "application/json");
  if (!endpoint.token.empty()) req.set(http::field::authorization, "Bearer " + endpoint.token);
  if (!body.empty()) req.set(http::field::content_type, content_type);
  req.body() = std::move(body);
  req.keep_alive(true);
  req.prepare_payload();
  return req;
}

}  // namespace

net::awaitable<Result<HttpResponse>> HttpsConnection::request(http::verb verb,
                                                              std::string_view target,
                                                              std::string body,
                                                              std::string_view content_type) {
  if (!impl_->connected) {
    auto connected = co_await connect();
    if (!connected) co_return fail(connected.error());
  }
  auto& stream = *impl_->stream;
  auto& tcp_stream = beast::get_lowest_layer(stream);
  auto req = make_request(verb, target, endpoint_, std::move(body), content_type);
  beast::error_code ec;
  tcp_stream.expires_after(kRequestTimeout);
  co_await http::async_write(stream, req, net::redirect_error(net::use_awaitable, ec));
  if (ec) {
    close();
    co_return fail("write request: " + ec.message());
  }
  http::response_parser<http::string_body> parser;
  parser.body_limit(boost::none);
  co_await http::async_read(stream, impl_->buffer, parser,
                            net::redirect_error(net::use_awaitable, ec));
  tcp_stream.expires_never();
  if (ec) {
    close();
    co_return fail("read response: " + ec.message());
  }
  auto res = parser.release();
  if (!res.keep_alive()) close();
  co_return HttpResponse{res.result_int(), std::move(res.body())};
}

net::awaitable<Result<void>> HttpsConnection::open_stream(std::string_view target) {
  if (!impl_->connected) {
    auto connected = co_await connect();
    if (!connected) co_return fail(connected.error());
  }
  auto& stream = *impl_->stream;
  auto& tcp_stream = beast::get_lowest_layer(stream);
  auto req = make_request(http::verb::get, target, endpoint_, {}, {});
  beast::error_code ec;
  tcp_stream.expires_after(kConnectTimeout);
  co_await http::async_write(stream, req, net::redirect_error(net::use_awaitable, ec));
  if (ec) {
    close();
    co_return fail("write request: " + ec.message());
  }
  Impl& impl = *impl_;
  impl.stream_parser.emplace();
  impl.stream_parser->body_limit(boost::none);
  impl.partial_line.clear();
  impl.stopped = false;
  impl.on_chunk = [&impl](std::uint64_t, beast::string_view data, beast::error_code&) {
    impl.feed(std::string_view(data.data(), data.size()));
    return data.size();
  };
  impl.stream_parser->on_chunk_body(impl.on_chunk);
  co_await http::async_read_header(stream, impl.buffer, *impl.stream_parser,
                                   net::redirect_error(net::use_awaitable, ec));
  tcp_stream.expires_never();
  if (ec) {
    close();
    co_return fail("read response header: " + ec.message());
  }
  const unsigned status = impl.stream_parser->get().result_int();
  if (status != 200 || !impl.stream_parser->chunked()) {
    close();
    co_return fail("stream answered HTTP " + std::to_string(status) +
                   (impl.stream_parser->chunked() ? "" : " (not chunked)"));
  }
  co_return Result<void>();
}

net::awaitable<Result<void>> HttpsConnection::read_lines(
    std::function<bool(std::string_view line)> on_line) {
  Impl& impl = *impl_;
  if (!impl.stream_parser || !impl.stream) co_return fail("no stream is open");
  impl.on_line = std::move(on_line);
  beast::error_code ec;
  while (!impl.stopped && !impl.stream_parser->is_done()) {
    co_await http::async_read_some(*impl.stream, impl.buffer, *impl.stream_parser,
                                   net::redirect_error(net::use_awaitable, ec));
    if (ec && !impl.stopped) {
      close();
      co_return fail("read stream: " + ec.message());
    }
  }
  if (impl.stream_parser->is_done()) close();  // a finished stream ends the connection
  co_return Result<void>();
}

}  // namespace kcm::bench
