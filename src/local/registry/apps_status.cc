#include "local/registry/apps_status.h"

namespace kcm::local::registry {

void drop_disabled_status_fields(json::object& obj, const json::object& old,
                                 const ApiFeatures& features) {
  if (features.terminating_replicas) return;
  const json::object* old_status = api::find_object(old, "status");
  if (old_status != nullptr) {
    const json::value* kept = old_status->if_contains("terminatingReplicas");
    if (kept != nullptr && !kept->is_null()) return;
  }
  if (json::value* status = obj.if_contains("status"); status && status->is_object()) {
    status->get_object().erase("terminatingReplicas");
  }
}

}  // namespace kcm::local::registry
