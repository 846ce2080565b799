// The README's first command, scripts/run, end to end: with --bin-dir it skips
// installing and building and uses this build's kcm-local and kcm; it starts
// both, rolls out examples/nginx-deployment.yaml and a new image with the real
// kubectl, prints the history and, with --exit-after-demo, stops both.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <regex>
#include <sstream>

#include "local_cluster.h"
#include "subprocess.h"

namespace kcm::e2e {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

// KCM_TEST_DATA_DIR is <repo>/tests/data.
std::filesystem::path repo_root() {
  return std::filesystem::path(KCM_TEST_DATA_DIR).parent_path().parent_path();
}

std::string run_script() {
  return (repo_root() / "scripts" / "run").string();
}

// The pids scripts/run printed for its processes ("... (pid 123, log ...)").
std::vector<pid_t> printed_pids(const std::string& out) {
  std::vector<pid_t> pids;
  static const std::regex pid_re(R"(\(pid (\d+), log )");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), pid_re); it != std::sregex_iterator();
       ++it) {
    pids.push_back(static_cast<pid_t>(std::stoi((*it)[1])));
  }
  return pids;
}

bool process_exists(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno != ESRCH;
}

// The lines of `text` equal to `line`.
int count_lines(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  int n = 0;
  for (std::string l; std::getline(in, l);)
    n += l == line ? 1 : 0;
  return n;
}

class MainJobTest : public ::testing::Test {
 protected:
  // A fresh HOME (kubectl's cache, no ~/.kcm-local) and data directory.
  TempDir dir_{"kcm-main-job-"};
  std::filesystem::path data_dir_ = dir_.path() / "data";

  std::vector<std::string> argv(std::vector<std::string> flags) const {
    std::vector<std::string> a = {"bash",
                                  run_script(),
                                  "--bin-dir",
                                  KCM_BIN_DIR,
                                  "--data-dir",
                                  data_dir_.string(),
                                  "--listen",
                                  "127.0.0.1:0",
                                  "--pod-ready-delay=300ms",
                                  "--pod-terminate-delay=300ms",
                                  "--local-arg=--unsafe-no-fsync"};
    a.insert(a.end(), flags.begin(), flags.end());
    return a;
  }
  std::map<std::string, std::string> env() const {
    return {{"HOME", dir_.path().string()},
            {"KUBECACHEDIR", (dir_.path() / "kubecache").string()},
            {"KUBECONFIG", ""},
            {"KCM_BIN_DIR", ""},
            {"KCM_LOCAL_HOME", ""}};
  }
  CommandResult run(std::vector<std::string> flags,
                    std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    CommandResult r = run_command(argv(std::move(flags)), env(), {}, timeout);
    // A killed script leaves its processes behind: end them.
    if (r.timed_out) {
      for (pid_t pid : printed_pids(r.out))
        ::kill(pid, SIGKILL);
    }
    return r;
  }
  std::string log(const std::string& name) const {
    return read_file(data_dir_ / "logs" / (name + ".log"));
  }
  std::string logs() const {
    return "\n--- kcm-local.log ---\n" + log("kcm-local") + "\n--- kcm.log ---\n" + log("kcm");
  }
};

TEST_F(MainJobTest, RollsOutBothImagesAndPrintsTheHistory) {
  const CommandResult r = run({"--exit-after-demo", "--timeout", "120"});
  ASSERT_EQ(r.exit_code, 0) << describe(r) << logs();

  const std::string& out = r.out;
  // Both processes ran from this build, logging under the data directory.
  EXPECT_THAT(
      out, ContainsRegex(R"(kcm-local: serving on https://127\.0\.0\.1:[0-9]+ \(pid [0-9]+, log )" +
                         data_dir_.string() + "/logs/kcm-local.log\\)"));
  EXPECT_THAT(out, ContainsRegex(R"(kcm: running \(pid [0-9]+, log )" + data_dir_.string() +
                                 "/logs/kcm.log\\)"));
  EXPECT_THAT(log("kcm-local"), HasSubstr("kcm-local: SIGTERM received, shutting down"));
  EXPECT_THAT(log("kcm"), Not(testing::IsEmpty()));

  EXPECT_THAT(out, HasSubstr("$ kubectl apply -f examples/nginx-deployment.yaml\n"
                             "deployment.apps/nginx created\n"));
  // The first rollout ends with six nginx:1.25 pods of revision 1 ready ...
  EXPECT_THAT(out, ContainsRegex(R"(deployment/nginx: desired 6, updated 6, ready 6, available 6 )"
                                 R"(\| nginx-[a-z0-9]+ rev 1 nginx:1\.25 6/6/6 )"
                                 R"(\(deployment "nginx" successfully rolled out\))"));
  // ... the second with revision 1 scaled to zero and six nginx:1.27 pods.
  EXPECT_THAT(out, HasSubstr("$ kubectl set image deployment/nginx nginx=nginx:1.27\n"
                             "deployment.apps/nginx image updated\n"));
  EXPECT_THAT(out, ContainsRegex(R"(deployment/nginx: desired 6, updated 6, ready 6, available 6 )"
                                 R"(\| nginx-[a-z0-9]+ rev 1 nginx:1\.25 0/0/0 )"
                                 R"(\| nginx-[a-z0-9]+ rev 2 nginx:1\.27 6/6/6 )"
                                 R"(\(deployment "nginx" successfully rolled out\))"));
  // kubectl's own verdict, once per rollout.
  EXPECT_EQ(count_lines(out, "deployment \"nginx\" successfully rolled out"), 2) << out;
  // The progress shows a moment with pods of both revisions (lines only when
  // something changed).
  EXPECT_THAT(out, ContainsRegex(R"(rev 1 nginx:1\.25 [0-6]/[1-6]/[0-9] \| nginx-[a-z0-9]+ rev 2 )"
                                 R"(nginx:1\.27 [1-6]/[1-6]/)"));

  EXPECT_THAT(out, HasSubstr("$ kubectl rollout history deployment/nginx\n"
                             "deployment.apps/nginx \n"));
  // (POSIX regular expressions: "\n" must be a real newline.)
  EXPECT_THAT(out,
              ContainsRegex("REVISION +CHANGE-CAUSE\n"
                            R"(1 +kubectl apply -f examples/nginx-deployment\.yaml \(nginx:1\.25\))"
                            "\n"
                            R"(2 +kubectl set image deployment/nginx nginx=nginx:1\.27)"
                            "\n"));

  EXPECT_THAT(out, HasSubstr("kcm stopped\nkcm-local stopped\n"));
  // Not a terminal: plain lines, no escape codes.
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  const std::vector<pid_t> pids = printed_pids(out);
  ASSERT_EQ(pids.size(), 2u) << out;
  for (pid_t pid : pids)
    EXPECT_FALSE(process_exists(pid)) << pid;
}

