#include "local/registry/apps_defaults.h"

#include "local/registry/field_access.h"
#include "local/registry/pod_defaults.h"

namespace kcm::local::registry {

void apply_deployment_defaults(json::object& deployment) {
  json::object& spec = object_at(deployment, "spec");
  set_if_unset(spec, "replicas", 1);
  json::object& strategy = object_at(spec, "strategy");
  set_if_empty_string(strategy, "type", "RollingUpdate");
  if (string_member(strategy, "type") == "RollingUpdate") {
    json::object& rolling = object_at(strategy, "rollingUpdate");
    set_if_unset(rolling, "maxUnavailable", "25%");
    set_if_unset(rolling, "maxSurge", "25%");
  }
  set_if_unset(spec, "revisionHistoryLimit", 10);
  set_if_unset(spec, "progressDeadlineSeconds", 600);
  apply_pod_template_defaults(object_at(spec, "template"));
}

void apply_replica_set_defaults(json::object& replica_set) {
  json::object& spec = object_at(replica_set, "spec");
  set_if_unset(spec, "replicas", 1);
  apply_pod_template_defaults(object_at(spec, "template"));
}

}  // namespace kcm::local::registry
