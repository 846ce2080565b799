// examples/ecsbind end to end: kcm-local serving the EcsBind CRD
// (examples/ecsbind/crd.yaml), the ecsbind-controller running as a process
// of its own, and the real kubectl. EcsBinds are created, edited and deleted
// and the Nodes follow; invalid EcsBinds are refused with field paths; a
// taken node name fails the EcsBind; the finalizer holds a deletion until the
// Node is gone; and a controller restarted mid-way converges.
//
// The controller binary is <build>/bin/ecsbind-controller (built with the
// examples); the tests are skipped when it is not there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "kcm_process.h"
#include "kubectl_clients.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string controller_binary() {
  return std::string(KCM_BIN_DIR) + "/ecsbind-controller";
}

std::string crd_path() {
  return std::string(KCM_TEST_DATA_DIR) + "/../../examples/ecsbind/crd.yaml";
}

// The ecsbind-controller as a process, as KcmProcess runs kcm: pointed at
// the cluster, serving HTTPS on a free local port, logging to a file of its
// own. Short leases, so that a restarted copy takes over quickly.
class ControllerProcess {
 public:
  explicit ControllerProcess(const LocalCluster& cluster)
      : dir_(std::make_unique<TempDir>("ecsbind-controller-")),
        log_(dir_->path() / "controller.log"),
        port_(free_local_port()) {
    process_ =
        Process({controller_binary(), "--kubeconfig=" + cluster.kubeconfig().string(),
                 "--bind-address=127.0.0.1", "--secure-port=" + std::to_string(port_),
                 "--leader-elect", "--leader-elect-lease-duration=3s",
                 "--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms", "--v=2"},
                log_);
  }
  ~ControllerProcess() {
    if (process_.running()) process_.stop(SIGKILL);
  }
  int stop() { return process_.stop(SIGTERM, std::chrono::seconds(30)); }
  bool running() { return process_.running(); }
  std::string log() const { return read_file(log_); }
  // GET https://127.0.0.1:<port><path>: "<status>\n<body>"-style answer via curl.
  KcmProcess::HttpAnswer get(const std::string& path) const {
    const CommandResult r =
        run_command({"curl", "-sk", "-o", "-", "-w", "\n%{http_code}", "--max-time", "5",
                     "https://127.0.0.1:" + std::to_string(port_) + path},
                    {}, {}, std::chrono::seconds(10));
    KcmProcess::HttpAnswer answer;
    const auto cut = r.out.rfind('\n');
    if (cut == std::string::npos) return answer;
    answer.body = r.out.substr(0, cut);
    try {
      answer.status = std::stoi(r.out.substr(cut + 1));
    } catch (const std::exception&) {
      answer.status = 0;
    }
    return answer;
  }

 private:
  std::unique_ptr<TempDir> dir_;
  std::filesystem::path log_;
  unsigned short port_;
  Process process_;
};

std::string ecsbind_yaml(const std::string& name, const std::string& spec) {
  return "apiVersion: ecsbind.kcm.dev/v1\nkind: EcsBind\nmetadata:\n  name: " + name +
         "\nspec: " + spec + "\n";
}

class EcsBindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LocalCluster::Options o;
    o.extra_args = {"--nodes=0"};  // only the controller's Nodes exist
    cluster_ = std::make_unique<LocalCluster>(o);
    kubectl_ = std::make_unique<Kubectl>(*cluster_);
    ok({"apply", "-f", crd_path()});
    ok({"wait", "--for=condition=Established", "crd/ecsbinds.ecsbind.kcm.dev", "--timeout=30s"});
  }

  CommandResult run(const std::vector<std::string>& args, const std::string& input = {}) {
    return (*kubectl_)(args, input, std::chrono::seconds(30));
  }
  CommandResult ok(const std::vector<std::string>& args, const std::string& input = {}) {
    CommandResult r = run(args, input);
    EXPECT_EQ(r.exit_code, 0) << "kubectl " << ::testing::PrintToString(args) << "\n"
                              << describe(r);
    return r;
  }
  // jsonpath of an object; "" (and no failure) when it does not exist.
  std::string get(const std::string& object, const std::string& path) {
    const CommandResult r = run({"get", object, "-o", "jsonpath=" + path});
    return r.exit_code == 0 ? r.out : "";
  }
  bool exists(const std::string& object) { return run({"get", object}).exit_code == 0; }
  // Waits until the jsonpath reads `want`; on timeout the assertion shows the last value.
  void wait_for(const std::string& object, const std::string& path, const std::string& want,
                std::chrono::seconds timeout = std::chrono::seconds(30)) {
    std::string last;
    const bool reached = eventually(
        [&] {
          last = get(object, path);
          return last == want;
        },
        timeout, std::chrono::milliseconds(200));
    EXPECT_TRUE(reached) << object << " " << path << ": want \"" << want << "\", have \"" << last
                         << "\"" << controller_log();
  }
  void wait_gone(const std::string& object) {
    EXPECT_TRUE(eventually([&] { return !exists(object); }, std::chrono::seconds(30),
                           std::chrono::milliseconds(200)))
        << object << " still exists" << controller_log();
  }
  std::string controller_log() const {
    return controller_ ? "\n--- controller log ---\n" + controller_->log() : "";
  }
  // The reasons of the events about an EcsBind (events of cluster-scoped
  // objects go to "default").
  std::string event_reasons(const std::string& name) {
    return get("events",
               "{range .items[?(@.involvedObject.name==\"" + name + "\")]}{.reason}{\" \"}{end}");
  }

  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<Kubectl> kubectl_;
  std::unique_ptr<ControllerProcess> controller_;
};

// The CRD as kubectl sees it, and the schema's validation with field paths.
// No controller needed: the API server refuses these.
TEST_F(EcsBindTest, CrdIsServedAndInvalidEcsBindsAreRefusedWithFieldPaths) {
  EXPECT_THAT(ok({"api-resources", "--api-group=ecsbind.kcm.dev"}).out,
              HasLine("ecsbinds +eb +ecsbind.kcm.dev/v1 +false +EcsBind"));

  const CommandResult bad =
      run({"create", "-f", "-"},
          ecsbind_yaml("bad", "{instanceId: x-1, privateIP: 10.0.0.300, nodeName: Bad_Name}"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("The EcsBind \"bad\" is invalid"));
  EXPECT_THAT(bad.err, HasSubstr("spec.instanceId: Invalid value: \"x-1\": spec.instanceId in "
                                 "body should match '^i-[0-9a-z]{1,32}$'"));
  EXPECT_THAT(bad.err, HasSubstr("spec.privateIP: Invalid value: \"10.0.0.300\": spec.privateIP "
                                 "in body must be of type ipv4: \"10.0.0.300\""));
  EXPECT_THAT(bad.err, HasSubstr("spec.nodeName: Invalid value: \"Bad_Name\": spec.nodeName in "
                                 "body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"));

  const CommandResult missing =
      run({"create", "-f", "-"}, ecsbind_yaml("bad", "{instanceId: i-1}"));
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.err, HasSubstr("spec.privateIP: Required value"));

  const CommandResult phase = run({"create", "-f", "-"},
                                  "apiVersion: ecsbind.kcm.dev/v1\nkind: EcsBind\nmetadata:\n"
                                  "  name: bad\nspec: {instanceId: i-1, privateIP: 10.0.0.1}\n"
                                  "status: {phase: Lost}\n");
  // status is ignored on create (status subresource), so this one is accepted...
  EXPECT_EQ(phase.exit_code, 0) << describe(phase);
  // ...but a status write is validated too.
  const CommandResult status = run({"patch", "ecsbind", "bad", "--subresource=status",
                                    "--type=merge", "-p", R"({"status":{"phase":"Lost"}})"});
  EXPECT_NE(status.exit_code, 0);
  EXPECT_THAT(status.err, HasSubstr("status.phase: Unsupported value: \"Lost\": supported "
                                    "values: \"Pending\", \"Bound\", \"Failed\""));
  EXPECT_FALSE(exists("ecsbind/x"));
  EXPECT_EQ(get("ecsbinds", "{.items[*].metadata.name}"), "bad");
}

