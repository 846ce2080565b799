// The namespace controller as kcm runs it (upstream
// newNamespaceControllerDescriptor / startNamespaceController).
#include <chrono>
#include <memory>

#include "app/controller_descriptor.h"
#include "controllers/namespace/namespace_controller.h"

namespace kcm::app {

ControllerDescriptor new_namespace_controller_descriptor() {
  return {
      .name = controllers::ns::kControllerName,
      .init = [](const ControllerContext& ctx) -> Result<std::unique_ptr<Controller>> {
        // upstream startModifiedNamespaceController: QPS x20, burst x100, for
        // a namespace's deletion issues calls for every resource it may hold.
        auto clients =
            ctx.client_scaled(controllers::ns::kControllerName, {.qps = 20, .burst = 100});
        if (!clients.ok()) return fail(clients.error());
        controllers::ns::NamespaceControllerOptions options;
        options.resync_period = std::chrono::duration_cast<std::chrono::milliseconds>(
            ctx.options.namespace_sync_period);
        auto controller = std::make_shared<controllers::ns::NamespaceController>(
            *clients, ctx.informers, std::move(options));
        const int workers = ctx.options.concurrent_namespace_syncs;
        return make_controller(
            [controller, workers](std::stop_token stop) { controller->run(workers, stop); });
      },
  };
}

}  // namespace kcm::app
