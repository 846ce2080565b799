// A small HTTPS/1.1 client for the benchmarks: one keep-alive TLS connection
// (server verified against a CA) sending bearer-token requests, and streaming
// GETs whose chunked body is handed over line by line (watch events).
// A connection is used by one coroutine at a time, on one executor (strand).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/verb.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::bench {

namespace net = boost::asio;
namespace http = boost::beast::http;

struct ServerEndpoint {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string token;  // sent as "Authorization: Bearer <token>" (none when empty)
};

struct HttpResponse {
  unsigned status = 0;
  std::string body;
};

// A client TLS context that trusts exactly `ca_pem` and verifies the peer.
Result<std::shared_ptr<net::ssl::context>> make_client_tls(const std::string& ca_pem);

// A client TLS context that accepts any server certificate (curl -k): for
// reading the /metrics of a server with a self-signed certificate, such as kcm's.
std::shared_ptr<net::ssl::context> make_insecure_client_tls();

class HttpsConnection {
 public:
  HttpsConnection(net::any_io_executor executor, std::shared_ptr<net::ssl::context> tls,
                  ServerEndpoint endpoint);
  ~HttpsConnection();
  HttpsConnection(const HttpsConnection&) = delete;
  HttpsConnection& operator=(const HttpsConnection&) = delete;

  // TCP connect and TLS handshake (host name / IP checked against the certificate).
  net::awaitable<Result<void>> connect();
  bool connected() const;

  // One request/response exchange on the kept-alive connection (connecting
  // first if needed). Any status is a value; transport failures are errors.
  net::awaitable<Result<HttpResponse>> request(http::verb verb, std::string_view target,
                                               std::string body = {},
                                               std::string_view content_type = "application/json");

  // Sends a GET and reads the response header. On 200 the body follows as a
  // stream: read_lines() then calls `on_line` for each '\n'-terminated line
  // (without the '\n') until `on_line` returns false, the stream ends or fails.
  // A non-200 answer is an error carrying the status and body.
  net::awaitable<Result<void>> open_stream(std::string_view target);
  net::awaitable<Result<void>> read_lines(std::function<bool(std::string_view line)> on_line);

  // Closes the socket at once (no TLS shutdown). Call on the connection's executor.
  void close();

  const net::any_io_executor& executor() const { return executor_; }

 private:
  struct Impl;
  net::any_io_executor executor_;
  std::shared_ptr<net::ssl::context> tls_;
  ServerEndpoint endpoint_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kcm::bench
