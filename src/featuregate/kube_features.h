// The Kubernetes feature gates, with upstream's history of each: every gate
// kube-controller-manager 1.33 accepts in --feature-gates (pkg/features, the
// generic apiserver's, apiextensions', client-go's, logging's, metrics' and
// zpages' gates). Clusters pass one --feature-gates line to all their
// components, so kcm accepts them all, though its controllers consult only
// the ones named below. Each component sees the gates at its own version:
// FeatureGate(kube_features(), minor).
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
