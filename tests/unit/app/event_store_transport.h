// A client::Transport for the app tests: stores every core/v1 Event POSTed
// to it and answers with the event, as the API server does.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/json.h"
#include "client/transport.h"

namespace kcm::app::testing_support {

// Thread-safe: the broadcasters' sink threads write here.
class EventStoreTransport final : public client::Transport {
 public:
  Result<client::HttpResponse> round_trip(const client::HttpRequest& request) override {
    std::lock_guard lock(mu_);
    if (request.method != "POST") return fail("only event creates are expected");
    std::string error;
    auto event = api::parse_json(request.body, &error);
    if (!event) return fail(error);
    posted_.push_back({request.target, std::move(*event)});
    cv_.notify_all();
    return client::HttpResponse{201, {{"Content-Type", "application/json"}}, request.body};
  }
  Result<std::unique_ptr<client::ResponseStream>> stream(const client::HttpRequest&) override {
    return fail("no streams here");
  }
  const std::string& base_url() const override { return base_url_; }
  const std::string& path_prefix() const override { return prefix_; }
  std::size_t idle_connections() const override { return 0; }
  std::size_t connections_opened() const override { return 0; }

  struct Posted {
    std::string target;
    api::json::value event;
  };
  // Waits (up to 10 s) until `n` events came in; returns them all.
  std::vector<Posted> wait_for(std::size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(10), [&] { return posted_.size() >= n; });
    return posted_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Posted> posted_;
  const std::string base_url_ = "https://127.0.0.1:6443";
  const std::string prefix_;
};

}  // namespace kcm::app::testing_support
