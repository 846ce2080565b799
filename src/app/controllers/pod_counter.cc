// The pod counter as kcm runs it: examples/pod-counter's controller, built
// from the ControllerContext. Disabled by default; enable it with
// --controllers=*,pod-counter-controller.
#include <memory>

#include "app/controller_descriptor.h"
#include "controllers/podcounter/pod_counter_controller.h"

namespace kcm::app {

ControllerDescriptor new_pod_counter_controller_descriptor() {
  using controllers::podcounter::kControllerName;
  return {
      .name = kControllerName,
      .init = [](const ControllerContext& ctx) -> Result<std::unique_ptr<Controller>> {
        auto clients = ctx.client(kControllerName);
        if (!clients.ok()) return fail(clients.error());
        auto controller = std::make_shared<controllers::podcounter::PodCounterController>(
            *clients, ctx.informers, ctx.recorder(kControllerName, **clients));
        // One worker: the controller has a single queue key (see its sync).
        return make_controller([controller](std::stop_token stop) { controller->run(1, stop); });
      },
  };
}

}  // namespace kcm::app
