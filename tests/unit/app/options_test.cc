#include "app/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "app/controller_names.h"
#include "app/flag_set.h"

namespace kcm::app {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

CommandLine parse(std::vector<std::string> args, Options& o) {
  return parse_command_line(args, o);
}

TEST(OptionsTest, DefaultsAreUpstreams) {
  Options o;
  const CommandLine cl = parse({}, o);
  ASSERT_TRUE(cl.run) << cl.err;
  EXPECT_EQ(o.controllers, std::vector<std::string>{"*"});
  EXPECT_EQ(o.concurrent_deployment_syncs, 5);
  EXPECT_EQ(o.concurrent_replicaset_syncs, 5);
  EXPECT_EQ(o.concurrent_gc_syncs, 20);
  EXPECT_FLOAT_EQ(o.kube_api_qps, 20);
  EXPECT_EQ(o.kube_api_burst, 30);
  EXPECT_EQ(o.min_resync_period, std::chrono::hours(12));
  EXPECT_TRUE(o.leader_election.leader_elect);
  EXPECT_EQ(o.leader_election.lease_duration, std::chrono::seconds(15));
  EXPECT_EQ(o.leader_election.renew_deadline, std::chrono::seconds(10));
  EXPECT_EQ(o.leader_election.retry_period, std::chrono::seconds(2));
  EXPECT_EQ(o.leader_election.resource_name, "kube-controller-manager");
  EXPECT_EQ(o.leader_election.resource_namespace, "kube-system");
  EXPECT_EQ(o.secure_port, 10257);
  EXPECT_EQ(o.bind_address, "0.0.0.0");
  EXPECT_TRUE(o.profiling);
  EXPECT_FALSE(o.contention_profiling);
}

TEST(OptionsTest, EveryFlagSetsItsField) {
  Options o;
  const CommandLine cl = parse({"--kubeconfig=/k",
                                "--master",
                                "https://m:6443",
                                "--controllers=*,-deployment",
                                "--concurrent-deployment-syncs=7",
                                "--concurrent_replicaset_syncs",
                                "8",
                                "--concurrent-gc-syncs=9",
                                "--kube-api-qps=12.5",
                                "--kube-api-burst=40",
                                "--min-resync-period=1h30m",
                                "--leader-elect=false",
                                "--leader-elect-lease-duration=30s",
                                "--leader-elect-renew-deadline=20s",
                                "--leader-elect-retry-period=5s",
                                "--leader-elect-resource-name=x",
                                "--leader-elect-resource-namespace=y",
                                "--bind-address=127.0.0.1",
                                "--secure-port=0",
                                "--profiling=false",
                                "--contention-profiling",
                                "-v=4"},
                               o);
  ASSERT_TRUE(cl.run) << cl.err;
  EXPECT_EQ(o.kubeconfig, "/k");
  EXPECT_EQ(o.master, "https://m:6443");
  // Aliases are rewritten to canonical names.
  EXPECT_EQ(o.controllers, (std::vector<std::string>{"*", "-deployment-controller"}));
  EXPECT_EQ(o.concurrent_deployment_syncs, 7);
  EXPECT_EQ(o.concurrent_replicaset_syncs, 8);
  EXPECT_EQ(o.concurrent_gc_syncs, 9);
  EXPECT_FLOAT_EQ(o.kube_api_qps, 12.5);
  EXPECT_EQ(o.kube_api_burst, 40);
  EXPECT_EQ(o.min_resync_period, std::chrono::minutes(90));
  EXPECT_FALSE(o.leader_election.leader_elect);
  EXPECT_EQ(o.leader_election.lease_duration, std::chrono::seconds(30));
  EXPECT_EQ(o.leader_election.renew_deadline, std::chrono::seconds(20));
  EXPECT_EQ(o.leader_election.retry_period, std::chrono::seconds(5));
  EXPECT_EQ(o.leader_election.resource_name, "x");
  EXPECT_EQ(o.leader_election.resource_namespace, "y");
  EXPECT_EQ(o.bind_address, "127.0.0.1");
  EXPECT_EQ(o.secure_port, 0);
  EXPECT_FALSE(o.profiling);
  EXPECT_TRUE(o.contention_profiling);
  EXPECT_EQ(o.verbosity, 4);
}

struct BadCase {
  std::vector<std::string> args;
  // The last line on stderr; for an error upstream meets after logging has
  // started, "command failed: " and the error kcm logs.
  std::string error;
};

TEST(OptionsTest, BadCommandLinesAreRefusedWithPflagsWording) {
  const std::vector<BadCase> cases = {
      {{"--nope"}, "Error: unknown flag: --nope"},
      {{"-x"}, "Error: unknown shorthand flag: 'x' in -x"},
      {{"--kubeconfig"}, "Error: flag needs an argument: --kubeconfig"},
      {{"--kube-api-qps=fast"},
       "Error: invalid argument \"fast\" for \"--kube-api-qps\" flag: strconv.ParseFloat: "
       "parsing \"fast\": invalid syntax"},
      {{"--kube-api-burst=1.5"},
       "Error: invalid argument \"1.5\" for \"--kube-api-burst\" flag: strconv.ParseInt: "
       "parsing \"1.5\": invalid syntax"},
      {{"--concurrent-gc-syncs=99999999999"},
       "Error: invalid argument \"99999999999\" for \"--concurrent-gc-syncs\" flag: "
       "strconv.ParseInt: parsing \"99999999999\": value out of range"},
      {{"--leader-elect=maybe"},
       "Error: invalid argument \"maybe\" for \"--leader-elect\" flag: strconv.ParseBool: "
       "parsing \"maybe\": invalid syntax"},
      {{"--min-resync-period=5"},
       "Error: invalid argument \"5\" for \"--min-resync-period\" flag: time: missing unit in "
       "duration \"5\""},
      {{"-v", "high"},
       "Error: invalid argument \"high\" for \"-v, --v\" flag: strconv.ParseInt: parsing "
       "\"high\": invalid syntax"},
      {{"extra", "args"}, "Error: \"kcm\" does not take any arguments, got [\"extra\" \"args\"]"},
      {{"--controllers=*,-nosuch"},
       "command failed: \"nosuch\" is not in the list of known controllers"},
      {{"--leader-elect-resource-lock=endpoints"},
       "command failed: resourceLock value must be \"leases\""},
      {{"--secure-port=70000"},
       "command failed: --secure-port 70000 must be between 0 and 65535, inclusive. 0 for "
       "turning off "
       "secure port"},
      {{"--concurrent-replicaset-syncs=0", "--leader-elect-renew-deadline=20s"},
       "command failed: [leaseDuration must be greater than renewDeadline, "
       "--concurrent-replicaset-syncs must be greater than 0, got 0]"},
  };
  for (const BadCase& c : cases) {
    Options o;
    const CommandLine cl = parse(c.args, o);
    EXPECT_FALSE(cl.run) << c.error;
    EXPECT_EQ(cl.exit_code, 1) << c.error;
    std::string last = cl.err;
    if (!last.empty() && last.back() == '\n') last.pop_back();
    last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
    if (!cl.command_failed.empty()) {
      EXPECT_EQ(cl.err, "") << c.error;
      last = "command failed: " + cl.command_failed;
    }
    EXPECT_EQ(last, c.error);
  }
}

TEST(OptionsTest, FlagErrorsPrintUsageFirst) {
  Options o;
  const CommandLine cl = parse({"--nope"}, o);
  EXPECT_THAT(cl.err, StartsWith("Usage:\n  kcm [flags]\n"));
}

TEST(OptionsTest, HelpPrintsSectionsAndExitsZero) {
  Options o;
  const CommandLine cl = parse({"--help"}, o);
  EXPECT_FALSE(cl.run);
  EXPECT_EQ(cl.exit_code, 0);
  EXPECT_THAT(cl.out, HasSubstr("Usage:\n  kcm [flags]\n"));
  EXPECT_THAT(cl.out, HasSubstr("Generic flags:"));
  // DebuggingOptions register first upstream, so their section leads.
  EXPECT_THAT(cl.out, HasSubstr("kcm [flags]\n\nDebugging flags:\n\n      --contention-profiling"));
  EXPECT_THAT(cl.out, HasSubstr("--profiling              Enable profiling via web interface "
                                "host:port/debug/pprof/ (default true)"));
  EXPECT_THAT(cl.out, HasSubstr("--kube-api-qps float32"));
  EXPECT_THAT(cl.out, HasSubstr("(default 20)"));
  EXPECT_THAT(cl.out, HasSubstr("--controllers strings"));
  EXPECT_THAT(cl.out, HasSubstr("(default [*])"));
  EXPECT_THAT(cl.out, HasSubstr("  -v, --v int32"));
  EXPECT_THAT(cl.out, HasSubstr("(default \"kube-controller-manager\")"));
  EXPECT_THAT(cl.out, HasSubstr("Disabled-by-default controllers: bootstrap-signer-controller, "
                                "pod-counter-controller, selinux-warning-controller, "
                                "token-cleaner-controller"));
  Options o2;
  EXPECT_EQ(parse({"-h"}, o2).out, cl.out);
}

TEST(OptionsTest, Version) {
  Options o;
  CommandLine cl = parse({"--version"}, o);
  EXPECT_FALSE(cl.run);
  EXPECT_EQ(cl.exit_code, 0);
  EXPECT_EQ(cl.out, "Kubernetes " + std::string(kcm_version()) + "\n");
  Options o2;
  EXPECT_EQ(parse({"--version=v9.9.9"}, o2).out, "Kubernetes v9.9.9\n");
  Options o3;
  EXPECT_EQ(parse({"--version=bogus"}, o3).exit_code, 1);
}

TEST(OptionsTest, FeatureGatesFlagSetsTheGatesAtKcmsVersion) {
  Options o;
  EXPECT_FALSE(o.features.enabled(featuregate::kDeploymentReplicaSetTerminatingReplicas));
  // Repeated uses add up; "kube:" may be given on every entry.
  CommandLine cl =
      parse({"--feature-gates=kube:DeploymentReplicaSetTerminatingReplicas=true", "--feature-gates",
             "kube:PodDeletionCost=false,kube:LogarithmicScaleDown=true"},
            o);
  ASSERT_TRUE(cl.run) << cl.err;
  EXPECT_TRUE(o.features.enabled(featuregate::kDeploymentReplicaSetTerminatingReplicas));
  EXPECT_FALSE(o.features.enabled(featuregate::kPodDeletionCost));
  EXPECT_EQ(cl.warnings, (std::vector<std::string>{"Setting GA feature gate "
                                                   "LogarithmicScaleDown=true. It will be "
                                                   "removed in a future release."}));
  EXPECT_THAT(
      cl.flag_lines,
      testing::Contains("FLAG: --feature-gates=\"kube:DeploymentReplicaSetTerminatingReplicas="
                        "true,kube:PodDeletionCost=false,kube:LogarithmicScaleDown=true\""));
  Options unprefixed;
  cl = parse({"--feature-gates= AllAlpha=true , PodDeletionCost=false"}, unprefixed);
  ASSERT_TRUE(cl.run) << cl.err;
  EXPECT_TRUE(unprefixed.features.enabled(featuregate::kDeploymentReplicaSetTerminatingReplicas));
  EXPECT_THAT(cl.flag_lines,
              testing::Contains("FLAG: --feature-gates=\":AllAlpha=true,:PodDeletionCost=false\""));
}

TEST(OptionsTest, BadFeatureGatesAreRefusedBeforeTheCommandRuns) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--feature-gates=Nope=true"}, "unrecognized feature gate: Nope"},
      {{"--feature-gates=wardle:A=true"}, "component not registered: wardle"},
      {{"--feature-gates=kube:AllBeta=true,AllAlpha=true"},
       "set kube feature gates with default empty prefix or kube: prefix consistently, do "
       "not mix use"},
      {{"--feature-gates=PodDeletionCost"}, "missing bool value for PodDeletionCost"},
      {{"--feature-gates=PodDeletionCost=on"},
       "invalid value of PodDeletionCost=on, err: strconv.ParseBool: parsing \"on\": "
       "invalid syntax"},
      {{"--feature-gates=LogarithmicScaleDown=false"},
       "cannot set feature gate LogarithmicScaleDown to false, feature is locked to "
       "true"},
      // As upstream, the gates are applied before --version is looked at.
      {{"--feature-gates=Nope=true", "--version"}, "unrecognized feature gate: Nope"},
  };
  for (const auto& [args, err] : cases) {
    Options o;
    const CommandLine cl = parse(args, o);
    EXPECT_FALSE(cl.run) << args[0];
    EXPECT_EQ(cl.exit_code, 1) << args[0];
    EXPECT_EQ(cl.err, "") << args[0];
    EXPECT_EQ(cl.command_failed, err) << args[0];
    EXPECT_TRUE(cl.flag_lines.empty()) << args[0];  // before the command runs
  }
}

