#include "featuregate/feature_gate.h"

#include <gtest/gtest.h>

#include "featuregate/kube_features.h"

namespace kcm::featuregate {
namespace {

// A small registry with a gate of every stage.
std::vector<Feature> test_features() {
  return {
      {"Alpha", {{30, false, Stage::kAlpha}}},
      {"AlphaThenBeta", {{30, false, Stage::kAlpha}, {32, true, Stage::kBeta}}},
      {"Beta", {{20, true, Stage::kBeta}}},
      {"BetaOff", {{20, false, Stage::kBeta}}},
      {"Locked", {{20, true, Stage::kBeta}, {25, true, Stage::kGA, true}}},
      {"Old", {{10, true, Stage::kDeprecated}}},
      {"Future", {{40, false, Stage::kAlpha}}},
  };
}

TEST(FeatureGateTest, SeesEachGateAtItsVersion) {
  const FeatureGate at31(test_features(), 31);
  EXPECT_FALSE(at31.enabled("AlphaThenBeta"));
  EXPECT_TRUE(at31.enabled("Beta"));
  EXPECT_FALSE(at31.known("Future"));
  EXPECT_TRUE(at31.known("AllAlpha"));
  const FeatureGate at32(test_features(), 32);
  EXPECT_TRUE(at32.enabled("AlphaThenBeta"));
  const FeatureGate at29(test_features(), 29);
  EXPECT_FALSE(at29.known("Alpha"));
}

TEST(FeatureGateTest, SetsNamedGates) {
  FeatureGate g(test_features(), 32);
  auto r = g.set(" Alpha = true ,,Beta=0");
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->empty());
  EXPECT_TRUE(g.enabled("Alpha"));
  EXPECT_FALSE(g.enabled("Beta"));
  // Later calls go on from the current values.
  ASSERT_TRUE(g.set("Beta=T"));
  EXPECT_TRUE(g.enabled("Alpha"));
  EXPECT_TRUE(g.enabled("Beta"));
}

TEST(FeatureGateTest, ErrorsReadAsUpstreamsAndChangeNothing) {
  struct Case {
    std::string value;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"Alpha", "missing bool value for Alpha"},
      {"Alpha=yes",
       "invalid value of Alpha=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"Alpha=true,Nope=true", "unrecognized feature gate: Nope"},
      {"Future=true", "unrecognized feature gate: Future"},
      {"Locked=false", "cannot set feature gate Locked to false, feature is locked to true"},
      {"Locked=false,Nope=true",
       "[cannot set feature gate Locked to false, feature is locked to true, unrecognized "
       "feature gate: Nope]"},
  };
  for (const auto& c : cases) {
    FeatureGate g(test_features(), 32);
    auto r = g.set(c.value);
    ASSERT_FALSE(r) << c.value;
    EXPECT_EQ(r.error(), c.error) << c.value;
    EXPECT_FALSE(g.enabled("Alpha")) << c.value;
  }
}

TEST(FeatureGateTest, WarnsWhenGAOrDeprecatedGatesAreSet) {
  FeatureGate g(test_features(), 32);
  auto r = g.set("Locked=true,Old=false");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(*r, (std::vector<std::string>{
                    "Setting GA feature gate Locked=true. It will be removed in a future release.",
                    "Setting deprecated feature gate Old=false. It will be removed in a future "
                    "release."}));
  EXPECT_FALSE(g.enabled("Old"));
}

TEST(FeatureGateTest, AllAlphaAndAllBetaLeaveNamedGatesAlone) {
  for (const std::string value : {"AllAlpha=true,Alpha=false", "Alpha=false,AllAlpha=true"}) {
    FeatureGate g(test_features(), 31);
    ASSERT_TRUE(g.set(value)) << value;
    EXPECT_FALSE(g.enabled("Alpha")) << value;
    EXPECT_TRUE(g.enabled("AlphaThenBeta")) << value;  // alpha at 1.31
    EXPECT_FALSE(g.enabled("BetaOff")) << value;
    EXPECT_TRUE(g.enabled("AllAlpha")) << value;
  }
  FeatureGate g(test_features(), 32);
  ASSERT_TRUE(g.set("Beta=true"));
  ASSERT_TRUE(g.set("AllBeta=false"));
  EXPECT_TRUE(g.enabled("Beta"));            // named by an earlier call
  EXPECT_FALSE(g.enabled("AlphaThenBeta"));  // beta at 1.32
  EXPECT_TRUE(g.enabled("Locked"));          // GA: not a beta gate
}

TEST(FeatureGateTest, KnownFeaturesListAlphaAndBetaGates) {
  const FeatureGate g(test_features(), 32);
  EXPECT_EQ(g.known_features(), (std::vector<std::string>{
                                    "AllAlpha=true|false (ALPHA - default=false)",
                                    "AllBeta=true|false (BETA - default=false)",
                                    "Alpha=true|false (ALPHA - default=false)",
                                    "AlphaThenBeta=true|false (BETA - default=true)",
                                    "Beta=true|false (BETA - default=true)",
                                    "BetaOff=true|false (BETA - default=false)",
                                }));
}

TEST(FeatureGateTest, StatesCarryStageAndValue) {
  FeatureGate g(test_features(), 32);
  ASSERT_TRUE(g.set("BetaOff=true"));
  const auto states = g.states();
  ASSERT_EQ(states.size(), 8u);
  EXPECT_EQ(states[0].name, "AllAlpha");
  const auto find = [&](std::string_view name) {
    for (const auto& s : states)
      if (s.name == name) return s;
    ADD_FAILURE() << name;
    return FeatureGate::State{};
  };
  EXPECT_TRUE(find("BetaOff").enabled);
  EXPECT_EQ(stage_name(find("Locked").stage), "");
  EXPECT_EQ(stage_name(find("Old").stage), "DEPRECATED");
}

TEST(FeatureGateTest, EmulatesAnEarlierVersion) {
  // A 1.32 binary emulating 1.30.
  FeatureGate g(test_features(), 32, {1, 30});
  EXPECT_FALSE(g.enabled("AlphaThenBeta"));  // its 1.30 spec: alpha, off
  EXPECT_FALSE(g.known("Future"));           // newer than the binary itself
  // Alpha is known to the binary but PreAlpha at 1.29: off, not settable,
  // left out of --help and the metrics.
  FeatureGate old(test_features(), 32, {1, 29});
  EXPECT_TRUE(old.known("Alpha"));
  EXPECT_FALSE(old.enabled("Alpha"));
  EXPECT_EQ(old.set("Alpha=true").error(),
            "cannot set feature gate Alpha to true, feature is PreAlpha at emulated version 1.29");
  EXPECT_EQ(old.set("Alpha=false,AlphaThenBeta=false").error(),
            "[cannot set feature gate Alpha to false, feature is PreAlpha at emulated version "
            "1.29, cannot set feature gate AlphaThenBeta to false, feature is PreAlpha at "
            "emulated version 1.29]");
  ASSERT_TRUE(old.set("AllAlpha=true"));
  EXPECT_FALSE(old.enabled("Alpha"));  // AllAlpha leaves PreAlpha gates alone
  for (const std::string& line : old.known_features()) {
    EXPECT_FALSE(line.starts_with("Alpha=")) << line;
    EXPECT_FALSE(line.starts_with("AlphaThenBeta=")) << line;
  }
  for (const FeatureGate::State& s : old.states())
    EXPECT_NE(s.name, "AlphaThenBeta");
  // A gate locked at the binary's version but not at the emulated one can be
  // set.
  FeatureGate at24(test_features(), 32, {1, 24});
  EXPECT_TRUE(at24.set("Locked=false"));
  EXPECT_FALSE(at24.enabled("Locked"));
}

// Every gate kube-controller-manager 1.33 accepts, as upstream has them.
TEST(KubeFeaturesTest, TableIsSortedWithIncreasingHistories) {
  const std::vector<Feature>& table = kube_features();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(table[i - 1].name, table[i].name);
    }
    ASSERT_FALSE(table[i].history.empty()) << table[i].name;
    for (std::size_t k = 1; k < table[i].history.size(); ++k)
      EXPECT_LT(table[i].history[k - 1].minor, table[i].history[k].minor) << table[i].name;
  }
  const FeatureGate v133(table, 33);
  EXPECT_EQ(v133.states().size(), 191u);          // 189 gates, AllAlpha and AllBeta
  EXPECT_EQ(v133.known_features().size(), 136u);  // GA and deprecated ones are not listed
}

