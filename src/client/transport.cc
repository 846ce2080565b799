#include "client/transport.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <zlib.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <mutex>

#include "client/ascii_text.h"
#include "client/blocking_socket.h"
#include "tls/go_cipher_suites.h"

namespace kcm::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;
using Deadline = BlockingSocket::Deadline;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

bool is_ip_address(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

bool idempotent(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
         method == "OPTIONS";
}

// gunzip for Content-Encoding: gzip bodies, fed piece by piece.
class Inflater {
 public:
  Inflater() { ok_ = inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK; }
  ~Inflater() {
    if (ok_) inflateEnd(&z_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  Result<std::string> inflate(std::string_view in) {
    if (!ok_) return fail("gzip: cannot initialize zlib");
    std::string out;
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    char chunk[16384];
    while (z_.avail_in > 0) {
      if (ended_) {
        // A further gzip member (Go's reader is multistream too).
        if (inflateReset(&z_) != Z_OK) return fail("gzip: invalid header");
        ended_ = false;
      }
      z_.next_out = reinterpret_cast<Bytef*>(chunk);
      z_.avail_out = sizeof chunk;
      const int rc = ::inflate(&z_, Z_NO_FLUSH);
      out.append(chunk, sizeof chunk - z_.avail_out);
      if (rc == Z_STREAM_END) {
        ended_ = true;
      } else if (rc == Z_BUF_ERROR) {
        if (z_.avail_out != 0) break;  // needs more input
      } else if (rc != Z_OK) {
        return fail(std::string("gzip: ") + (z_.msg != nullptr ? z_.msg : "invalid data"));
      }
    }
    return out;
  }
  bool complete() const { return ended_; }

 private:
  z_stream z_{};
  bool ok_ = false;
  bool ended_ = false;
};

// What the certificate verification callback saw, for Go-like messages.
struct VerifyFailure {
  int error = X509_V_OK;
  std::vector<std::string> dns_names;
  std::vector<std::string> ip_addresses;
};

void collect_names(X509* cert, VerifyFailure* out) {
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (names == nullptr) return;
  for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    if (name->type == GEN_DNS) {
      const auto* s = name->d.dNSName;
      out->dns_names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                  ASN1_STRING_length(s));
    } else if (name->type == GEN_IPADD) {
      const auto* s = name->d.iPAddress;
      const unsigned char* p = ASN1_STRING_get0_data(s);
      if (ASN1_STRING_length(s) == 4) {
        asio::ip::address_v4::bytes_type b;
        std::copy(p, p + 4, b.begin());
        out->ip_addresses.push_back(asio::ip::address_v4(b).to_string());
      } else if (ASN1_STRING_length(s) == 16) {
        asio::ip::address_v6::bytes_type b;
        std::copy(p, p + 16, b.begin());
        out->ip_addresses.push_back(asio::ip::address_v6(b).to_string());
      }
    }
  }
  GENERAL_NAMES_free(names);
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Go's crypto/x509 wording for the common failures.
std::string describe_verify_failure(const VerifyFailure& f, const std::string& server_name,
                                    bool server_name_is_ip) {
  std::string cause;
  switch (f.error) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
      cause = "x509: certificate signed by unknown authority";
      break;
    case X509_V_ERR_CERT_HAS_EXPIRED:
    case X509_V_ERR_CERT_NOT_YET_VALID:
      cause = "x509: certificate has expired or is not yet valid";
      break;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
      if (server_name_is_ip) {
        cause = f.ip_addresses.empty() ? "x509: cannot validate certificate for " + server_name +
                                             " because it doesn't contain any IP SANs"
                                       : "x509: certificate is valid for " + join(f.ip_addresses) +
                                             ", not " + server_name;
      } else {
        cause =
            f.dns_names.empty()
                ? "x509: certificate is not valid for any names, but wanted to match " + server_name
                : "x509: certificate is valid for " + join(f.dns_names) + ", not " + server_name;
      }
      break;
    default:
      cause = std::string("x509: ") + X509_verify_cert_error_string(f.error);
  }
  return "tls: failed to verify certificate: " + cause;
}

std::string describe_error(const boost::system::error_code& ec) {
  if (ec == asio::error::connection_refused) return "connect: connection refused";
  if (ec == asio::error::connection_reset) return "read: connection reset by peer";
  if (ec == asio::error::broken_pipe) return "write: broken pipe";
  if (ec == http::error::end_of_stream || ec == asio::error::eof ||
      ec == asio::ssl::error::stream_truncated)
    return "EOF";
  if (ec.category() == asio::error::get_ssl_category()) {
    char buf[256];
    ERR_error_string_n(static_cast<unsigned long>(ec.value()), buf, sizeof buf);
    return std::string("tls: ") + ec.message() + " (" + buf + ")";
  }
  return ascii_lower(ec.message());
}

// A keep-alive connection. Connecting and the TLS handshake run as Asio
// operations on its own io_context, with the deadline; requests and responses
// then block on the socket (see BlockingSocket), and a watch is cancelled from
// another thread by shutting the socket down.
struct Connection {
  asio::io_context ioc;
  tcp::socket socket{ioc};
  BlockingSocket plain{socket};                 // under `tls` too: its deadline is the connection's
  std::shared_ptr<asio::ssl::context> context;  // the TLS settings it was made with
  std::unique_ptr<asio::ssl::stream<BlockingSocket&>> tls;
  beast::flat_buffer buffer;
  VerifyFailure verify;
  std::atomic<bool> cancelled{false};

  void close() {
    boost::system::error_code ignored;
    socket.close(ignored);
  }
  // Whether an idle connection was closed (or written to) by the server.
  bool looks_stale() {
    if (!socket.is_open()) return true;
    pollfd p{socket.native_handle(), POLLIN, 0};
    return ::poll(&p, 1, 0) != 0;
  }
};

// Runs the operation `start` initiates until it completes or the deadline
// passes (then the socket is closed and the result is timed_out).
template <class Start>
boost::system::error_code run(Connection& c, const Deadline& deadline, Start&& start) {
  boost::system::error_code result;
  bool done = false;
  start([&](boost::system::error_code ec, auto&&...) {
    result = ec;
    done = true;
  });
  c.ioc.restart();
  if (deadline) {
    c.ioc.run_until(*deadline);
    if (!done) {
      c.close();
      c.ioc.restart();
      c.ioc.run();
      return asio::error::timed_out;
    }
  } else {
    c.ioc.run();
  }
  if (!done) return asio::error::operation_aborted;
  return result;
}

template <class F>
auto with_stream(Connection& c, F&& f) {
  if (c.tls) return f(*c.tls);
  return f(c.plain);
}

class StreamImpl;

class TransportImpl final : public Transport {
 public:
  TransportImpl(ParsedHost host, const RestConfig& config, TransportOptions options)
      : host_(std::move(host)), options_(std::move(options)) {
    const bool default_port = (host_.scheme == "https" && host_.port == "443") ||
                              (host_.scheme == "http" && host_.port == "80");
    const std::string bracketed =
        host_.host.find(':') != std::string::npos ? "[" + host_.host + "]" : host_.host;
    host_header_ = default_port ? bracketed : bracketed + ":" + host_.port;
    base_url_ = host_.scheme + "://" + bracketed + ":" + host_.port;
    server_name_ = config.tls_server_name.empty() ? host_.host : config.tls_server_name;
    server_name_is_ip_ = is_ip_address(server_name_);
    insecure_ = config.insecure_skip_tls_verify;
    timeout_ = config.timeout;
    user_agent_ = config.user_agent.empty() ? default_user_agent() : config.user_agent;
  }

  Result<void> init_tls(const RestConfig& config) {
    if (host_.scheme != "https") return {};
    auto ctx = make_context(config, config.client_cert_pem, config.client_key_pem);
    if (!ctx) return fail(ctx.error());
    ca_pem_ = config.ca_pem;
    ctx_ = std::move(*ctx);
    return {};
  }

  Result<std::shared_ptr<asio::ssl::context>> make_context(const RestConfig& config,
                                                           const std::string& cert_pem,
                                                           const std::string& key_pem) const {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
    // The TLS 1.3 suites in client-go's order (Go's crypto/tls).
    if (!tls::offer_tls13_suites_as_go_client(ctx->native_handle())) {
      return fail("unable to set the TLS 1.3 cipher suites");
    }
    boost::system::error_code ec;
    if (insecure_) {
      ctx->set_verify_mode(asio::ssl::verify_none);
    } else {
      ctx->set_verify_mode(asio::ssl::verify_peer);
      if (!config.ca_pem.empty()) {
        ctx->add_certificate_authority(asio::buffer(config.ca_pem), ec);
        if (ec) return fail("unable to load root certificates: " + describe_error(ec));
      } else {
        ctx->set_default_verify_paths(ec);
        if (ec) return fail("unable to load system root certificates: " + describe_error(ec));
      }
    }
    if (!cert_pem.empty() || !key_pem.empty()) {
      if (cert_pem.empty() || key_pem.empty()) {
        return fail("tls: client certificate and key must both be set");
      }
      ctx->use_certificate_chain(asio::buffer(cert_pem), ec);
      if (ec) return fail("tls: failed to load client certificate: " + describe_error(ec));
      ctx->use_private_key(asio::buffer(key_pem), asio::ssl::context::pem, ec);
      if (ec) return fail("tls: failed to load client key: " + describe_error(ec));
      if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
        ERR_clear_error();
        return fail("tls: private key does not match public key");
      }
    }
    return ctx;
  }

  // The TLS context for these credentials: the config's, or one for the
  // client certificate an exec plugin returned (cached while it stays the same).
  Result<std::shared_ptr<asio::ssl::context>> context_for(const Credentials& creds) {
    if (!ctx_ || creds.client_cert_pem.empty()) return ctx_;
    std::lock_guard lock(mu_);
    if (exec_ctx_ && exec_cert_ == creds.client_cert_pem) return exec_ctx_;
    RestConfig config;
    config.ca_pem = ca_pem_;
    auto ctx = make_context(config, creds.client_cert_pem, creds.client_key_pem);
    if (!ctx) return fail(ctx.error());
    exec_cert_ = creds.client_cert_pem;
    exec_ctx_ = *ctx;
    return exec_ctx_;
  }

  Result<HttpResponse> round_trip(const HttpRequest& request) override {
    auto creds = credentials();
    if (!creds) return fail(error_prefix(request) + creds.error());
    auto response = round_trip_once(request, *creds);
    if (response && response->status == 401 && options_.token_source &&
        (!creds->authorization.empty() || !creds->client_cert_pem.empty())) {
      // The credential may have rotated or expired: fetch a fresh one, once.
      options_.token_source->invalidate(*creds);
      auto fresh = credentials();
      if (fresh && fresh->generation != creds->generation) return round_trip_once(request, *fresh);
    }
    return response;
  }

  Result<std::unique_ptr<ResponseStream>> stream(const HttpRequest& request) override;

  const std::string& base_url() const override { return base_url_; }
  const std::string& path_prefix() const override { return host_.path_prefix; }
  std::size_t idle_connections() const override {
    std::lock_guard lock(mu_);
    return idle_.size();
  }
  std::size_t connections_opened() const override { return opened_.load(); }

  // Go's url.Error prefix: `Get "https://host/path": `.
  std::string error_prefix(const HttpRequest& request) const {
    std::string op = ascii_lower(request.method);
    if (!op.empty()) op[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(op[0])));
    return op + " \"" + base_url_ + request.target + "\": ";
  }

  Deadline deadline_for(const HttpRequest& request) const {
    const auto t = request.timeout.count() > 0 ? request.timeout : timeout_;
    if (t.count() <= 0) return std::nullopt;
    return SteadyClock::now() + t;
  }

  Result<Credentials> credentials() {
    // Credentials are only sent over TLS.
    if (host_.scheme != "https" || !options_.token_source) return Credentials{};
    return options_.token_source->credentials();
  }

  http::request<http::string_body> build(const HttpRequest& request, const std::string& auth,
                                         bool* gzip_added) const {
    http::request<http::string_body> req;
    req.version(11);
    req.method_string(request.method);
    req.target(request.target);
    req.set(http::field::host, host_header_);
    req.set(http::field::user_agent, user_agent_);
    bool has_encoding = false;
    for (const auto& [name, value] : request.headers) {
      if (iequals(name, "Accept-Encoding")) has_encoding = true;
      req.set(name, value);
    }
    *gzip_added = !options_.disable_compression && !has_encoding && request.method != "HEAD";
    if (*gzip_added) req.set(http::field::accept_encoding, "gzip");
    if (!auth.empty()) req.set(http::field::authorization, auth);
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
        request.method == "PATCH") {
      req.body() = request.body;
      req.prepare_payload();
    }
    return req;
  }

  // A pooled connection that still looks alive, or nullptr.
  std::unique_ptr<Connection> take_idle(const std::shared_ptr<asio::ssl::context>& ctx) {
    std::lock_guard lock(mu_);
    for (auto it = idle_.rbegin(); it != idle_.rend();) {
      if ((*it)->context != ctx) {
        ++it;
        continue;
      }
      auto c = std::move(*it);
      idle_.erase(std::next(it).base());
      if (!c->looks_stale()) return c;
      it = idle_.rbegin();
    }
    return nullptr;
  }

  void give_back(std::unique_ptr<Connection> c) {
    c->buffer.clear();
    std::lock_guard lock(mu_);
    if (idle_.size() < options_.max_idle_connections) idle_.push_back(std::move(c));
  }

  Result<std::unique_ptr<Connection>> dial(const Deadline& deadline,
                                           const std::shared_ptr<asio::ssl::context>& ctx) {
    auto c = std::make_unique<Connection>();
    c->context = ctx;
    tcp::resolver resolver(c->ioc);
    tcp::resolver::results_type endpoints;
    auto ec = run(*c, deadline, [&](auto handler) {
      resolver.async_resolve(host_.host, host_.port,
                             [&endpoints, handler](boost::system::error_code e,
                                                   tcp::resolver::results_type r) mutable {
                               endpoints = std::move(r);
                               handler(e);
                             });
    });
    if (ec) return fail("dial tcp: lookup " + host_.host + ": " + describe_error(ec));
    ec = run(*c, deadline,
             [&](auto handler) { asio::async_connect(c->socket, endpoints, handler); });
    if (ec) {
      return fail("dial tcp " + host_header_with_port() + ": " + describe_error(ec));
    }
    boost::system::error_code ignored;
    c->socket.set_option(tcp::no_delay(true), ignored);
    ++opened_;
    if (!ctx) return blocking(std::move(c));
    c->tls = std::make_unique<asio::ssl::stream<BlockingSocket&>>(c->plain, *ctx);
    SSL* ssl = c->tls->native_handle();
    if (!server_name_is_ip_) SSL_set_tlsext_host_name(ssl, server_name_.c_str());
    if (!insecure_) {
      X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
      X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
      if (server_name_is_ip_) {
        X509_VERIFY_PARAM_set1_ip_asc(param, server_name_.c_str());
      } else {
        X509_VERIFY_PARAM_set1_host(param, server_name_.c_str(), 0);
      }
      VerifyFailure* failure = &c->verify;
      c->tls->set_verify_callback([failure](bool preverified, asio::ssl::verify_context& vc) {
        if (!preverified && failure->error == X509_V_OK) {
          X509_STORE_CTX* store = vc.native_handle();
          failure->error = X509_STORE_CTX_get_error(store);
          if (X509* cert = X509_STORE_CTX_get_current_cert(store)) collect_names(cert, failure);
        }
        return preverified;
      });
    }
    ec = run(*c, deadline, [&](auto handler) {
      c->tls->async_handshake(asio::ssl::stream_base::client, handler);
    });
    if (ec) {
      if (c->verify.error != X509_V_OK) {
        return fail(describe_verify_failure(c->verify, server_name_, server_name_is_ip_));
      }
      return fail("remote error: " + describe_error(ec));
    }
    return blocking(std::move(c));
  }

  // The connection, switched to blocking reads and writes for its requests.
  static Result<std::unique_ptr<Connection>> blocking(std::unique_ptr<Connection> c) {
    if (auto ec = c->plain.make_blocking()) return fail("set blocking: " + describe_error(ec));
    return c;
  }

  std::string host_header_with_port() const {
    return (host_.host.find(':') != std::string::npos ? "[" + host_.host + "]" : host_.host) + ":" +
           host_.port;
  }

  Result<HttpResponse> round_trip_once(const HttpRequest& request, const Credentials& creds) {
    const Deadline deadline = deadline_for(request);
    auto ctx = context_for(creds);
    if (!ctx) return fail(error_prefix(request) + ctx.error());
    bool gzip_added = false;
    auto req = build(request, creds.authorization, &gzip_added);
    for (int attempt = 0;; ++attempt) {
      auto c = attempt == 0 ? take_idle(*ctx) : nullptr;
      const bool reused = c != nullptr;
      if (!c) {
        auto fresh = dial(deadline, *ctx);
        if (!fresh) return fail(error_prefix(request) + fresh.error());
        c = std::move(*fresh);
      }
      c->plain.set_deadline(deadline);
      boost::system::error_code ec;
      with_stream(*c, [&](auto& s) { http::write(s, req, ec); });
      const bool write_failed = static_cast<bool>(ec);
      http::response_parser<http::string_body> parser;
      parser.body_limit(boost::none);
      parser.header_limit(1 << 20);
      if (request.method == "HEAD") parser.skip(true);
      if (!ec) with_stream(*c, [&](auto& s) { http::read(s, c->buffer, parser, ec); });
      if (ec) {
        const bool nothing_received = write_failed || !parser.got_some();
        if (reused && nothing_received && idempotent(request.method) &&
            ec != asio::error::timed_out) {
          continue;  // the server closed the idle connection: once more on a fresh one
        }
        if (ec == asio::error::timed_out) {
          return fail(error_prefix(request) +
                      (parser.is_header_done()
                           ? "context deadline exceeded (Client.Timeout or context cancellation "
                             "while reading body)"
                           : "context deadline exceeded (Client.Timeout exceeded while awaiting "
                             "headers)"));
        }
        return fail(error_prefix(request) + describe_error(ec));
      }
      auto message = parser.release();
      HttpResponse response;
      response.status = static_cast<int>(message.result_int());
      bool gzipped = false;
      for (const auto& field : message) {
        std::string name(field.name_string());
        if (gzip_added && iequals(name, "Content-Encoding") &&
            iequals(std::string(field.value()), "gzip")) {
          gzipped = true;
          continue;
        }
        if (gzipped && iequals(name, "Content-Length")) continue;
        response.headers.emplace_back(std::move(name), std::string(field.value()));
      }
      if (gzipped && !message.body().empty()) {
        Inflater inflater;
        auto body = inflater.inflate(message.body());
        if (!body) return fail(error_prefix(request) + body.error());
        response.body = std::move(*body);
      } else {
        response.body = std::move(message.body());
      }
      if (message.keep_alive()) give_back(std::move(c));
      return response;
    }
  }

 private:
  friend class StreamImpl;
  ParsedHost host_;
  TransportOptions options_;
  std::string host_header_;
  std::string base_url_;
  std::string server_name_;
  bool server_name_is_ip_ = false;
  bool insecure_ = false;
  std::chrono::milliseconds timeout_{0};
  std::string user_agent_;
  std::shared_ptr<asio::ssl::context> ctx_;
  std::string ca_pem_;
  std::string exec_cert_;
  std::shared_ptr<asio::ssl::context> exec_ctx_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::atomic<std::size_t> opened_{0};
};

