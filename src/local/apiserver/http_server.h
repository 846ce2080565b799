// The HTTPS front of kcm-local: accepts TLS connections, reads HTTP/1.1
// requests (with a body size limit), authenticates them (client certificate
// or bearer token) and hands each to a handler coroutine, which either answers
// at once or streams (watches). Connections are coroutines on a thread pool,
// so thousands of idle watches cost a socket and a small frame each.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api/result.h"

namespace kcm::local::apiserver {

namespace net = boost::asio;
namespace http = boost::beast::http;

using HttpRequest = http::request<http::string_body>;

// One request and its response. Handlers answer with respond(), or stream
// with start_stream() / write_chunk() / finish_stream().
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual const HttpRequest& request() const = 0;
  // The authenticated user ("" for anonymous requests to public paths).
  virtual const std::string& user() const = 0;
  // The authenticated user's groups, "system:authenticated" last (empty for
  // anonymous requests).
  virtual const std::vector<std::string>& groups() const = 0;

  using Headers = std::vector<std::pair<std::string, std::string>>;
  virtual net::awaitable<void> respond(http::status status, std::string_view content_type,
                                       std::string body, Headers headers = {}) = 0;

  // Chunked streaming. Each returns false once the client is gone.
  virtual net::awaitable<bool> start_stream(http::status status, std::string_view content_type) = 0;
  virtual net::awaitable<bool> write_chunk(std::string data) = 0;
  virtual net::awaitable<void> finish_stream() = 0;
  // Completes when the client closes its side of the connection (or the
  // server shuts down). Meant to be raced against a streaming loop.
  virtual net::awaitable<void> wait_closed() = 0;
};

using Handler = std::function<net::awaitable<void>(Exchange&)>;

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 6443;
  std::size_t threads = 0;                   // 0: one per core, at least 2
  std::size_t body_limit = 3 * 1024 * 1024;  // upstream's 3 MiB request limit
  // Paths anyone may read without credentials (health checks).
  std::vector<std::string> public_paths = {"/healthz", "/livez", "/readyz"};
  // Checks a bearer token; a verified client certificate needs no token.
  std::function<bool(std::string_view token)> token_ok;
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, std::shared_ptr<net::ssl::context> tls, Handler handler);
  ~HttpServer();

  // Binds and starts serving; returns the bound port (useful with port 0).
  Result<unsigned short> start();
  // Stops accepting, closes connections and joins the threads.
  void stop();

  net::io_context& io_context() { return ioc_; }

 private:
  net::awaitable<void> accept_loop();

  HttpServerOptions options_;
  std::shared_ptr<net::ssl::context> tls_;
  Handler handler_;
  net::io_context ioc_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::thread> threads_;
};

}  // namespace kcm::local::apiserver
