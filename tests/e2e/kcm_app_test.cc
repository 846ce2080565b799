// kcm as a process: its command line, its HTTPS endpoints, SIGTERM, and
// leader election between two kcm processes on one kcm-local.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>

#include "kcm_process.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

namespace json = boost::json;
using ::testing::HasSubstr;
using ::testing::Not;

std::string kcm_binary() {
  return std::string(KCM_BIN_DIR) + "/kcm";
}

// Short leases so that hand-over is quick in a test (the ratios of upstream's
// 15s/10s/2s defaults).
const std::vector<std::string> kFastLeaderElection = {
    "--leader-elect=true", "--leader-elect-lease-duration=3s", "--leader-elect-renew-deadline=2s",
    "--leader-elect-retry-period=500ms"};

// The value of a sample line "<name>{<labels>} <value>" in /metrics, or "".
std::string metric_value(const std::string& metrics, const std::string& series) {
  std::istringstream in(metrics);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(series + " ", 0) == 0) return line.substr(series.size() + 1);
  return "";
}

// The names of a process's threads (/proc/<pid>/task/*/comm).
std::vector<std::string> thread_names(pid_t pid) {
  std::vector<std::string> names;
  std::error_code ec;
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    if (std::getline(comm, name)) names.push_back(name);
  }
  return names;
}

bool maps_library(pid_t pid, const std::string& library) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library) != std::string::npos) return true;
  return false;
}

struct CommandLineCase {
  std::vector<std::string> args;
  int exit_code;
  std::string out;  // expected substring of stdout ("" = not checked)
  std::string err;  // expected substring of stderr
};

class KcmCommandLineTest : public ::testing::TestWithParam<CommandLineCase> {};