class StreamImpl final : public ResponseStream {
 public:
  StreamImpl(std::unique_ptr<Connection> c, bool gzipped, int status, Headers headers,
             std::unique_ptr<http::response_parser<http::buffer_body>> parser)
      : c_(std::move(c)),
        parser_(std::move(parser)),
        status_(status),
        headers_(std::move(headers)) {
    if (gzipped) inflater_ = std::make_unique<Inflater>();
  }
  ~StreamImpl() override { c_->close(); }

  int status() const override { return status_; }
  const Headers& headers() const override { return headers_; }
  bool cancelled() const override { return c_->cancelled.load(); }

  void cancel() override {
    if (c_->cancelled.exchange(true)) return;
    // Ends a read blocked in the kernel; the socket is closed with the stream.
    ::shutdown(c_->socket.native_handle(), SHUT_RDWR);
  }

  Result<std::optional<std::string>> read() override {
    char chunk[16384];
    while (true) {
      if (c_->cancelled.load()) return fail("the watch was stopped");
      if (parser_->is_done()) return std::optional<std::string>();
      parser_->get().body().data = chunk;
      parser_->get().body().size = sizeof chunk;
      boost::system::error_code ec;
      with_stream(*c_, [&](auto& s) { http::read_some(s, c_->buffer, *parser_, ec); });
      if (ec == http::error::need_buffer) ec = {};
      if (c_->cancelled.load()) return fail("the watch was stopped");
      if (ec) return fail(describe_error(ec));
      const std::size_t n = sizeof chunk - parser_->get().body().size;
      if (n == 0) continue;
      if (!inflater_) return std::optional<std::string>(std::string(chunk, n));
      auto out = inflater_->inflate(std::string_view(chunk, n));
      if (!out) return fail(out.error());
      if (!out->empty()) return std::optional<std::string>(std::move(*out));
    }
  }

