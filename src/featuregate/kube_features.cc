#include "featuregate/kube_features.h"

namespace kcm::featuregate {

const std::vector<Feature>& kube_features() {
  static const std::vector<Feature> features = {
      {std::string(kDeploymentReplicaSetTerminatingReplicas),
       {{33, false, Stage::kAlpha}, {35, true, Stage::kBeta}}},
      {std::string(kLogarithmicScaleDown),
       {{21, false, Stage::kAlpha}, {22, true, Stage::kBeta}, {31, true, Stage::kGA, true}}},
      {std::string(kPodDeletionCost), {{21, false, Stage::kAlpha}, {22, true, Stage::kBeta}}},
  };
  return features;
}

}  // namespace kcm::featuregate