TEST(KubeFeaturesTest, SpotChecksAt133) {
  const FeatureGate v133(kube_features(), 33);
  const auto state = [&](std::string_view name) {
    for (const FeatureGate::State& s : v133.states())
      if (s.name == name) return std::string(stage_name(s.stage)) + (s.enabled ? " on" : " off");
    return std::string("unknown");
  };
  const std::vector<std::pair<std::string_view, std::string>> expected = {
      {"ContextualLogging", "BETA on"},
      {"WatchListClient", "BETA off"},  // client-go's
      {"InformerResourceVersion", "ALPHA off"},
      {"SchedulerQueueingHints", "BETA on"},
      {"WatchList", "BETA off"},  // on in 1.32, off again in 1.33
      {"JobBackoffLimitPerIndex", " on"},
      {"SidecarContainers", " on"},
      {"ComponentSLIs", " on"},  // component-base metrics'
      {"AllowDNSOnlyNodeCSR", "DEPRECATED off"},
      {"CustomCPUCFSQuotaPeriod", "ALPHA off"},              // Go constant CPUCFSQuotaPeriod
      {"ElasticIndexedJob", " on"},                          // removed after 1.33
      {"StatefulSetSemanticRevisionComparison", "unknown"},  // added in 1.34
  };
  for (const auto& [name, want] : expected)
    EXPECT_EQ(state(name), want) << name;
  FeatureGate locked(kube_features(), 33);
  EXPECT_EQ(locked.set("SidecarContainers=false").error(),
            "cannot set feature gate SidecarContainers to false, feature is locked to true");
}

// The gates kcm and kcm-local consult, as upstream has them.
TEST(KubeFeaturesTest, MatchUpstreamAtEachVersion) {
  const FeatureGate v133(kube_features(), 33);
  EXPECT_FALSE(v133.enabled(kDeploymentReplicaSetTerminatingReplicas));
  EXPECT_TRUE(v133.enabled(kPodDeletionCost));
  EXPECT_TRUE(v133.enabled(kLogarithmicScaleDown));
  const FeatureGate v135(kube_features(), 35);
  EXPECT_TRUE(v135.enabled(kDeploymentReplicaSetTerminatingReplicas));
  const FeatureGate v132(kube_features(), 32);
  EXPECT_FALSE(v132.known(kDeploymentReplicaSetTerminatingReplicas));
  FeatureGate locked(kube_features(), 33);
  EXPECT_EQ(locked.set("LogarithmicScaleDown=false").error(),
            "cannot set feature gate LogarithmicScaleDown to false, feature is locked to true");
}

}  // namespace
}  // namespace kcm::featuregate
