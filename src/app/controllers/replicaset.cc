// The ReplicaSet controller as kcm runs it (upstream
// newReplicaSetControllerDescriptor / startReplicaSetController).
#include <memory>

#include "app/controller_descriptor.h"
#include "controllers/replicaset/replica_set_controller.h"

namespace kcm::app {

ControllerDescriptor new_replica_set_controller_descriptor() {
  return {
      .name = controllers::replicaset::kControllerName,
      .init = [](const ControllerContext& ctx) -> Result<std::unique_ptr<Controller>> {
        auto clients = ctx.client(controllers::replicaset::kControllerName);
        if (!clients.ok()) return fail(clients.error());
        const featuregate::FeatureGate& features = ctx.options.features;
        auto controller = std::make_shared<controllers::replicaset::ReplicaSetController>(
            *clients, ctx.informers,
            ctx.recorder(controllers::replicaset::kControllerName, **clients),
            /*pod_control=*/nullptr, controllers::replicaset::kBurstReplicas,
            controllers::replicaset::ReplicaSetControllerOptions{
                .terminating_replicas =
                    features.enabled(featuregate::kDeploymentReplicaSetTerminatingReplicas),
                .rank = {.pod_deletion_cost = features.enabled(featuregate::kPodDeletionCost),
                         .logarithmic_scale_down =
                             features.enabled(featuregate::kLogarithmicScaleDown)}});
        const int workers = ctx.options.concurrent_replicaset_syncs;
        return make_controller(
            [controller, workers](std::stop_token stop) { controller->run(workers, stop); });
      },
  };
}

}  // namespace kcm::app