TEST_F(EcsBindTest, NodesFollowEcsBindsAcrossEditsDeletesAndARestart) {
  if (!std::filesystem::exists(controller_binary()))
    GTEST_SKIP() << controller_binary() << " is not built (cmake --build ... --target "
                 << "ecsbind-controller)";
  controller_ = std::make_unique<ControllerProcess>(*cluster_);

  // --- create: the Node appears, the status says Bound -----------------------
  ok({"create", "-f", "-"}, ecsbind_yaml("web-1", "{instanceId: i-0abc1, privateIP: 10.0.0.5}"));
  wait_for("ecsbind/web-1", "{.status.phase}", "Bound");
  EXPECT_EQ(get("ecsbind/web-1",
                "{.status.nodeName} {.status.observedGeneration} {.metadata.finalizers}"),
            "ecs-i-0abc1 1 [\"ecsbind.kcm.dev/cleanup\"]");
  EXPECT_EQ(get("ecsbind/web-1", "{range .status.conditions[*]}{.type}={.status}/{.reason}{end}"),
            "Ready=True/NodeBound");
  EXPECT_EQ(get("node/ecs-i-0abc1",
                "{.metadata.labels.ecsbind\\.kcm\\.dev/instance-id} "
                "{.status.addresses[?(@.type==\"InternalIP\")].address}"),
            "i-0abc1 10.0.0.5");
  const std::string uid = get("ecsbind/web-1", "{.metadata.uid}");
  EXPECT_EQ(get("node/ecs-i-0abc1",
                "{range .metadata.ownerReferences[*]}{.apiVersion} {.kind} {.name} {.uid} "
                "{.controller} {.blockOwnerDeletion}{end}"),
            "ecsbind.kcm.dev/v1 EcsBind web-1 " + uid + " true true");
  // The CRD's printer columns.
  expect_table(ok({"get", "ecsbinds"}).out, {"NAME", "INSTANCE", "IP", "NODE", "PHASE", "AGE"},
               {"web-1|i-0abc1|10.0.0.5|ecs-i-0abc1|Bound|<age>"});
  EXPECT_TRUE(eventually([&] {
    return event_reasons("web-1").find("NodeCreated") != std::string::npos;
  })) << event_reasons("web-1");

  // --- edit: a new IP is written to the Node; a new name moves the Node -----
  ok({"patch", "ecsbind", "web-1", "--type=merge", "-p", R"({"spec":{"privateIP":"10.0.0.6"}})"});
  wait_for("node/ecs-i-0abc1", "{.status.addresses[?(@.type==\"InternalIP\")].address}",
           "10.0.0.6");
  wait_for("ecsbind/web-1", "{.status.observedGeneration}", "2");
  ok({"patch", "ecsbind", "web-1", "--type=merge", "-p", R"({"spec":{"nodeName":"worker-7"}})"});
  wait_for("ecsbind/web-1", "{.status.nodeName} {.status.observedGeneration}", "worker-7 3");
  wait_gone("node/ecs-i-0abc1");
  EXPECT_EQ(get("node/worker-7", "{.status.addresses[?(@.type==\"InternalIP\")].address}"),
            "10.0.0.6");
  // A hand edit of the Node's label is undone.
  ok({"label", "node", "worker-7", "--overwrite", "ecsbind.kcm.dev/instance-id=i-wrong"});
  wait_for("node/worker-7", "{.metadata.labels.ecsbind\\.kcm\\.dev/instance-id}", "i-0abc1");

  // --- a taken name: Failed, until the name is free --------------------------
  ok({"create", "-f", "-"},
     "apiVersion: v1\nkind: Node\nmetadata:\n  name: taken\n  labels: {owner: someone-else}\n");
  ok({"create", "-f", "-"},
     ecsbind_yaml("web-2", "{instanceId: i-0abc2, privateIP: 10.0.0.7, nodeName: taken}"));
  wait_for("ecsbind/web-2", "{.status.phase} {.status.reason}", "Failed NodeNameTaken");
  EXPECT_EQ(get("ecsbind/web-2", "{.status.message}"),
            "Node \"taken\" already exists and is not controlled by this EcsBind");
  EXPECT_EQ(get("ecsbind/web-2", "{range .status.conditions[*]}{.type}={.status}{end}"),
            "Ready=False");
  EXPECT_EQ(get("node/taken", "{.metadata.ownerReferences}"), "");
  EXPECT_TRUE(eventually([&] {
    return event_reasons("web-2").find("NodeNameTaken") != std::string::npos;
  })) << event_reasons("web-2");
  expect_table(
      ok({"get", "eb"}).out, {"NAME", "INSTANCE", "IP", "NODE", "PHASE", "AGE"},
      {"web-1|i-0abc1|10.0.0.6|worker-7|Bound|<age>", "web-2|i-0abc2|10.0.0.7||Failed|<age>"});
  ok({"delete", "node", "taken"});
  wait_for("ecsbind/web-2", "{.status.phase} {.status.nodeName}", "Bound taken");
  wait_for("node/taken", "{.metadata.ownerReferences[0].name}", "web-2");

  // --- health and metrics -----------------------------------------------------
  const auto healthz = controller_->get("/healthz");
  EXPECT_EQ(healthz.status, 200);
  EXPECT_EQ(healthz.body, "ok");
  const auto metrics = controller_->get("/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_THAT(metrics.body, HasSubstr("ecsbind_reconciles_total{result=\"success\"}"));
  EXPECT_THAT(metrics.body, HasSubstr("workqueue_adds_total{name=\"ecsbind\"}"));
  EXPECT_THAT(metrics.body,
              HasSubstr("leader_election_master_status{name=\"ecsbind-controller\"} 1"));

  // --- restart mid-way: changes made while the controller is down converge ---
  EXPECT_EQ(controller_->stop(), 0) << controller_log();
  ok({"patch", "ecsbind", "web-1", "--type=merge", "-p", R"({"spec":{"privateIP":"10.0.0.8"}})"});
  // The finalizer holds the deletion while nobody removes the Node.
  ok({"delete", "ecsbind", "web-2", "--wait=false"});
  ok({"create", "-f", "-"}, ecsbind_yaml("web-3", "{instanceId: i-0abc3, privateIP: 10.0.0.9}"));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_NE(get("ecsbind/web-2", "{.metadata.deletionTimestamp}"), "");
  EXPECT_TRUE(exists("node/taken"));
  EXPECT_EQ(get("ecsbind/web-3", "{.status.phase}"), "");

  controller_ = std::make_unique<ControllerProcess>(*cluster_);
  wait_for("node/worker-7", "{.status.addresses[?(@.type==\"InternalIP\")].address}", "10.0.0.8");
  wait_gone("ecsbind/web-2");
  EXPECT_FALSE(exists("node/taken"));
  wait_for("ecsbind/web-3", "{.status.phase} {.status.nodeName}", "Bound ecs-i-0abc3");
  expect_table(
      ok({"get", "nodes", "-L", "ecsbind.kcm.dev/instance-id"}).out,
      {"NAME", "STATUS", "ROLES", "AGE", "VERSION", "INSTANCE-ID"},
      {"ecs-i-0abc3|Unknown|<none>|<age>||i-0abc3", "worker-7|Unknown|<none>|<age>||i-0abc1"});

  // --- delete: the Node goes first, then the EcsBind ----------------------------
  ok({"delete", "ecsbind", "web-1", "--timeout=30s"});
  EXPECT_FALSE(exists("node/worker-7")) << "the EcsBind went before its Node";
  ok({"delete", "eb", "web-3", "--timeout=30s"});
  EXPECT_FALSE(exists("node/ecs-i-0abc3"));
  EXPECT_EQ(get("nodes", "{.items[*].metadata.name}"), "");
  EXPECT_EQ(get("ecsbinds", "{.items[*].metadata.name}"), "");
  EXPECT_EQ(controller_->stop(), 0) << controller_log();
  EXPECT_THAT(controller_->log(), Not(HasSubstr("Cannot decode EcsBind")));
}

}  // namespace
}  // namespace kcm::e2e
