// What kcm runs: a controller built from the ControllerContext, started once
// caches may be requested and stopped by its stop token (upstream
// controller.Interface plus the `Run(ctx, workers)` every controller has).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "app/controller_debug.h"
#include "app/healthz.h"

namespace kcm::app {

class Controller {
 public:
  virtual ~Controller() = default;

  // Blocks: waits for the controller's caches, runs its workers until `stop`
  // is requested, then lets the workers finish the keys they hold and returns.
  virtual void run(std::stop_token stop) = 0;

  // The check served at /healthz/<controller name>; nullopt serves a ping
  // (upstream's HealthCheckable, or NamedPingChecker when not implemented).
  virtual std::optional<HealthCheck> health_check() const { return std::nullopt; }

  // Served at /debug/controllers/<controller name> and below; null for none
  // (upstream's Debuggable, which most controllers do not implement).
  virtual DebugHandler debug_handler() const { return nullptr; }
};

// A Controller from a run function (and an optional health check and debug
// handler), for controllers whose class already has a run(workers, stop):
//   return make_controller([c](std::stop_token s) { c->run(workers, s); });
std::unique_ptr<Controller> make_controller(std::function<void(std::stop_token)> run,
                                            std::optional<HealthCheck> health = std::nullopt,
                                            DebugHandler debug = nullptr);

}  // namespace kcm::app
