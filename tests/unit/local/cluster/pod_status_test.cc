#include "local/cluster/pod_status.h"

#include <gtest/gtest.h>

#include "local/cluster/kubelet.h"

namespace kcm::local::cluster {
namespace {

using std::chrono::system_clock;
using State = ContainerRuntime::State;

const auto kThen = system_clock::time_point(std::chrono::seconds(1'700'000'000));  // 22:13:20
const auto kNow = kThen + std::chrono::seconds(10);                                // 22:13:30

json::object object_of(std::string_view text) {
  return json::parse(text).as_object();
}

ContainerRuntime running(std::string name, bool ready) {
  ContainerRuntime c;
  c.name = std::move(name);
  c.image = "nginx";
  c.state = State::kRunning;
  c.container_id = "containerd://abc";
  c.started_at = kThen;
  c.ready = ready;
  return c;
}

PodRuntime runtime(std::vector<ContainerRuntime> containers) {
  PodRuntime rt;
  rt.phase = "Running";
  rt.host_ip = "172.18.0.3";
  rt.pod_ip = "10.244.1.2";
  rt.start_time = kThen;
  rt.containers = std::move(containers);
  return rt;
}

std::map<std::string, json::object> conditions(const json::object& status) {
  std::map<std::string, json::object> out;
  for (const auto& c : status.at("conditions").as_array())
    out[std::string(c.at("type").as_string())] = c.as_object();
  return out;
}

std::vector<std::string> condition_order(const json::object& status) {
  std::vector<std::string> out;
  for (const auto& c : status.at("conditions").as_array())
    out.emplace_back(c.at("type").as_string());
  return out;
}

TEST(BuildPodStatus, RunningAndReady) {
  const json::object spec = object_of(R"({"containers":[{"name":"web","image":"nginx"}]})");
  const json::object status =
      build_pod_status(runtime({running("web", true)}), spec, nullptr, kNow);
  EXPECT_EQ(status.at("phase"), "Running");
  EXPECT_EQ(condition_order(status),
            (std::vector<std::string>{"PodReadyToStartContainers", "Initialized", "Ready",
                                      "ContainersReady", "PodScheduled"}));
  for (const auto& [type, c] : conditions(status)) {
    EXPECT_EQ(c.at("status"), "True") << type;
    EXPECT_EQ(c.at("lastTransitionTime"), "2023-11-14T22:13:30Z") << type;
    EXPECT_TRUE(c.at("lastProbeTime").is_null()) << type;
  }
  EXPECT_EQ(status.at("hostIP"), "172.18.0.3");
  EXPECT_EQ(status.at("hostIPs"), json::parse(R"([{"ip":"172.18.0.3"}])"));
  EXPECT_EQ(status.at("podIP"), "10.244.1.2");
  EXPECT_EQ(status.at("podIPs"), json::parse(R"([{"ip":"10.244.1.2"}])"));
  EXPECT_EQ(status.at("startTime"), "2023-11-14T22:13:20Z");
  EXPECT_EQ(status.at("qosClass"), "BestEffort");
  const json::object& cs = status.at("containerStatuses").as_array()[0].as_object();
  EXPECT_EQ(cs.at("name"), "web");
  EXPECT_EQ(cs.at("image"), "docker.io/library/nginx:latest");
  EXPECT_EQ(std::string(cs.at("imageID").as_string()).substr(0, 31),
            "docker.io/library/nginx@sha256:");
  EXPECT_EQ(cs.at("containerID"), "containerd://abc");
  EXPECT_EQ(cs.at("ready"), true);
  EXPECT_EQ(cs.at("started"), true);
  EXPECT_EQ(cs.at("restartCount"), 0);
  EXPECT_EQ(cs.at("state"), json::parse(R"({"running":{"startedAt":"2023-11-14T22:13:20Z"}})"));
  EXPECT_EQ(cs.at("lastState"), json::object());
}

TEST(BuildPodStatus, NotReadyNamesTheContainers) {
  const json::object spec = object_of(R"({"containers":[{"name":"b"},{"name":"a"}]})");
  const json::object status =
      build_pod_status(runtime({running("b", false), running("a", false)}), spec, nullptr, kNow);
  auto c = conditions(status);
  for (const char* type : {"Ready", "ContainersReady"}) {
    EXPECT_EQ(c[type].at("status"), "False");
    EXPECT_EQ(c[type].at("reason"), "ContainersNotReady");
    EXPECT_EQ(c[type].at("message"), "containers with unready status: [b a]");
  }
  // Container statuses are sorted by name, as kubelet reports them.
  EXPECT_EQ(status.at("containerStatuses").as_array()[0].at("name"), "a");
}

TEST(BuildPodStatus, KeepsTransitionTimesAndForeignConditions) {
  const json::object spec = object_of(R"({"containers":[{"name":"web"}]})");
  const json::object old = object_of(R"({
      "qosClass":"Burstable",
      "conditions":[
        {"type":"PodScheduled","status":"True","lastTransitionTime":"2023-11-14T22:00:00Z"},
        {"type":"Ready","status":"False","lastTransitionTime":"2023-11-14T22:00:00Z"},
        {"type":"example.com/gate","status":"True","lastTransitionTime":"2023-11-14T21:00:00Z"}]})");
  const json::object status = build_pod_status(runtime({running("web", true)}), spec, &old, kNow);
  EXPECT_EQ(condition_order(status),
            (std::vector<std::string>{"example.com/gate", "PodReadyToStartContainers",
                                      "Initialized", "Ready", "ContainersReady", "PodScheduled"}));
  auto c = conditions(status);
  EXPECT_EQ(c["PodScheduled"].at("lastTransitionTime"), "2023-11-14T22:00:00Z");
  EXPECT_EQ(c["Ready"].at("lastTransitionTime"), "2023-11-14T22:13:30Z");
  EXPECT_EQ(status.at("qosClass"), "Burstable");  // set at creation, kept
}

TEST(BuildPodStatus, QosClassComputedAsUpstreamWhenMissing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"containers":[{"name":"c"}]})", "BestEffort"},
      {R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]})", "Burstable"},
      {R"({"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},
                                                  "requests":{"cpu":"1","memory":"1Gi"}}}]})",
       "Guaranteed"},
      {R"({"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},
                                                  "requests":{"cpu":"500m","memory":"1Gi"}}}]})",
       "Burstable"},
  };
  for (const auto& [spec, want] : cases) {
    const json::object status =
        build_pod_status(runtime({running("c", true)}), object_of(spec), nullptr, kNow);
    EXPECT_EQ(status.at("qosClass"), want.c_str()) << spec;
  }
}

