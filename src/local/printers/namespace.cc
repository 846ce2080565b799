// Namespaces: NAME STATUS AGE (upstream printNamespace).
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kNamespaceColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Status", "string", "", "The status of the namespace", 0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
};

Row print_namespace(const json::object& ns, const PrintContext& context) {
  Row row;
  row.cells.emplace_back(object_name(ns));
  row.cells.emplace_back(string_at(api::find_object(ns, "status"), "phase"));
  row.cells.emplace_back(creation_age(ns, context.now));
  return row;
}

}  // namespace

const TablePrinter& namespace_printer() {
  static constexpr TablePrinter kPrinter{kNamespaceColumns, &print_namespace};
  return kPrinter;
}

}  // namespace kcm::local::printers