TEST(OptionsTest, HelpListsTheFeatureGatesWithTheirComponent) {
  Options o;
  const CommandLine cl = parse({"--help"}, o);
  EXPECT_THAT(cl.out, HasSubstr("--feature-gates colonSeparatedMultimapStringString"));
  // Continuation lines start under the first line's text, as pflag prints them.
  const auto at = cl.out.find("--feature-gates colonSeparatedMultimapStringString");
  const auto text_column = cl.out.find("Comma-separated", at) - cl.out.rfind('\n', at) - 1;
  EXPECT_THAT(cl.out, HasSubstr("\n" + std::string(text_column, ' ') +
                                "kube:DeploymentReplicaSetTerminatingReplicas=true|false (ALPHA - "
                                "default=false)\n"));
  EXPECT_THAT(cl.out, HasSubstr("kube:AllBeta=true|false (BETA - default=false)"));
  EXPECT_THAT(cl.out, testing::Not(HasSubstr("kube:LogarithmicScaleDown")));  // GA: not listed
}

TEST(ControllerNamesTest, EnablementFollowsUpstreamRules) {
  struct Case {
    std::vector<std::string> flag;
    std::string name;
    bool enabled;
  };
  const std::vector<Case> cases = {
      {{"*"}, "replicaset-controller", true},
      {{"*"}, "token-cleaner-controller", false},                 // disabled by default
      {{"*", "tokencleaner"}, "token-cleaner-controller", true},  // alias, explicit
      {{"*", "-replicaset"}, "replicaset-controller", false},
      {{"-replicaset", "replicaset"}, "replicaset-controller", false},  // first match wins
      {{"replicaset", "-replicaset"}, "replicaset-controller", true},
      {{"deployment"}, "replicaset-controller", false},  // no star
      {{"deployment"}, "deployment-controller", true},
      {{}, "deployment-controller", false},
      {{"*"}, "pod-counter-controller", false},
      {{"*", "pod-counter-controller"}, "pod-counter-controller", true},
  };
  for (const Case& c : cases) {
    auto resolved = resolve_controllers(c.flag);
    ASSERT_TRUE(resolved) << resolved.error();
    EXPECT_EQ(is_controller_enabled(c.name, *resolved), c.enabled)
        << c.name << " with " << ::testing::PrintToString(c.flag);
  }
}