 private:
  std::unique_ptr<Connection> c_;
  std::unique_ptr<http::response_parser<http::buffer_body>> parser_;
  std::unique_ptr<Inflater> inflater_;
  int status_;
  Headers headers_;
};

Result<std::unique_ptr<ResponseStream>> TransportImpl::stream(const HttpRequest& request) {
  auto creds = credentials();
  if (!creds) return fail(error_prefix(request) + creds.error());
  auto ctx = context_for(*creds);
  if (!ctx) return fail(error_prefix(request) + ctx.error());
  bool gzip_added = false;
  auto req = build(request, creds->authorization, &gzip_added);
  const Deadline deadline = deadline_for(request);
  // Long-lived streams always get a fresh connection: a stale pooled one
  // would only fail later, and this one is never returned to the pool.
  auto dialed = dial(deadline, *ctx);
  if (!dialed) return fail(error_prefix(request) + dialed.error());
  auto c = std::move(*dialed);
  c->plain.set_deadline(deadline);
  boost::system::error_code ec;
  with_stream(*c, [&](auto& s) { http::write(s, req, ec); });
  auto parser = std::make_unique<http::response_parser<http::buffer_body>>();
  parser->body_limit(boost::none);
  parser->header_limit(1 << 20);
  if (!ec) with_stream(*c, [&](auto& s) { http::read_header(s, c->buffer, *parser, ec); });
  c->plain.set_deadline(std::nullopt);  // the body is read for as long as the stream lives
  if (ec == asio::error::timed_out) {
    return fail(error_prefix(request) +
                "context deadline exceeded (Client.Timeout exceeded while awaiting headers)");
  }
  if (ec) return fail(error_prefix(request) + describe_error(ec));
  const auto& message = parser->get();
  Headers headers;
  bool gzipped = false;
  for (const auto& field : message) {
    std::string name(field.name_string());
    if (gzip_added && iequals(name, "Content-Encoding") &&
        iequals(std::string(field.value()), "gzip")) {
      gzipped = true;
      continue;
    }
    headers.emplace_back(std::move(name), std::string(field.value()));
  }
  const int status = static_cast<int>(message.result_int());
  return std::unique_ptr<ResponseStream>(std::make_unique<StreamImpl>(
      std::move(c), gzipped, status, std::move(headers), std::move(parser)));
}

}  // namespace