TEST_F(MainJobTest, NoDemoStartsTheClusterAndStopsOnSignal) {
  const std::filesystem::path out_log = dir_.path() / "run.log";
  for (const int signal : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGTERM");
    struct sigaction current {};
    ::sigaction(SIGINT, nullptr, &current);
    if (signal == SIGINT && current.sa_handler == SIG_IGN) {
      // A shell cannot trap a signal it was started with ignored (as for a
      // background job of a non-interactive shell).
      continue;
    }
    std::filesystem::remove(out_log);
    Process script(argv({"--no-demo"}), out_log, env());
    const bool up = eventually(
        [&] {
          return read_file(out_log).find("Ctrl-C stops both.") != std::string::npos ||
                 !script.running();
        },
        std::chrono::seconds(60));
    const std::string out = read_file(out_log);
    ASSERT_TRUE(up && script.running()) << out << logs();
    EXPECT_THAT(out, HasSubstr("export KUBECONFIG=" + data_dir_.string() + "/kubeconfig\n"));
    EXPECT_THAT(out, Not(HasSubstr("nginx")));
    const std::vector<pid_t> pids = printed_pids(out);
    ASSERT_EQ(pids.size(), 2u) << out;

    EXPECT_EQ(script.stop(signal, std::chrono::seconds(60)), 0) << read_file(out_log);
    EXPECT_THAT(read_file(out_log),
                HasSubstr("Stopping kcm and kcm-local...\nkcm stopped\nkcm-local stopped\n"));
    for (pid_t pid : pids) {
      EXPECT_FALSE(process_exists(pid)) << pid;
      if (process_exists(pid)) ::kill(pid, SIGKILL);
    }
  }
}

TEST_F(MainJobTest, ReportsAProcessThatDiesEarly) {
  // kcm refuses an unknown flag at once.
  const CommandResult r = run({"--no-demo", "--exit-after-demo", "--kcm-arg=--no-such-flag"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err,
              ContainsRegex(R"(scripts/run: kcm exited unexpectedly \(exit code [1-9][0-9]*\))"))
      << describe(r);
  EXPECT_THAT(r.err, HasSubstr("--- last lines of " + data_dir_.string() + "/logs/kcm.log ---\n"));
  EXPECT_THAT(r.err, HasSubstr("no-such-flag")) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("kcm-local stopped\n"));
  for (pid_t pid : printed_pids(r.out))
    EXPECT_FALSE(process_exists(pid)) << pid;
}

TEST_F(MainJobTest, RefusesBadFlags) {
  struct Case {
    std::vector<std::string> args;
    std::string error;
  } cases[] = {
      {{"--bin-dir", "/nonexistent"},
       "scripts/run: /nonexistent/kcm-local is missing; build it with: scripts/build kcm-local\n"},
      {{"--timeout", "soon"},
       "scripts/run: --timeout: expected a whole number of seconds, got \"soon\"\n"},
      {{"--nodes", "0"},
       "scripts/run: --nodes 0 runs no pods, so the demo cannot roll anything out; add "
       "--no-demo\n"},
      {{"--bogus"}, "scripts/run: unknown flag \"--bogus\" (see --help)\n"},
      {{"--kcm-arg"}, "scripts/run: --kcm-arg needs a value (see --help)\n"},
      {{"--no-demo=yes"}, "scripts/run: --no-demo takes no value\n"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> a = {"bash", run_script()};
    a.insert(a.end(), c.args.begin(), c.args.end());
    const CommandResult r = run_command(a, env());
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_EQ(r.err, c.error);
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace kcm::e2e
