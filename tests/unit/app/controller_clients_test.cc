// Which client each built-in controller asks the ControllerContext for: its
// user-agent name and, for the garbage collector and the namespace
// controller, upstream's raised rate limits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/controller_descriptor.h"
#include "cache/informer_factory.h"
#include "metrics/registry.h"
#include "record/fake_recorder.h"
#include "recording_transport.h"

namespace kcm::app {
namespace {

struct ClientRequest {
  std::string name;
  double qps = 1;
  double burst = 1;
  friend bool operator==(const ClientRequest&, const ClientRequest&) = default;
};

void PrintTo(const ClientRequest& r, std::ostream* os) {
  *os << r.name << " qps x" << r.qps << " burst x" << r.burst;
}

// A context whose client builders record the request and fail, so that a
// controller's init stops right after asking for its client.
struct RecordingContext {
  Options options;
  cache::SharedInformerFactory informers{
      [](const api::GroupVersionResource&, const std::string&) { return nullptr; }};
  metrics::Registry registry;
  std::vector<ClientRequest> requests;
  ControllerContext context{
      .options = options,
      .informers = informers,
      .client = [this](std::string_view name) -> Result<std::shared_ptr<client::Clientset>> {
        requests.push_back({std::string(name)});
        return fail("no clients in this test");
      },
      .scaled_client = [this](std::string_view name,
                              ClientRateScale scale) -> Result<std::shared_ptr<client::Clientset>> {
        requests.push_back({std::string(name), scale.qps, scale.burst});
        return fail("no clients in this test");
      },
      .recorder = {},
      .metrics = registry};
};

std::vector<ClientRequest> client_requests_of(std::string_view controller) {
  RecordingContext ctx;
  for (const ControllerDescriptor& d : controller_descriptors()) {
    if (d.name != controller) continue;
    auto built = d.init(ctx.context);
    EXPECT_FALSE(built.ok());
    return ctx.requests;
  }
  ADD_FAILURE() << "no controller " << controller;
  return {};
}

TEST(ControllerClientsTest, RequestedAsUpstream) {
  struct Case {
    std::string_view controller;
    ClientRequest want;
  };
  const Case cases[] = {
      // upstream: ConfigOrDie("generic-garbage-collector"), QPS x2.
      {"garbage-collector-controller", {"generic-garbage-collector", 2, 1}},
      // upstream startModifiedNamespaceController: QPS x20, burst x100.
      {"namespace-controller", {"namespace-controller", 20, 100}},
      {"replicaset-controller", {"replicaset-controller"}},
      {"deployment-controller", {"deployment-controller"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.controller);
    EXPECT_THAT(client_requests_of(c.controller), ::testing::ElementsAre(c.want));
  }
}

struct RecorderRequest {
  std::string component;
  std::string client;  // the name the client was asked for
  friend bool operator==(const RecorderRequest&, const RecorderRequest&) = default;
};

void PrintTo(const RecorderRequest& r, std::ostream* os) {
  *os << r.component << " through the " << r.client << " client";
}

TEST(ControllerClientsTest, EventsGoThroughTheControllersOwnClient) {
  struct Case {
    std::string_view controller;
    RecorderRequest want;
  };
  const Case cases[] = {
      {"garbage-collector-controller",
       {"garbage-collector-controller", "generic-garbage-collector"}},
      {"replicaset-controller", {"replicaset-controller", "replicaset-controller"}},
      {"deployment-controller", {"deployment-controller", "deployment-controller"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.controller);
    Options options;
    cache::SharedInformerFactory informers{
        [](const api::GroupVersionResource&, const std::string&) { return nullptr; }};
    metrics::Registry registry;
    std::map<const client::Clientset*, std::string> client_names;
    std::vector<RecorderRequest> requests;
    auto named_client = [&](std::string_view name) {
      auto clients = client::Clientset::over(std::make_shared<test_support::RecordingTransport>());
      client_names[clients.get()] = std::string(name);
      return clients;
    };
    const ControllerContext context{
        .options = options,
        .informers = informers,
        .client = [&](std::string_view name) -> Result<std::shared_ptr<client::Clientset>> {
          return named_client(name);
        },
        .scaled_client = [&](std::string_view name, ClientRateScale)
            -> Result<std::shared_ptr<client::Clientset>> { return named_client(name); },
        .recorder = [&](std::string_view component,
                        const client::Clientset& client) -> std::shared_ptr<record::EventRecorder> {
          requests.push_back({std::string(component), client_names[&client]});
          return std::make_shared<record::FakeRecorder>();
        },
        .metrics = registry};
    for (const ControllerDescriptor& d : controller_descriptors()) {
      if (d.name != c.controller) continue;
      auto built = d.init(context);
      EXPECT_TRUE(built.ok()) << built.error();
    }
    EXPECT_THAT(requests, ::testing::ElementsAre(c.want));
  }
}

TEST(ControllerClientsTest, ScaledClientFallsBackToTheClient) {
  RecordingContext ctx;
  ctx.context.scaled_client = nullptr;
  EXPECT_FALSE(ctx.context.client_scaled("x", {.qps = 3}).ok());
  EXPECT_THAT(ctx.requests, ::testing::ElementsAre(ClientRequest{"x"}));
}

}  // namespace
}  // namespace kcm::app