std::optional<std::string> find_header(const Headers& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return v;
  }
  return std::nullopt;
}

Result<ParsedHost> parse_host(std::string_view text) {
  ParsedHost out;
  std::string_view rest = text;
  if (const auto p = rest.find("://"); p != std::string_view::npos) {
    out.scheme = ascii_lower(rest.substr(0, p));
    rest.remove_prefix(p + 3);
  } else {
    out.scheme = "https";
  }
  if (out.scheme != "https" && out.scheme != "http") {
    return fail("host \"" + std::string(text) + "\": unsupported scheme \"" + out.scheme +
                "\" (want https or http)");
  }
  std::string_view authority = rest.substr(0, rest.find('/'));
  if (authority.size() < rest.size()) {
    std::string prefix(rest.substr(authority.size()));
    while (prefix.size() > 1 && prefix.back() == '/')
      prefix.pop_back();
    out.path_prefix = prefix == "/" ? "" : prefix;
  }
  if (authority.empty()) return fail("host \"" + std::string(text) + "\": no host name");
  if (authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) {
      return fail("host \"" + std::string(text) + "\": missing ']' in address");
    }
    out.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (!authority.empty()) {
      if (authority.front() != ':') {
        return fail("host \"" + std::string(text) + "\": unexpected text after ']'");
      }
      out.port = std::string(authority.substr(1));
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    out.host = std::string(authority.substr(0, colon));
    out.port = std::string(authority.substr(colon + 1));
    if (out.port.empty()) return fail("host \"" + std::string(text) + "\": empty port");
  } else {
    out.host = std::string(authority);
  }
  if (out.host.empty()) return fail("host \"" + std::string(text) + "\": no host name");
  if (out.port.empty()) out.port = out.scheme == "https" ? "443" : "80";
  if (out.port.find_first_not_of("0123456789") != std::string::npos || out.port.size() > 5 ||
      std::stoul(out.port) > 65535) {
    return fail("host \"" + std::string(text) + "\": invalid port \"" + out.port + "\"");
  }
  return out;
}

Result<std::shared_ptr<Transport>> Transport::create(const RestConfig& config,
                                                     TransportOptions options) {
  auto host = parse_host(config.host);
  if (!host) return fail(host.error());
  auto transport = std::make_shared<TransportImpl>(std::move(*host), config, std::move(options));
  if (auto tls = transport->init_tls(config); !tls) return fail(tls.error());
  return std::shared_ptr<Transport>(std::move(transport));
}

}  // namespace kcm::client