TEST(ControllerNamesTest, RegistryIsSortedUniqueAndAliasesDontCollide) {
  const auto& names = known_controllers();
  EXPECT_EQ(names.size(), 51u);  // upstream's 50 and kcm's pod counter
  std::set<std::string_view> seen;
  for (const auto& c : names) {
    EXPECT_TRUE(seen.insert(c.name).second) << c.name;
    for (auto a : c.aliases)
      EXPECT_TRUE(seen.insert(a).second) << a;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
}

TEST(FlagSetTest, StringSlicesReplaceTheDefaultThenAppend) {
  std::vector<std::string> v = {"*"};
  FlagSet f("t");
  f.add_string_slice("list", &v, "");
  ASSERT_TRUE(f.parse({"--list=a,b", "--list", "\"c,d\",e"}));
  EXPECT_EQ(v, (std::vector<std::string>{"a", "b", "c,d", "e"}));
  EXPECT_EQ(f.parse({"--list=a\"b"}).error(),
            "invalid argument \"a\\\"b\" for \"--list\" flag: parse error on line 1, column 2: "
            "bare \" in non-quoted-field");
}

TEST(FlagSetTest, BooleansTakeNoSeparateValueAndDoubleDashEndsFlags) {
  bool b = false;
  std::string s;
  FlagSet f("t");
  f.add_bool("on", &b, "");
  f.add_string("name", &s, "");
  auto rest = f.parse({"--on", "false", "--name", "x", "--", "--on"});
  ASSERT_TRUE(rest) << rest.error();
  EXPECT_TRUE(b);
  EXPECT_EQ(s, "x");
  EXPECT_EQ(*rest, (std::vector<std::string>{"false", "--on"}));
  EXPECT_TRUE(f.changed("on"));
  EXPECT_EQ(f.print_flags(),
            (std::vector<std::string>{"FLAG: --name=\"x\"", "FLAG: --on=\"true\""}));
}

TEST(OptionsTest, EmulatedVersionMovesTheFeatureGates) {
  Options o;
  CommandLine cl = parse({"--emulated-version=kube=1.32"}, o);
  ASSERT_TRUE(cl.run) << cl.command_failed;
  EXPECT_EQ(o.emulation, (featuregate::MajorMinor{1, 32}));
  EXPECT_TRUE(o.features.enabled("WatchList"));  // beta and on in 1.32, off in 1.33
  EXPECT_FALSE(o.features.enabled(featuregate::kDeploymentReplicaSetTerminatingReplicas));
  EXPECT_THAT(cl.flag_lines, testing::Contains("FLAG: --emulated-version=\"[kube=1.32]\""));

  Options own;
  ASSERT_TRUE(parse({}, own).run);
  EXPECT_EQ(own.emulation, (featuregate::MajorMinor{1, 33}));
  EXPECT_FALSE(own.features.enabled("WatchList"));

  // A gate newer than the emulated version is PreAlpha, whatever the flags' order.
  Options pre;
  cl = parse(
      {"--feature-gates=DeploymentReplicaSetTerminatingReplicas=true", "--emulated-version=1.32"},
      pre);
  EXPECT_FALSE(cl.run);
  EXPECT_EQ(cl.command_failed,
            "cannot set feature gate DeploymentReplicaSetTerminatingReplicas to true, feature is "
            "PreAlpha at emulated version 1.32");
}

TEST(OptionsTest, BadEmulatedVersions) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--emulated-version=1.foo"}, "illegal version string \"1.foo\""},
      {{"--emulated-version=1.31.2"}, "patch version not allowed, got: kube=1.31.2"},
      {{"--emulated-version=1.31", "--emulated-version=kube=1.32"},
       "duplicate version flag, kube=1.31 and kube=1.32"},
      {{"--emulated-version=wardle=1.2"}, "component not registered: wardle"},
      {{"--emulated-version=foo", "--version"}, "could not parse \"foo\" as version"},
      // The range is checked with the other options, after the flags are printed.
      {{"--emulated-version=1.34"}, "emulation version 1.34 is not between [1.31, 1.33.0]"},
      {{"--emulated-version=1.30"},
       "[emulation version 1.30 is not between [1.31, 1.33.0], minCompatibilityVersion version "
       "1.31 is not between [1.31, 1.30]]"},
  };
  for (const auto& [args, error] : cases) {
    Options o;
    const CommandLine cl = parse(args, o);
    EXPECT_FALSE(cl.run) << args[0];
    EXPECT_EQ(cl.exit_code, 1) << args[0];
    EXPECT_EQ(cl.err, "") << args[0];
    EXPECT_EQ(cl.command_failed, error) << args[0];
  }
  // An out-of-range version still lets --version print, as upstream.
  Options o;
  const CommandLine cl = parse({"--emulated-version=1.34", "--version"}, o);
  EXPECT_EQ(cl.exit_code, 0);
  EXPECT_EQ(cl.out, "Kubernetes v1.33.0-kcm.0\n");
}

TEST(OptionsTest, HelpDescribesEmulatedVersion) {
  Options o;
  const CommandLine cl = parse({"--help"}, o);
  EXPECT_THAT(cl.out,
              HasSubstr("      --emulated-version strings                           The versions "
                        "different components emulate their capabilities (APIs, features, ...) "
                        "of.\n"));
  EXPECT_THAT(cl.out, HasSubstr("'--emulated-version=wardle=1.2,kube=1.31'. Options are:\n"
                                "                                                           "
                                "kube=1.31..1.33 (default=1.33)If the component is not specified, "
                                "defaults to \"kube\"\n"));
  // Every gate kcm accepts but the GA and deprecated ones, as upstream lists them.
  EXPECT_THAT(cl.out, HasSubstr("kube:SchedulerQueueingHints=true|false (BETA - default=true)\n"));
  EXPECT_THAT(cl.out, testing::Not(HasSubstr("kube:SidecarContainers=")));
}

}  // namespace
}  // namespace kcm::app
