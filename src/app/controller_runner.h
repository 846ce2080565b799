// Building and running the enabled controllers (upstream BuildControllers and
// RunControllers), apart from where the context comes from, so the rules are
// testable with fake descriptors.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "api/result.h"
#include "app/controller.h"
#include "app/controller_descriptor.h"
#include "app/healthz.h"

namespace kcm::app {

struct BuiltController {
  std::string name;
  std::unique_ptr<Controller> controller;
};

// Builds every descriptor enabled by `resolved_controllers` (the validated
// --controllers list), in order. A disabled one logs "Warning: controller is
// disabled", a skipped one (nullptr) "Warning: skipping controller"; the first
// error is returned as `error starting controller "<name>": <err>`.
Result<std::vector<BuiltController>> build_controllers(
    const std::vector<ControllerDescriptor>& descriptors,
    const std::vector<std::string>& resolved_controllers, const ControllerContext& context);

// One check per built controller, named after it: its own, or a ping.
std::vector<NamedHealthCheck> controller_health_checks(
    const std::vector<BuiltController>& controllers);

// Mounts each built controller's debug handler under its name (upstream
// mounts them as it builds the controllers). An error names a duplicate.
Result<void> install_debug_handlers(const std::vector<BuiltController>& controllers,
                                    ControllerDebugHandlers& handlers);

// Canonical names enabled by `resolved_controllers` that kcm has no
// descriptor for (upstream runs them; kcm says once that it does not).
std::vector<std::string> unimplemented_controllers(
    const std::vector<ControllerDescriptor>& descriptors,
    const std::vector<std::string>& resolved_controllers);

struct RunHooks {
  // running_managed_controllers: called on the controller's thread.
  std::function<void(const std::string& name)> started;
  std::function<void(const std::string& name)> stopped;
};

// Runs each controller on its own thread ("Started controller") until `stop`,
// then waits up to `shutdown_timeout` for all of them to return, logging the
// names still running every timeout/3 (5s when the timeout is 0). Returns
// false when the timeout expired ("Controller shutdown timeout reached"); the
// stragglers' threads are then detached, still using their controllers, so
// the caller must exit without destroying `controllers`.
bool run_controllers(std::vector<BuiltController>& controllers, std::stop_token stop,
                     std::chrono::nanoseconds shutdown_timeout, const RunHooks& hooks = {});

}  // namespace kcm::app
