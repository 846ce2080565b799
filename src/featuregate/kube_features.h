// The Kubernetes feature gates kcm and kcm-local consult, with upstream's
// history of each (pkg/features/kube_features.go). Each component sees them
// at its own version: FeatureGate(kube_features(), minor).
#pragma once

#include <string_view>
#include <vector>

#include "featuregate/feature_gate.h"

namespace kcm::featuregate {

// status.terminatingReplicas on Deployments and ReplicaSets (KEP 3973):
// alpha in 1.33, beta and on from 1.35.
inline constexpr std::string_view kDeploymentReplicaSetTerminatingReplicas =
    "DeploymentReplicaSetTerminatingReplicas";
// The ReplicaSet controller ranks pods to delete by the
// controller.kubernetes.io/pod-deletion-cost annotation: beta and on since 1.22.
inline constexpr std::string_view kPodDeletionCost = "PodDeletionCost";
// The ReplicaSet controller compares pod ages on a log scale when it scales
// down: GA and locked on since 1.31.
inline constexpr std::string_view kLogarithmicScaleDown = "LogarithmicScaleDown";

const std::vector<Feature>& kube_features();

}  // namespace kcm::featuregate