TEST(BuildPodStatus, InitContainersAndCrashLoop) {
  const json::object spec =
      object_of(R"({"initContainers":[{"name":"init"}],"containers":[{"name":"app"}]})");
  PodRuntime rt = runtime({});
  ContainerRuntime init;
  init.name = "init";
  init.image = "busybox";
  init.state = State::kTerminated;
  init.container_id = "containerd://i";
  init.terminated = TerminatedState{0, "Completed", kThen, kThen, "containerd://i"};
  init.ready = true;
  rt.init_containers.push_back(init);
  ContainerRuntime app = running("app", false);
  app.state = State::kWaiting;
  app.waiting_reason = "CrashLoopBackOff";
  app.waiting_message = "back-off 10s restarting failed container=app pod=p_default(u)";
  app.restart_count = 1;
  app.last_terminated = TerminatedState{1, "Error", kThen, kNow, "containerd://abc"};
  rt.containers.push_back(app);
  const json::object status = build_pod_status(rt, spec, nullptr, kNow);
  EXPECT_EQ(conditions(status)["Initialized"].at("status"), "True");
  const json::object& is = status.at("initContainerStatuses").as_array()[0].as_object();
  EXPECT_EQ(is.at("state"), json::parse(R"({"terminated":{"exitCode":0,"reason":"Completed",
                "startedAt":"2023-11-14T22:13:20Z","finishedAt":"2023-11-14T22:13:20Z",
                "containerID":"containerd://i"}})"));
  EXPECT_EQ(is.at("ready"), true);
  EXPECT_EQ(is.at("started"), false);
  const json::object& cs = status.at("containerStatuses").as_array()[0].as_object();
  EXPECT_EQ(cs.at("state"), json::parse(R"js({"waiting":{"reason":"CrashLoopBackOff",
                "message":"back-off 10s restarting failed container=app pod=p_default(u)"}})js"));
  EXPECT_EQ(cs.at("lastState"), json::parse(R"({"terminated":{"exitCode":1,"reason":"Error",
                "startedAt":"2023-11-14T22:13:20Z","finishedAt":"2023-11-14T22:13:30Z",
                "containerID":"containerd://abc"}})"));
  EXPECT_EQ(cs.at("restartCount"), 1);
  EXPECT_EQ(cs.at("started"), false);

  // An init container still running keeps the pod uninitialized.
  rt.init_containers[0].state = State::kRunning;
  EXPECT_EQ(conditions(build_pod_status(rt, spec, nullptr, kNow))["Initialized"].at("message"),
            "containers with incomplete status: [init]");
}

