// A client::Transport for unit tests: answers each request with the next
// scripted answer, in order (then with the responder, if one is set), and
// records every request it was sent, so tests can assert the exact requests
// a client, a helper or a controller sends. Thread-safe: a test may read
// what a background thread (an event sink, say) sent.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "client/resource_client.h"
#include "client/rest_client.h"
#include "client/transport.h"

namespace kcm::test_support {

// A response body handed over in one read.
class BodyStream final : public client::ResponseStream {
 public:
  BodyStream(int status, client::Headers headers, std::string body)
      : status_(status), headers_(std::move(headers)), body_(std::move(body)) {}
  int status() const override { return status_; }
  const client::Headers& headers() const override { return headers_; }
  Result<std::optional<std::string>> read() override {
    if (cancelled_) return fail("cancelled");
    if (done_) return std::optional<std::string>();
    done_ = true;
    return std::optional<std::string>(body_);
  }
  void cancel() override { cancelled_ = true; }
  bool cancelled() const override { return cancelled_; }

 private:
  int status_;
  client::Headers headers_;
  std::string body_;
  bool done_ = false;
  bool cancelled_ = false;
};

class RecordingTransport final : public client::Transport {
 public:
  struct Answer {
    int status = 200;  // 0: the request fails with `error`, as a transport error
    std::string body;
    // None given: "Content-Type: application/json".
    std::optional<client::Headers> headers;
    std::string error = "no scripted answer";
  };
  // Answers a request once no scripted answer is left.
  using Responder = std::function<Answer(const client::HttpRequest&)>;

  explicit RecordingTransport(std::string base_url = "https://127.0.0.1:6443")
      : base_url_(std::move(base_url)) {}

  void answer(Answer a) {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(a));
  }
  void answer(int status, std::string body) { answer(Answer{status, std::move(body)}); }
  void answer(const api::Status& status) {
    answer(status.code, api::to_json_string(status.to_json()));
  }
  void respond_with(Responder responder) {
    std::lock_guard lock(mu_);
    responder_ = std::move(responder);
  }

  // Copies: other threads may be sending meanwhile.
  std::vector<client::HttpRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  client::HttpRequest last() const {
    std::lock_guard lock(mu_);
    return requests_.back();
  }
  std::size_t unanswered() const {
    std::lock_guard lock(mu_);
    return answers_.size();
  }
  // Waits until `n` requests came in (or `timeout` passed); returns them all.
  std::vector<client::HttpRequest> wait_for_requests(
      std::size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
    std::unique_lock lock(mu_);
    sent_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
    return requests_;
  }

  Result<client::HttpResponse> round_trip(const client::HttpRequest& request) override {
    Answer a = record(request);
    if (a.status == 0) return fail(a.error);
    return client::HttpResponse{a.status, headers_of(a), std::move(a.body)};
  }
  Result<std::unique_ptr<client::ResponseStream>> stream(
      const client::HttpRequest& request) override {
    Answer a = record(request);
    if (a.status == 0) return fail(a.error);
    return std::unique_ptr<client::ResponseStream>(
        std::make_unique<BodyStream>(a.status, headers_of(a), std::move(a.body)));
  }
  const std::string& base_url() const override { return base_url_; }
  const std::string& path_prefix() const override { return prefix_; }
  std::size_t idle_connections() const override { return 0; }
  std::size_t connections_opened() const override { return 0; }

 private:
  // Records `request` and picks its answer (status 0: none).
  Answer record(const client::HttpRequest& request) {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
    sent_.notify_all();
    if (answers_.empty()) return responder_ ? responder_(request) : Answer{.status = 0};
    Answer a = std::move(answers_.front());
    answers_.pop_front();
    return a;
  }

  static client::Headers headers_of(const Answer& a) {
    return a.headers.value_or(client::Headers{{"Content-Type", "application/json"}});
  }

  mutable std::mutex mu_;
  mutable std::condition_variable sent_;
  std::deque<Answer> answers_;
  Responder responder_;
  std::vector<client::HttpRequest> requests_;
  const std::string base_url_;
  const std::string prefix_;
};

// A ResourceClient over `transport` with logging and warnings quiet.
inline client::ResourceClient resource_client(std::shared_ptr<RecordingTransport> transport,
                                              api::GroupVersionResource resource,
                                              std::string ns = "") {
  client::RestClientOptions options;
  options.logger = [](int, const std::string&) {};
  options.warning_handler = [](const std::string&) {};
  return client::ResourceClient(
      std::make_shared<client::RestClient>(std::move(transport), std::move(options)),
      std::move(resource), std::move(ns));
}

}  // namespace kcm::test_support
