#include "local/registry/apps_status.h"

#include <gtest/gtest.h>

#include "api/json.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

json::object parse_object(std::string_view text) {
  return json::parse(text).as_object();
}

// Upstream dropDisabledStatusFields: a status write keeps
// status.terminatingReplicas when the gate is on or the stored object has it.
TEST(AppsStatusTest, TerminatingReplicasNeedTheGateOrAnOldValue) {
  struct Case {
    const char* name;
    bool gate;
    const char* old_status;
    bool kept;
  };
  const Case cases[] = {
      {"gate off, never set", false, R"({"replicas":1})", false},
      {"gate off, old null", false, R"({"replicas":1,"terminatingReplicas":null})", false},
      {"gate off, already set", false, R"({"replicas":1,"terminatingReplicas":0})", true},
      {"gate on", true, R"({"replicas":1})", true},
  };
  for (const auto& c : cases) {
    for (const bool deployment : {true, false}) {
      const ApiFeatures features{.terminating_replicas = c.gate};
      const auto strategy =
          deployment ? deployment_strategy(features) : replica_set_strategy(features);
      json::object old = parse_object(R"({"metadata":{"name":"a"},"spec":{"replicas":1}})");
      old["status"] = json::parse(c.old_status);
      json::object obj = parse_object(
          R"({"metadata":{"name":"a"},"spec":{"replicas":1},
              "status":{"replicas":1,"terminatingReplicas":2}})");
      strategy->prepare_for_status_update(obj, old);
      const json::object& status = obj.at("status").as_object();
      EXPECT_EQ(status.contains("terminatingReplicas"), c.kept)
          << c.name << (deployment ? " (Deployment)" : " (ReplicaSet)");
      EXPECT_EQ(status.at("replicas"), 1) << c.name;
    }
  }
}

}  // namespace
}  // namespace kcm::local::registry