TEST(BuildPodStatus, TerminalPodIsNotReady) {
  PodRuntime rt = runtime({running("web", false)});
  rt.phase = "Succeeded";
  rt.sandbox_ready = false;
  const json::object status =
      build_pod_status(rt, object_of(R"({"containers":[{"name":"web"}]})"), nullptr, kNow);
  auto c = conditions(status);
  EXPECT_EQ(c["Ready"].at("reason"), "PodCompleted");
  EXPECT_EQ(c["ContainersReady"].at("reason"), "PodCompleted");
  EXPECT_EQ(c["PodReadyToStartContainers"].at("status"), "False");
}

TEST(NormalizeImage, AsContainerdReportsIt) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nginx", "docker.io/library/nginx:latest"},
      {"nginx:1.27", "docker.io/library/nginx:1.27"},
      {"bitnami/redis", "docker.io/bitnami/redis:latest"},
      {"registry.k8s.io/pause:3.10", "registry.k8s.io/pause:3.10"},
      {"localhost:5000/app", "localhost:5000/app:latest"},
      {"localhost/app:v1", "localhost/app:v1"},
      {"busybox@sha256:abcd", "docker.io/library/busybox@sha256:abcd"},
  };
  for (const auto& [in, want] : cases)
    EXPECT_EQ(normalize_image(in), want) << in;
  EXPECT_EQ(image_id("busybox@sha256:abcd"), "docker.io/library/busybox@sha256:abcd");
  const std::string id = image_id("nginx:1.27");
  EXPECT_EQ(id.substr(0, 31), "docker.io/library/nginx@sha256:");
  EXPECT_EQ(id.size(), 31u + 64u);
  EXPECT_EQ(id, image_id("docker.io/library/nginx:1.27"));  // the same image, the same id
}

TEST(GoStringList, PrintsLikeGo) {
  EXPECT_EQ(go_string_list({}), "[]");
  EXPECT_EQ(go_string_list({"a"}), "[a]");
  EXPECT_EQ(go_string_list({"a", "b"}), "[a b]");
}

TEST(CrashBackoff, ImmediateThenDoublingToFiveMinutes) {
  using std::chrono::seconds;
  const std::vector<std::pair<int, seconds>> cases = {
      {1, seconds(0)},  {2, seconds(10)},  {3, seconds(20)},  {4, seconds(40)},
      {5, seconds(80)}, {6, seconds(160)}, {7, seconds(300)}, {20, seconds(300)}};
  for (const auto& [crashes, want] : cases)
    EXPECT_EQ(crash_backoff(kDefaultCrashBackoff, crashes), want) << crashes;
  EXPECT_EQ(crash_backoff(std::chrono::milliseconds(100), 3), std::chrono::milliseconds(200));
}

}  // namespace
}  // namespace kcm::local::cluster
