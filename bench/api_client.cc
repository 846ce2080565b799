#include "bench/api_client.h"

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <chrono>
#include <future>
#include <optional>

namespace kcm::bench {

namespace json = boost::json;

namespace {

// Keeps the io_context's run() going while the client exists.
struct WorkGuard {
  net::executor_work_guard<net::io_context::executor_type> guard;
};

}  // namespace

ApiClient::ApiClient(std::shared_ptr<net::ssl::context> tls, ServerEndpoint endpoint,
                     int connections)
    : tls_(std::move(tls)), endpoint_(std::move(endpoint)) {
  single_ = std::make_unique<HttpsConnection>(make_strand(), tls_, endpoint_);
  for (int i = 0; i < connections; ++i)
    pool_.push_back(std::make_unique<HttpsConnection>(make_strand(), tls_, endpoint_));
  thread_ = std::thread([this] {
    WorkGuard work{net::make_work_guard(ioc_)};
    ioc_.run();
  });
}

ApiClient::~ApiClient() {
  // Close every connection on its own strand, then let run() return.
  std::vector<std::future<void>> closed;
  auto close_on_strand = [&](HttpsConnection* c) {
    closed.push_back(net::post(c->executor(), net::use_future([c] { c->close(); })));
  };
  close_on_strand(single_.get());
  for (auto& c : pool_)
    close_on_strand(c.get());
  for (auto& f : closed)
    f.wait();
  ioc_.stop();
  thread_.join();
}

net::any_io_executor ApiClient::make_strand() {
  return net::make_strand(ioc_);
}

Result<HttpResponse> ApiClient::request(const ApiRequest& req) {
  std::lock_guard lock(single_mu_);
  // The answer is handed back through `out`: use_future needs a default
  // constructible value, which Result is not.
  std::optional<Result<HttpResponse>> out;
  auto exchange = [](HttpsConnection* conn, const ApiRequest* r,
                     std::optional<Result<HttpResponse>>* o) -> net::awaitable<void> {
    o->emplace(co_await conn->request(r->verb, r->target, r->body, r->content_type));
  };
  // A kept-alive connection the server has closed meanwhile fails the next
  // exchange; a GET is then sent once more on a new connection (as Go's
  // transport retries idempotent requests).
  for (int attempt = 0; attempt < 2; ++attempt) {
    out.reset();
    try {
      net::co_spawn(single_->executor(), exchange(single_.get(), &req, &out), net::use_future)
          .get();
    } catch (const std::exception& e) {
      return fail(std::string("request failed: ") + e.what());
    }
    if (!out) return fail("request did not complete");
    if (out->ok() || req.verb != http::verb::get) break;
  }
  return std::move(*out);
}

Result<json::object> ApiClient::get_object(const std::string& target) {
  auto res = request(ApiRequest{.target = target});
  if (!res) return fail("GET " + target + ": " + res.error());
  if (res->status != 200) {
    return fail("GET " + target + ": HTTP " + std::to_string(res->status) + " " +
                res->body.substr(0, 300));
  }
  boost::system::error_code ec;
  json::value v = json::parse(res->body, ec);
  if (ec || !v.is_object()) return fail("GET " + target + ": not a JSON object");
  return std::move(v.get_object());
}

BatchOutcome ApiClient::run_batch(const std::vector<ApiRequest>& requests) {
  std::lock_guard lock(batch_mu_);
  struct Shared {
    const std::vector<ApiRequest>* requests;
    std::atomic<std::size_t> next{0};
    std::mutex mu;
    std::size_t errors = 0;
    std::string first_error;
  } shared;
  shared.requests = &requests;
  auto worker = [](HttpsConnection* conn, Shared* s) -> net::awaitable<void> {
    for (;;) {
      const std::size_t i = s->next.fetch_add(1);
      if (i >= s->requests->size()) co_return;
      const ApiRequest& r = (*s->requests)[i];
      auto res = co_await conn->request(r.verb, r.target, r.body, r.content_type);
      if (!res || res->status != r.expect) {
        std::lock_guard lock(s->mu);
        if (s->errors++ == 0) {
          s->first_error =
              std::string(http::to_string(r.verb)) + " " + r.target + ": " +
              (!res ? res.error()
                    : "HTTP " + std::to_string(res->status) + " " + res->body.substr(0, 300));
        }
      }
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::future<void>> done;
  for (auto& c : pool_)
    done.push_back(net::co_spawn(c->executor(), worker(c.get(), &shared), net::use_future));
  for (auto& f : done) {
    try {
      f.get();
    } catch (const std::exception& e) {
      std::lock_guard lock(shared.mu);
      if (shared.errors++ == 0) shared.first_error = e.what();
    }
  }
  BatchOutcome out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.requests = requests.size();
  out.errors = shared.errors;
  out.first_error = std::move(shared.first_error);
  return out;
}

Result<std::uint64_t> list_revision(ApiClient& api, const std::string& collection) {
  auto list = api.get_object(collection + (collection.find('?') == std::string::npos ? "?" : "&") +
                             "limit=1");
  if (!list) return fail(list.error());
  const json::object* meta =
      list->if_contains("metadata") != nullptr ? list->at("metadata").if_object() : nullptr;
  const json::value* rv = meta != nullptr ? meta->if_contains("resourceVersion") : nullptr;
  if (rv == nullptr || !rv->is_string())
    return fail(collection + ": the list has no resourceVersion");
  try {
    return static_cast<std::uint64_t>(std::stoull(std::string(rv->get_string())));
  } catch (const std::exception&) {
    return fail(collection + ": resourceVersion is not a number: " + std::string(rv->get_string()));
  }
}

}  // namespace kcm::bench