TEST_P(KcmCommandLineTest, ExitsWithUpstreamsWordingAndCode) {
  const CommandLineCase& c = GetParam();
  std::vector<std::string> argv = {kcm_binary()};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  const CommandResult r = run_command(argv);
  EXPECT_EQ(r.exit_code, c.exit_code) << describe(r);
  if (!c.out.empty()) {
    EXPECT_THAT(r.out, HasSubstr(c.out));
  }
  if (!c.err.empty()) {
    EXPECT_THAT(r.err, HasSubstr(c.err));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, KcmCommandLineTest,
    ::testing::Values(
        CommandLineCase{{"--version"}, 0, "Kubernetes v1.33.0-kcm.0", ""},
        CommandLineCase{{"--help"}, 0, "--leader-elect-lease-duration duration", ""},
        CommandLineCase{{"--no-such-flag"}, 1, "", "Error: unknown flag: --no-such-flag"},
        CommandLineCase{
            {"extra"}, 1, "", R"(Error: "kcm" does not take any arguments, got ["extra"])"},
        // Errors met once logging has started are logged, as cli.Run does.
        CommandLineCase{
            {"--controllers=*,bogus"},
            1,
            "",
            R"("command failed" err="\"bogus\" is not in the list of known controllers")"},
        CommandLineCase{
            {"--emulated-version=1.34"},
            1,
            "",
            R"("command failed" err="emulation version 1.34 is not between [1.31, 1.33.0]")"},
        CommandLineCase{{"--feature-gates=Nope=true"},
                        1,
                        "",
                        R"("command failed" err="unrecognized feature gate: Nope")"},
        // Any gate of kube-controller-manager 1.33 is accepted.
        CommandLineCase{{"--feature-gates=SchedulerQueueingHints=false,WatchListClient=true",
                         "--emulated-version=1.32", "--version"},
                        0,
                        "Kubernetes v1.33.0-kcm.0",
                        ""},
        CommandLineCase{
            {"--kube-api-qps=fast"}, 1, "", R"(invalid argument "fast" for "--kube-api-qps" flag)"},
        CommandLineCase{{"--leader-elect-lease-duration=10"},
                        1,
                        "",
                        R"(invalid argument "10" for "--leader-elect-lease-duration" flag)"},
        CommandLineCase{{"--kubeconfig=/nonexistent/kubeconfig", "--secure-port=0"},
                        1,
                        "",
                        "/nonexistent/kubeconfig"}));

class KcmAppTest : public ::testing::Test {
 protected:
  LocalCluster cluster_;
  Kubectl kubectl_{cluster_};

  // The Lease's holderIdentity ("" when none or on error).
  std::string lease_holder() {
    const CommandResult r =
        kubectl_({"get", "lease", "-n", "kube-system", "kube-controller-manager", "-o",
                  "jsonpath={.spec.holderIdentity}"});
    return r.exit_code == 0 ? r.out : "";
  }
};

TEST_F(KcmAppTest, ServesHealthzAndMetricsAndStopsOnSigterm) {
  KcmProcess kcm(cluster_, kFastLeaderElection);
  ASSERT_TRUE(eventually([&] { return kcm.get("/healthz").status == 200; })) << kcm.log();
  EXPECT_EQ(kcm.get("/healthz").body, "ok");

  // Once leading, one check per running controller besides leaderElection.
  ASSERT_TRUE(eventually([&] {
    return kcm.get("/healthz?verbose").body.find("[+]replicaset-controller ok") !=
           std::string::npos;
  })) << kcm.get("/healthz?verbose").body
      << kcm.log();
  const std::string verbose = kcm.get("/healthz?verbose").body;
  EXPECT_THAT(verbose, HasSubstr("[+]leaderElection ok"));
  EXPECT_THAT(verbose, HasSubstr("[+]deployment-controller ok"));
  EXPECT_THAT(verbose, Not(HasSubstr("pod-counter-controller")));  // disabled by default
  EXPECT_THAT(verbose, HasSubstr("healthz check passed"));
  EXPECT_EQ(kcm.get("/healthz/leaderElection").body, "ok");
  EXPECT_EQ(kcm.get("/healthz/no-such-check").status, 404);
  EXPECT_EQ(kcm.get("/readyz").status, 404);  // kcm does not serve it, as upstream

  const std::string metrics = kcm.get("/metrics").body;
  EXPECT_EQ(
      metric_value(metrics, R"(leader_election_master_status{name="kube-controller-manager"})"),
      "1");
  EXPECT_THAT(metrics, HasSubstr("# TYPE workqueue_depth gauge"));
  EXPECT_THAT(metrics, HasSubstr(R"(workqueue_adds_total{name="replicaset"})"));
  EXPECT_THAT(metrics, HasSubstr(R"(workqueue_adds_total{name="deployment"})"));
  EXPECT_EQ(
      metric_value(
          metrics,
          R"(running_managed_controllers{manager="kube-controller-manager",name="replicaset-controller"})"),
      "1");
  EXPECT_THAT(metrics, HasSubstr("# TYPE rest_client_requests_total counter"));
  EXPECT_THAT(
      metrics,
      testing::ContainsRegex(
          R"(rest_client_requests_total\{code="200",host="127.0.0.1:[0-9]+",method="GET"\} [1-9])"));
  EXPECT_THAT(metrics, HasSubstr("# TYPE rest_client_request_duration_seconds histogram"));
  EXPECT_THAT(metrics, HasSubstr("kubernetes_build_info{"));

  // /metrics/slis counts the checks the /healthz requests above ran.
  const std::string slis = kcm.get("/metrics/slis").body;
  EXPECT_EQ(metric_value(slis, R"(kubernetes_healthcheck{name="leaderElection",type="healthz"})"),
            "1");
  EXPECT_EQ(
      metric_value(slis, R"(kubernetes_healthcheck{name="replicaset-controller",type="healthz"})"),
      "1");
  EXPECT_THAT(slis,
              testing::ContainsRegex(R"(kubernetes_healthchecks_total\{name="leaderElection",)"
                                     R"(status="success",type="healthz"\} [1-9])"));
  EXPECT_THAT(metrics, Not(HasSubstr("kubernetes_healthcheck")));

  // /configz: the component configuration, with the flags kcm was started with.
  const auto configz = kcm.get("/configz");
  EXPECT_EQ(configz.status, 200);
  std::error_code ec;
  const json::value cfg = json::parse(configz.body, ec);
  ASSERT_FALSE(ec) << configz.body;
  const json::object& generic =
      cfg.at("kubecontrollermanager.config.k8s.io").at("Generic").as_object();
  EXPECT_EQ(generic.at("ClientConnection").at("Kubeconfig"),
            json::value(cluster_.kubeconfig().string()));
  EXPECT_EQ(generic.at("LeaderElection").at("LeaseDuration"), "3s");
  EXPECT_EQ(generic.at("LeaderElection").at("RetryPeriod"), "500ms");
  EXPECT_EQ(generic.at("Controllers"), json::array{"*"});
  EXPECT_EQ(cfg.at("kubecontrollermanager.config.k8s.io").at("ReplicaSetController"),
            (json::object{{"ConcurrentRSSyncs", 5}}));
  // The z-pages' gates are off by default.
  EXPECT_EQ(kcm.get("/flagz").status, 404);
  EXPECT_EQ(kcm.get("/statusz").status, 404);

  EXPECT_EQ(kcm.stop(SIGTERM), 0) << kcm.log();
  const std::string log = kcm.log();
  EXPECT_THAT(log, HasSubstr("\"Received signal, shutting down\" signal=\"SIGTERM\""));
  EXPECT_THAT(log, HasSubstr("Requested to terminate, exiting"));
  EXPECT_THAT(log, Not(HasSubstr("Controller shutdown timeout reached")));
}

// /flagz and /statusz behind their alpha gates; curl accepts */*.
TEST_F(KcmAppTest, ZpagesServeTheFlagsAndStatusWhenTheirGatesAreOn) {
  KcmProcess kcm(cluster_, {"--leader-elect=false", "--concurrent-deployment-syncs=7",
                            "--feature-gates=ComponentFlagz=true,ComponentStatusz=true"});
  ASSERT_TRUE(eventually([&] { return kcm.get("/healthz").status == 200; })) << kcm.log();
  const auto flagz = kcm.get("/flagz");
  EXPECT_EQ(flagz.status, 200);
  EXPECT_TRUE(
      flagz.body.starts_with("\nkube-controller-manager flags\nWarning: This endpoint is "
                             "not meant to be machine parseable"))
      << flagz.body;
  // One delimiter of four, the same on every line.
  EXPECT_THAT(flagz.body, testing::ContainsRegex("\nconcurrent-deployment-syncs(:|: |=| )7\n"));
  EXPECT_THAT(flagz.body, testing::ContainsRegex("\nleader-elect(:|: |=| )false\n"));
  EXPECT_THAT(flagz.body, testing::ContainsRegex("\nkubeconfig(:|: |=| )/"));

  const auto statusz = kcm.get("/statusz");
  EXPECT_EQ(statusz.status, 200);
  EXPECT_TRUE(statusz.body.starts_with("\nkube-controller-manager statusz\n")) << statusz.body;
  EXPECT_THAT(statusz.body,
              testing::ContainsRegex("\nUp(:|: |=| ) [0-9]+ hr [0-9]{2} min [0-9]{2} sec\n"));
  EXPECT_THAT(statusz.body,
              testing::ContainsRegex("\nBinary version(:|: |=| ) 1\\.33\\.0-kcm\\.0\n"));
  EXPECT_THAT(statusz.body, testing::ContainsRegex("\nEmulation version(:|: |=| ) 1\\.33\n$"));
}

// The gates /metrics reports follow --emulated-version and --feature-gates.
TEST_F(KcmAppTest, EmulatedVersionSetsTheGatesItReports) {
  KcmProcess kcm(cluster_, {"--leader-elect=false", "--emulated-version=1.32",
                            "--feature-gates=SchedulerQueueingHints=false,ClientsAllowCBOR=true"});
  KcmProcess::HttpAnswer metrics;
  ASSERT_TRUE(eventually([&] {
    metrics = kcm.get("/metrics");
    return metrics.status == 200;
  })) << kcm.log();
  for (const char* line : {
           R"(kubernetes_feature_enabled{name="WatchList",stage="BETA"} 1)",  // on in 1.32 only
           R"(kubernetes_feature_enabled{name="SchedulerQueueingHints",stage="BETA"} 0)",
           R"(kubernetes_feature_enabled{name="ClientsAllowCBOR",stage="ALPHA"} 1)",
       }) {
    EXPECT_THAT(metrics.body, HasSubstr(line));
  }
  // New in 1.33: PreAlpha at 1.32, and not reported.
  EXPECT_THAT(metrics.body, Not(HasSubstr("DeploymentReplicaSetTerminatingReplicas")));
}

TEST_F(KcmAppTest, WithoutLeaderElectionRunsAtOnceAndHasNoLeaderCheck) {
  KcmProcess kcm(cluster_, {"--leader-elect=false"});
  ASSERT_TRUE(eventually([&] {
    return kcm.get("/healthz?verbose").body.find("[+]replicaset-controller ok") !=
           std::string::npos;
  })) << kcm.log();
  EXPECT_THAT(kcm.get("/healthz?verbose").body, Not(HasSubstr("leaderElection")));
  EXPECT_EQ(lease_holder(), "");
  EXPECT_EQ(kcm.stop(SIGINT), 0) << kcm.log();
}

TEST_F(KcmAppTest, ControllersFlagChoosesWhatRuns) {
  KcmProcess kcm(cluster_,
                 {"--leader-elect=false", "--controllers=*,-deployment,pod-counter-controller"});
  ASSERT_TRUE(eventually([&] {
    return kcm.get("/healthz?verbose").body.find("[+]pod-counter-controller ok") !=
           std::string::npos;
  })) << kcm.log();
  const std::string verbose = kcm.get("/healthz?verbose").body;
  EXPECT_THAT(verbose, HasSubstr("[+]replicaset-controller ok"));
  EXPECT_THAT(verbose, Not(HasSubstr("deployment-controller")));
  EXPECT_THAT(kcm.log(),
              HasSubstr(R"("Warning: controller is disabled" controller="deployment-controller")"));
}

TEST_F(KcmAppTest, TwoProcessesOneLeaderHandOverWithinTheLease) {
  KcmProcess first(cluster_, kFastLeaderElection);
  ASSERT_TRUE(eventually([&] { return !lease_holder().empty(); })) << first.log();
  KcmProcess second(cluster_, kFastLeaderElection);
  ASSERT_TRUE(eventually([&] { return second.get("/healthz").status == 200; })) << second.log();

  // Exactly one leads: the Lease names it and only its metric says 1.
  const std::string holder = lease_holder();
  const auto leading = [](KcmProcess& p) {
    return metric_value(p.get("/metrics").body,
                        R"(leader_election_master_status{name="kube-controller-manager"})");
  };
  ASSERT_TRUE(eventually([&] { return leading(first) == "1"; })) << first.log();
  std::this_thread::sleep_for(std::chrono::seconds(2));  // a few retry periods of the second
  EXPECT_NE(leading(second), "1");
  EXPECT_THAT(second.log(), Not(HasSubstr("successfully acquired lease")));
  EXPECT_THAT(second.get("/healthz?verbose").body, Not(HasSubstr("replicaset-controller")));

  // The leader stops (without releasing the Lease, as upstream): the other
  // takes over once the lease duration has passed.
  ASSERT_EQ(first.stop(SIGTERM), 0) << first.log();
  const auto stopped = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return leading(second) == "1"; }, std::chrono::seconds(15)))
      << second.log();
  const auto took = std::chrono::steady_clock::now() - stopped;
  EXPECT_LT(took, std::chrono::seconds(3) + std::chrono::seconds(3))
      << "hand-over took longer than the lease duration plus a margin";
  EXPECT_NE(lease_holder(), holder);
  EXPECT_THAT(second.log(), HasSubstr("successfully acquired lease"));
  EXPECT_EQ(second.stop(SIGTERM), 0) << second.log();
}

