#include "local/printers/printers.h"

#include "local/printers/kinds.h"

namespace kcm::local::printers {

const TablePrinter* find_printer(std::string_view group, std::string_view kind) {
  if (group.empty()) {
    if (kind == "Pod") return &pod_printer();
    if (kind == "Node") return &node_printer();
    if (kind == "Namespace") return &namespace_printer();
    if (kind == "Event") return &event_printer();
    if (kind == "ConfigMap") return &config_map_printer();
    if (kind == "Secret") return &secret_printer();
    if (kind == "Service") return &service_printer();
    return nullptr;
  }
  if (group == "apps") {
    if (kind == "Deployment") return &deployment_printer();
    if (kind == "ReplicaSet") return &replica_set_printer();
    return nullptr;
  }
  if (group == "coordination.k8s.io" && kind == "Lease") return &lease_printer();
  if (group == "events.k8s.io" && kind == "Event") return &events_v1_printer();
  return nullptr;
}

const TablePrinter& default_printer() {
  return default_table_printer();
}

}  // namespace kcm::local::printers
