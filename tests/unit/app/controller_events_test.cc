// Each controller's events go through a broadcaster of its own: written with
// the controller's client, logged at -v=3, stopped with the controllers.
#include "app/controller_events.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/json.h"
#include "client/clientset.h"
#include "recording_transport.h"

namespace kcm::app {
namespace {

using namespace std::chrono_literals;
using test_support::RecordingTransport;

// Answers every request with its own body, as the API server answers an
// event create with the stored event.
std::shared_ptr<RecordingTransport> event_store() {
  auto transport = std::make_shared<RecordingTransport>();
  transport->respond_with([](const client::HttpRequest& r) {
    return RecordingTransport::Answer{201, r.body};
  });
  return transport;
}

// The events POSTed through `transport`, once `n` came in (10 s at most).
std::vector<api::json::value> posted_events(const RecordingTransport& transport, std::size_t n) {
  std::vector<api::json::value> events;
  for (const client::HttpRequest& r : transport.wait_for_requests(n)) {
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.target, "/api/v1/namespaces/ns/events");
    events.push_back(boost::json::parse(r.body));
  }
  return events;
}

std::string component_of(const api::json::value& event) {
  return std::string(event.at("source").at("component").as_string());
}

const record::ObjectReference kRs{.kind = "ReplicaSet",
                                  .namespace_ = "ns",
                                  .name = "web-1",
                                  .uid = "u1",
                                  .api_version = "apps/v1"};

struct Logs {
  std::mutex mu;
  std::vector<std::string> lines;
  record::Logger logger() {
    return [this](record::Severity, std::string_view m) {
      std::lock_guard lock(mu);
      lines.emplace_back(m);
    };
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mu);
    return lines;
  }
};

TEST(ControllerEventBroadcasters, EachComponentWritesThroughItsOwnClient) {
  auto deployment_transport = event_store();
  auto replicaset_transport = event_store();
  const auto deployment_client = client::Clientset::over(deployment_transport);
  const auto replicaset_client = client::Clientset::over(replicaset_transport);
  ControllerEventBroadcasters broadcasters;

  broadcasters.recorder("deployment-controller", *deployment_client)
      ->event(kRs, "Normal", "ScalingReplicaSet", "Scaled up replica set web-1 from 0 to 1");
  broadcasters.recorder("replicaset-controller", *replicaset_client)
      ->event(kRs, "Normal", "SuccessfulCreate", "Created pod: web-1-a");
  // A second recorder of a component shares its broadcaster (and so its client).
  broadcasters.recorder("deployment-controller", *replicaset_client)
      ->event(kRs, "Normal", "ScalingReplicaSet", "Scaled up replica set web-1 from 1 to 2");

  const auto deployment_events = posted_events(*deployment_transport, 2);
  ASSERT_EQ(deployment_events.size(), 2u);
  for (const auto& event : deployment_events)
    EXPECT_EQ(component_of(event), "deployment-controller");
  const auto replicaset_events = posted_events(*replicaset_transport, 1);
  ASSERT_EQ(replicaset_events.size(), 1u);
  EXPECT_EQ(component_of(replicaset_events[0]), "replicaset-controller");
  EXPECT_EQ(replicaset_events[0].at("reason").as_string(), "SuccessfulCreate");
}

TEST(ControllerEventBroadcasters, LogsEventsAtVerbosityThreeAndStopsOnShutdown) {
  Logs logs;
  std::atomic<int> verbosity{2};
  record::BroadcasterOptions options;
  options.logger = logs.logger();
  options.verbose = [&](int level) { return level <= verbosity.load(); };
  auto transport = event_store();
  const auto client = client::Clientset::over(transport);
  ControllerEventBroadcasters broadcasters(options);
  const auto recorder = broadcasters.recorder("deployment-controller", *client);

  recorder->event(kRs, "Normal", "Quiet", "at -v=2");
  verbosity = kControllerEventLogVerbosity;
  recorder->event(kRs, "Normal", "Loud", "at -v=3");
  posted_events(*transport, 2);
  for (int i = 0; i < 1000 && logs.get().empty(); ++i)
    std::this_thread::sleep_for(1ms);
  auto lines = logs.get();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(R"(Event occurred object="ns/web-1")"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(R"(reason="Loud")"), std::string::npos) << lines[0];

  broadcasters.shutdown();
  recorder->event(kRs, "Normal", "Late", "after shutdown");
  lines = logs.get();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "Unable to record event (will not retry!): broadcaster already stopped");
  EXPECT_EQ(transport->requests().size(), 2u);
}

}  // namespace
}  // namespace kcm::app
