// The printer of each kind, one per file (pod.cc, node.cc, ...). Internal to
// local/printers: callers go through find_printer().
#pragma once

#include "local/printers/table.h"

namespace kcm::local::printers {

const TablePrinter& pod_printer();
const TablePrinter& node_printer();
const TablePrinter& namespace_printer();
const TablePrinter& event_printer();      // core/v1 Event
const TablePrinter& events_v1_printer();  // events.k8s.io/v1 Event
const TablePrinter& deployment_printer();
const TablePrinter& replica_set_printer();
const TablePrinter& lease_printer();
const TablePrinter& config_map_printer();
const TablePrinter& secret_printer();
const TablePrinter& service_printer();
const TablePrinter& default_table_printer();

}  // namespace kcm::local::printers
