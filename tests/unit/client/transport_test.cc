// The transport and REST client against a scripted plain-HTTP server on loopback.
#include "client/transport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "client/resource_client.h"
#include "client/rest_client.h"

namespace kcm::client {
namespace {

struct Reply {
  std::string raw;     // the whole HTTP response; empty: close without answering
  bool close = false;  // close the connection after writing
  bool hold = false;   // keep the connection open without closing (streams)
};

// Answers each request with handler(request line, request number).
class ScriptedServer {
 public:
  using Handler = std::function<Reply(const std::string& head, int n)>;
  explicit ScriptedServer(Handler handler) : handler_(std::move(handler)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd_, 16);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~ScriptedServer() {
    stopping_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    acceptor_.join();
    std::lock_guard lock(mu_);
    for (int c : open_)
      ::shutdown(c, SHUT_RDWR);
    for (auto& t : workers_)
      t.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int connections() const { return connections_.load(); }
  int requests() const { return requests_.load(); }

 private:
  void accept_loop() {
    while (!stopping_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      ++connections_;
      std::lock_guard lock(mu_);
      open_.push_back(c);
      workers_.emplace_back([this, c] { serve(c); });
    }
  }
  void serve(int c) {
    std::string in;
    char buf[4096];
    while (true) {
      const auto end = in.find("\r\n\r\n");
      if (end == std::string::npos) {
        const auto n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        in.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      std::string head = in.substr(0, end);
      std::size_t length = 0;
      if (auto p = head.find("Content-Length: "); p != std::string::npos) {
        length = std::stoul(head.substr(p + 16));
      }
      while (in.size() < end + 4 + length) {
        const auto n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        in.append(buf, static_cast<std::size_t>(n));
      }
      in.erase(0, end + 4 + length);
      const Reply r = handler_(head, ++requests_);
      if (r.raw.empty()) break;
      ::send(c, r.raw.data(), r.raw.size(), MSG_NOSIGNAL);
      if (r.hold) {
        while (::recv(c, buf, sizeof buf, 0) > 0) {
        }
        break;
      }
      if (r.close) break;
    }
    ::shutdown(c, SHUT_RDWR);
  }

  Handler handler_;
  int fd_ = -1;
  unsigned short port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::atomic<int> requests_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<int> open_;
  std::vector<std::thread> workers_;
};

std::string ok(const std::string& body, const std::string& extra = "") {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body;
}

std::string gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(compressBound(text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::shared_ptr<Transport> transport_for(const ScriptedServer& server,
                                         std::chrono::milliseconds timeout = {}) {
  RestConfig config;
  config.host = server.url();
  config.user_agent = "kcm-test";
  config.timeout = timeout;
  auto t = Transport::create(config);
  EXPECT_TRUE(t.ok()) << t.error();
  return *t;
}

TEST(TransportTest, ReusesKeepAliveConnections) {
  std::string seen_head;
  ScriptedServer server([&](const std::string& head, int) {
    seen_head = head;
    return Reply{ok("{}")};
  });
  auto t = transport_for(server);
  for (int i = 0; i < 3; ++i) {
    auto r = t->round_trip({"GET", "/api/v1/nodes", {}, "", {}});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "{}");
  }
  EXPECT_EQ(server.connections(), 1);
  EXPECT_EQ(t->connections_opened(), 1u);
  EXPECT_EQ(t->idle_connections(), 1u);
  EXPECT_NE(seen_head.find("User-Agent: kcm-test"), std::string::npos) << seen_head;
  EXPECT_NE(seen_head.find("Accept-Encoding: gzip"), std::string::npos) << seen_head;
  EXPECT_NE(seen_head.find("Host: 127.0.0.1:"), std::string::npos) << seen_head;
}

TEST(TransportTest, GunzipsBodies) {
  const std::string body = R"({"kind":"NodeList","items":[)" + std::string(10000, ' ') + "]}";
  ScriptedServer server(
      [&](const std::string&, int) { return Reply{ok(gzip(body), "Content-Encoding: gzip\r\n")}; });
  auto r = transport_for(server)->round_trip({"GET", "/api/v1/nodes", {}, "", {}});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->body, body);
  EXPECT_FALSE(find_header(r->headers, "Content-Encoding").has_value());
}

TEST(TransportTest, RetriesABrokenPooledConnectionForIdempotentRequestsOnly) {
  // The second request on the first connection finds it closed by the server.
  ScriptedServer server([&](const std::string&, int n) {
    if (n == 2 || n == 5) return Reply{};
    return Reply{ok("{\"n\":" + std::to_string(n) + "}")};
  });
  auto t = transport_for(server);
  ASSERT_TRUE(t->round_trip({"GET", "/a", {}, "", {}}).ok());
  auto again = t->round_trip({"GET", "/a", {}, "", {}});
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->body, "{\"n\":3}");
  EXPECT_EQ(server.connections(), 2);

  ASSERT_TRUE(t->round_trip({"GET", "/a", {}, "", {}}).ok());  // n=4, pooled again
  auto post = t->round_trip({"POST", "/a", {}, "{}", {}});     // n=5 dropped: not retried
  ASSERT_FALSE(post.ok());
  EXPECT_EQ(post.error(), "Post \"" + server.url() + "/a\": EOF");
}

TEST(TransportTest, TimesOutWaitingForHeaders) {
  ScriptedServer server([&](const std::string&, int) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    return Reply{ok("{}")};
  });
  auto t = transport_for(server, std::chrono::milliseconds(150));
  const auto start = std::chrono::steady_clock::now();
  auto r = t->round_trip({"GET", "/slow", {}, "", {}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "Get \"" + server.url() +
                           "/slow\": context deadline exceeded (Client.Timeout exceeded while "
                           "awaiting headers)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

TEST(TransportTest, ConnectionRefused) {
  RestConfig config;
  {
    ScriptedServer server([](const std::string&, int) { return Reply{}; });
    config.host = server.url();
  }
  auto t = Transport::create(config);
  ASSERT_TRUE(t.ok());
  auto r = (*t)->round_trip({"GET", "/x", {}, "", {}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "Get \"" + config.host + "/x\": dial tcp " + config.host.substr(7) +
                           ": connect: connection refused");
}

TEST(TransportTest, StreamsAndCancelsFromAnotherThread) {
  ScriptedServer server([&](const std::string&, int) {
    Reply r;
    r.raw =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        "5\r\nhello\r\n";
    r.hold = true;
    return r;
  });
  auto s = transport_for(server)->stream({"GET", "/watch", {}, "", {}});
  ASSERT_TRUE(s.ok()) << s.error();
  auto& stream = *s;
  EXPECT_EQ(stream->status(), 200);
  auto first = stream->read();
  ASSERT_TRUE(first.ok()) << first.error();
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ(**first, "hello");
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stream->cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  auto blocked = stream->read();
  stopper.join();
  EXPECT_FALSE(blocked.ok());
  EXPECT_TRUE(stream->cancelled());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(RestClientTest, RetriesTooManyRequestsWithRetryAfter) {
  ScriptedServer server([&](const std::string&, int n) {
    if (n == 1) {
      return Reply{"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n"};
    }
    return Reply{ok(R"({"kind":"Node","metadata":{"name":"n1"}})")};
  });
  ResourceClient nodes(std::make_shared<RestClient>(transport_for(server), RestClientOptions{}),
                       {"", "v1", "nodes"});
  auto got = nodes.get("n1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(server.requests(), 2);
}

TEST(RestClientTest, DoesNotRetryWithoutRetryAfterAndDecodesStatus) {
  ScriptedServer server([&](const std::string&, int) {
    return Reply{
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: "
        "4\r\nWarning: 299 - \"careful\"\r\n\r\noops"};
  });
  std::vector<std::string> warnings;
  RestClientOptions options;
  options.warning_handler = [&](const std::string& w) { warnings.push_back(w); };
  ResourceClient pods(std::make_shared<RestClient>(transport_for(server), options),
                      {"", "v1", "pods"}, "default");
  auto got = pods.get("p");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, 500);
  EXPECT_EQ(got.error().message,
            "an error on the server (\"oops\") has prevented the request from succeeding (get "
            "pods p)");
  EXPECT_EQ(server.requests(), 1);
  EXPECT_EQ(warnings, std::vector<std::string>{"careful"});
}

TEST(RestClientTest, ListAllFollowsContinue) {
  ScriptedServer server([&](const std::string& head, int) {
    if (head.find("continue=page2") != std::string::npos) {
      EXPECT_EQ(head.find("resourceVersion="), std::string::npos) << head;
      return Reply{ok(R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},)"
                      R"("items":[{"metadata":{"name":"c"}}]})")};
    }
    return Reply{ok(R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7",)"
                    R"("continue":"page2"},"items":[{"metadata":{"name":"a"}},)"
                    R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}}]})")};
  });
  ResourceClient pods(std::make_shared<RestClient>(transport_for(server), RestClientOptions{}),
                      {"", "v1", "pods"});
  ListOptions options;
  options.limit = 2;
  options.resource_version = "0";
  auto all = pods.list_all(options);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->resource_version, "7");
  ASSERT_EQ(all->items.size(), 3u);
  EXPECT_EQ(api::to_json_string(all->items[0]),
            R"({"metadata":{"name":"a"},"kind":"Pod","apiVersion":"v1"})");
  EXPECT_EQ(api::as_string_view(api::find_path(all->items[2], {"metadata", "name"})), "c");
}

TEST(RestClientTest, WatchDecodingErrorIsAnInternalErrorStatus) {
  ScriptedServer server([&](const std::string&, int) {
    const std::string body = R"({"type":"ADDED","object":{"kind":"Pod"}})"
                             "\n"
                             R"({"type":"NOPE","object":{"kind":"Pod"}})"
                             "\n";
    return Reply{ok(body), true};
  });
  ResourceClient pods(std::make_shared<RestClient>(transport_for(server), RestClientOptions{}),
                      {"", "v1", "pods"});
  auto w = pods.watch({});
  ASSERT_TRUE(w.ok()) << w.error().message;
  auto first = (*w)->next();
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->type, WatchEventType::kAdded);
  auto second = (*w)->next();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, 500);
  EXPECT_EQ(second.error().reason, "InternalError");
  EXPECT_EQ(second.error().message,
            "an error on the server (\"unable to decode an event from the watch stream: got "
            "invalid watch event type: NOPE\") has prevented the request from succeeding");
  auto third = (*w)->next();
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->has_value());
}

}  // namespace
}  // namespace kcm::client
