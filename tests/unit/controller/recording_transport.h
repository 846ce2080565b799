// A client::Transport for tests that records every request and answers with
// scripted responses, so tests can assert the exact requests a helper sends.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "client/resource_client.h"
#include "client/rest_client.h"
#include "client/transport.h"

namespace kcm::controller::testing {

class RecordingTransport final : public client::Transport {
 public:
  struct Answer {
    int status = 200;
    std::string body;
  };
  struct Sent {
    std::string method;
    std::string target;
    std::string content_type;
    std::string body;
  };

  void answer(int status, std::string body) { answers_.push_back({status, std::move(body)}); }
  void answer(const api::Status& status) {
    answers_.push_back({status.code, api::to_json_string(status.to_json())});
  }

  Result<client::HttpResponse> round_trip(const client::HttpRequest& request) override {
    sent_.push_back({request.method, request.target,
                     client::find_header(request.headers, "Content-Type").value_or(""),
                     request.body});
    if (answers_.empty()) return fail("no scripted answer");
    Answer a = std::move(answers_.front());
    answers_.pop_front();
    return client::HttpResponse{a.status, {{"Content-Type", "application/json"}}, a.body};
  }
  Result<std::unique_ptr<client::ResponseStream>> stream(const client::HttpRequest&) override {
    return fail("streams are not scripted");
  }
  const std::string& base_url() const override { return base_url_; }
  const std::string& path_prefix() const override { return prefix_; }
  std::size_t idle_connections() const override { return 0; }
  std::size_t connections_opened() const override { return 0; }

  const std::vector<Sent>& sent() const { return sent_; }
  std::size_t unanswered() const { return answers_.size(); }

 private:
  std::deque<Answer> answers_;
  std::vector<Sent> sent_;
  std::string base_url_ = "https://127.0.0.1:6443";
  std::string prefix_;
};

// A ResourceClient over `transport` with retries and logging quiet.
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

}  // namespace kcm::controller::testing
