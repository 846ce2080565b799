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
