// A blocking front for HttpsConnection: a background thread runs the I/O,
// the benchmark's main thread sends single requests or whole batches spread
// over a pool of keep-alive connections, and waits for the answers.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/result.h"
#include "bench/https_client.h"

namespace kcm::bench {

struct ApiRequest {
  http::verb verb = http::verb::get;
  std::string target;
  std::string body;
  std::string content_type = "application/json";
  unsigned expect = 200;  // the status that counts as success in a batch
};

struct BatchOutcome {
  std::size_t requests = 0;
  std::size_t errors = 0;  // transport failures and unexpected statuses
  std::string first_error;
  double seconds = 0;  // wall time of the whole batch
};

class ApiClient {
 public:
  // `connections`: the pool run_batch() spreads requests over (request()
  // has a connection of its own).
  ApiClient(std::shared_ptr<net::ssl::context> tls, ServerEndpoint endpoint, int connections = 1);
  ~ApiClient();  // closes the connections and joins the I/O thread
  ApiClient(const ApiClient&) = delete;
  ApiClient& operator=(const ApiClient&) = delete;

  // One exchange; any status is a value. Callable from any thread but one
  // at a time (calls are serialized).
  Result<HttpResponse> request(const ApiRequest& req);

  // GET `target`, expecting 200 and a JSON object.
  Result<boost::json::object> get_object(const std::string& target);

  // Sends every request, each pooled connection taking the next one as soon
  // as it is free; returns when all have been answered.
  BatchOutcome run_batch(const std::vector<ApiRequest>& requests);

  // For further connections of the caller's on the same I/O thread (watches).
  net::any_io_executor make_strand();
  const std::shared_ptr<net::ssl::context>& tls() const { return tls_; }
  const ServerEndpoint& endpoint() const { return endpoint_; }

 private:
  net::io_context ioc_;
  std::shared_ptr<net::ssl::context> tls_;
  ServerEndpoint endpoint_;
  std::unique_ptr<HttpsConnection> single_;
  std::vector<std::unique_ptr<HttpsConnection>> pool_;
  std::mutex single_mu_;
  std::mutex batch_mu_;
  std::thread thread_;
};

// The metadata.resourceVersion of a list as a number: on kcm-local, the
// store's newest revision, i.e. how many writes it has committed.
Result<std::uint64_t> list_revision(ApiClient& api, const std::string& collection);

}  // namespace kcm::bench
