// Which container a pods/log request reads and when it is refused, in the
// API server's order (pod.LogLocation) and then the kubelet's
// (validateContainerLogStatus), with upstream's messages.
#include "local/registry/pod_log.h"

#include <gtest/gtest.h>

namespace kcm::local::registry {
namespace {

namespace json = boost::json;

struct LogCase {
  std::string name;
  std::string spec;    // the pod's spec, less nodeName (added unless `unscheduled`)
  std::string status;  // the pod's status
  std::string container;
  bool previous = false;
  bool unscheduled = false;
  std::string chosen;  // the container read, or "" when refused
  bool running = false;
  std::string error;
};

constexpr const char* kOne = R"({"containers":[{"name":"web"}]})";
constexpr const char* kTwo =
    R"({"initContainers":[{"name":"init"}],"containers":[{"name":"a"},{"name":"b"}],)"
    R"("ephemeralContainers":[{"name":"debug"}]})";

std::string statuses(std::string_view entry) {
  return std::string(R"({"containerStatuses":[)") + std::string(entry) + "]}";
}

TEST(PodLogTarget, ChoosesAndChecksTheContainer) {
  const std::string running = statuses(R"({"name":"web","state":{"running":{}}})");
  const std::vector<LogCase> cases = {
      {"the only container, running", kOne, running, "", false, false, "web", true, ""},
      {"named", kOne, running, "web", false, false, "web", true, ""},
      {"not scheduled yet: an empty log, no kubelet asked", kOne, "{}", "", false, true, "web",
       false, ""},
      {"two containers and no name", kTwo, "{}", "", false, false, "", false,
       "a container name must be specified for pod p, choose one of: [a b] or one of the init "
       "containers: [init]"},
      {"no containers", R"({"containers":[]})", "{}", "", false, false, "", false,
       "a container name must be specified for pod p"},
      {"an unknown name", kTwo, "{}", "nope", false, false, "", false,
       "container nope is not valid for pod p"},
      {"an init container by name", kTwo,
       R"({"initContainerStatuses":[{"name":"init","state":{"terminated":{"exitCode":0}}}]})",
       "init", false, false, "init", false, ""},
      {"an ephemeral container by name", kTwo,
       R"({"ephemeralContainerStatuses":[{"name":"debug","state":{"running":{}}}]})", "debug",
       false, false, "debug", true, ""},
      {"no status for it yet", kOne, "{}", "", false, false, "", false,
       R"(container "web" in pod "p" is not available)"},
      {"waiting", kOne,
       statuses(R"({"name":"web","state":{"waiting":{"reason":"ContainerCreating"}}})"), "", false,
       false, "", false, R"(container "web" in pod "p" is waiting to start: ContainerCreating)"},
      {"the image cannot be pulled", kOne,
       statuses(R"({"name":"web","state":{"waiting":{"reason":"ErrImagePull"}}})"), "", false,
       false, "", false,
       R"(container "web" in pod "p" is waiting to start: image can't be pulled)"},
      {"backing off pulling", kOne,
       statuses(R"({"name":"web","state":{"waiting":{"reason":"ImagePullBackOff"}}})"), "", false,
       false, "", false,
       R"(container "web" in pod "p" is waiting to start: trying and failing to pull image)"},
      {"crash looping: the last run's log", kOne,
       statuses(R"({"name":"web","state":{"waiting":{"reason":"CrashLoopBackOff"}},)"
                R"("lastState":{"terminated":{"exitCode":1,"containerID":"containerd://1"}}})"),
       "", false, false, "web", false, ""},
      {"terminated", kOne, statuses(R"({"name":"web","state":{"terminated":{"exitCode":0}}})"), "",
       false, false, "web", false, ""},
      {"no state at all", kOne, statuses(R"({"name":"web","state":{}})"), "", false, false, "",
       false, R"(container "web" in pod "p" is waiting to start - no logs yet)"},
      {"previous, with a last run", kOne,
       statuses(R"({"name":"web","state":{"running":{}},)"
                R"("lastState":{"terminated":{"exitCode":1,"containerID":"containerd://1"}}})"),
       "", true, false, "web", false, ""},
      {"previous, without one", kOne, running, "", true, false, "", false,
       R"(previous terminated container "web" in pod "p" not found)"},
      {"previous, a last run without a container id", kOne,
       statuses(
           R"({"name":"web","state":{"running":{}},"lastState":{"terminated":{"exitCode":1}}})"),
       "", true, false, "", false, R"(previous terminated container "web" in pod "p" not found)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    json::object spec = json::parse(c.spec).as_object();
    if (!c.unscheduled) spec["nodeName"] = "node-1";
    const json::object pod{{"metadata", json::object{{"name", "p"}}},
                           {"spec", std::move(spec)},
                           {"status", json::parse(c.status)}};
    const auto r = pod_log_target(pod, c.container, c.previous);
    if (c.error.empty()) {
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->container, c.chosen);
      EXPECT_EQ(r->running, c.running);
    } else {
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().code, 400);
      EXPECT_EQ(r.error().reason, "BadRequest");
      EXPECT_EQ(r.error().message, c.error);
    }
  }
}

}  // namespace
}  // namespace kcm::local::registry
