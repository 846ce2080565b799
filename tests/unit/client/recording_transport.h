// A Transport for client unit tests: answers each request with the next
// scripted status and body, in order, and records every request it was sent.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/transport.h"

namespace kcm::client::test_support {

class BodyStream final : public ResponseStream {
 public:
  BodyStream(int status, std::string body) : status_(status), body_(std::move(body)) {}
  int status() const override { return status_; }
  const Headers& headers() const override { return headers_; }
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
  Headers headers_ = {{"Content-Type", "application/json"}};
  std::string body_;
  bool done_ = false;
  bool cancelled_ = false;
};

class RecordingTransport final : public Transport {
 public:
  struct Answer {
    int status;
    std::string body;
  };

  void answer(int status, std::string body) { answers_.push_back({status, std::move(body)}); }
  const std::vector<HttpRequest>& requests() const { return requests_; }
  const HttpRequest& last() const { return requests_.back(); }

  Result<HttpResponse> round_trip(const HttpRequest& request) override {
    requests_.push_back(request);
    const Answer a = next();
    if (a.status == 0) return fail("no scripted answer");
    return HttpResponse{a.status, {{"Content-Type", "application/json"}}, a.body};
  }
  Result<std::unique_ptr<ResponseStream>> stream(const HttpRequest& request) override {
    requests_.push_back(request);
    const Answer a = next();
    if (a.status == 0) return fail("no scripted answer");
    return std::unique_ptr<ResponseStream>(std::make_unique<BodyStream>(a.status, a.body));
  }
  const std::string& base_url() const override { return base_url_; }
  const std::string& path_prefix() const override { return prefix_; }
  std::size_t idle_connections() const override { return 0; }
  std::size_t connections_opened() const override { return 0; }

 private:
  Answer next() {
    if (answers_.empty()) return {0, ""};
    Answer a = std::move(answers_.front());
    answers_.pop_front();
    return a;
  }
  std::deque<Answer> answers_;
  std::vector<HttpRequest> requests_;
  std::string base_url_ = "https://127.0.0.1:6443";
  std::string prefix_;
};

}  // namespace kcm::client::test_support
