// coordination.k8s.io/v1 Lease: no status, no generation, no defaults.
#include "local/registry/lease_validation.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class LeaseStrategy final : public Strategy {
 public:
  api::FieldErrors validate(const json::object& obj) const override { return validate_lease(obj); }
};

}  // namespace

std::shared_ptr<const Strategy> lease_strategy() {
  return std::make_shared<LeaseStrategy>();
}

}  // namespace kcm::local::registry
