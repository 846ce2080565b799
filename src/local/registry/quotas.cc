// core/v1 ResourceQuota and LimitRange: served so that `kubectl describe
// namespace` finds them; nothing in kcm-local enforces them yet.
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class ResourceQuotaStrategy final : public Strategy {
 public:
  void prepare_for_create(json::object& obj) const override { obj["status"] = json::object(); }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "status");
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
  }
};

}  // namespace

std::shared_ptr<const Strategy> resource_quota_strategy() {
  return std::make_shared<ResourceQuotaStrategy>();
}
std::shared_ptr<const Strategy> limit_range_strategy() {
  return std::make_shared<Strategy>();
}

}  // namespace kcm::local::registry
