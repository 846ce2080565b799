// The Deployment controller as kcm runs it (upstream
// newDeploymentControllerDescriptor / startDeploymentController).
#include <memory>

#include "app/controller_descriptor.h"
#include "controllers/deployment/deployment_controller.h"

namespace kcm::app {

ControllerDescriptor new_deployment_controller_descriptor() {
  return {
      .name = controllers::deployment::kControllerName,
      .init = [](const ControllerContext& ctx) -> Result<std::unique_ptr<Controller>> {
        auto clients = ctx.client(controllers::deployment::kControllerName);
        if (!clients.ok()) return fail(clients.error());
        auto controller = std::make_shared<controllers::deployment::DeploymentController>(
            *clients, ctx.informers,
            ctx.recorder(controllers::deployment::kControllerName, **clients),
            controllers::deployment::DeploymentControllerOptions{
                .terminating_replicas = ctx.options.features.enabled(
                    featuregate::kDeploymentReplicaSetTerminatingReplicas)});
        const int workers = ctx.options.concurrent_deployment_syncs;
        return make_controller(
            [controller, workers](std::stop_token stop) { controller->run(workers, stop); });
      },
  };
}

}  // namespace kcm::app
