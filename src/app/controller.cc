#include "app/controller.h"

#include <utility>

namespace kcm::app {
namespace {

class FunctionController final : public Controller {
 public:
  FunctionController(std::function<void(std::stop_token)> run, std::optional<HealthCheck> health,
                     DebugHandler debug)
      : run_(std::move(run)), health_(std::move(health)), debug_(std::move(debug)) {}
  void run(std::stop_token stop) override { run_(stop); }
  std::optional<HealthCheck> health_check() const override { return health_; }
  DebugHandler debug_handler() const override { return debug_; }

 private:
  const std::function<void(std::stop_token)> run_;
  const std::optional<HealthCheck> health_;
  const DebugHandler debug_;
};

}  // namespace

std::unique_ptr<Controller> make_controller(std::function<void(std::stop_token)> run,
                                            std::optional<HealthCheck> health, DebugHandler debug) {
  return std::make_unique<FunctionController>(std::move(run), std::move(health), std::move(debug));
}

}  // namespace kcm::app
