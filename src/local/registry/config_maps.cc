// core/v1 ConfigMap: no spec or status, no generation, no defaults.
#include "local/registry/config_map_validation.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class ConfigMapStrategy final : public Strategy {
 public:
  api::FieldErrors validate(const json::object& obj) const override {
    return validate_config_map(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_config_map_update(obj, old);
  }
};

}  // namespace

std::shared_ptr<const Strategy> config_map_strategy() {
  return std::make_shared<ConfigMapStrategy>();
}

}  // namespace kcm::local::registry