TEST_F(KcmAppTest, LosingTheLeaseExitsNonZero) {
  KcmProcess kcm(cluster_, kFastLeaderElection);
  ASSERT_TRUE(eventually([&] { return !lease_holder().empty(); })) << kcm.log();
  // The API server goes away: renewals fail until the renew deadline passes.
  cluster_.kill();
  ASSERT_TRUE(eventually([&] { return !kcm.running(); }, std::chrono::seconds(20))) << kcm.log();
  EXPECT_EQ(kcm.stop(SIGKILL), 1) << kcm.log();
  EXPECT_THAT(kcm.log(), HasSubstr("leaderelection lost"));
  cluster_.start();
}

// Both processes allocate with jemalloc configured by cmd/allocator_config.cc
// (one arena, a background thread returning free pages): the background
// thread shows that the configuration took effect. Builds without jemalloc
// (-DKCM_JEMALLOC=OFF) skip.
TEST_F(KcmAppTest, BothProcessesRunJemallocWithItsBackgroundThread) {
  KcmProcess kcm(cluster_);
  ASSERT_TRUE(eventually([&] { return kcm.get("/healthz").status == 200; })) << kcm.log();
  if (!maps_library(kcm.pid(), "libjemalloc")) GTEST_SKIP() << "kcm is not linked with jemalloc";
  for (const pid_t pid : {cluster_.pid(), kcm.pid()}) {
    EXPECT_TRUE(maps_library(pid, "libjemalloc")) << "pid " << pid;
    EXPECT_TRUE(eventually([&] {
      const auto names = thread_names(pid);
      return std::find(names.begin(), names.end(), "jemalloc_bg_thd") != names.end();
    })) << "pid "
        << pid << " has no jemalloc_bg_thd thread";
  }
}

}  // namespace
}  // namespace kcm::e2e
