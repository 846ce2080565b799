// Leases: NAME HOLDER AGE (upstream printLease).
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kLeaseColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Holder", "string", "",
     "holderIdentity contains the identity of the holder of a current lease. If Coordinated "
     "Leader Election is used, the holder identity must be equal to the elected "
     "LeaseCandidate.metadata.name field.",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
};

Row print_lease(const json::object& lease, const PrintContext& context) {
  Row row;
  row.cells.emplace_back(object_name(lease));
  row.cells.emplace_back(string_at(api::find_object(lease, "spec"), "holderIdentity"));
  row.cells.emplace_back(creation_age(lease, context.now));
  return row;
}

}  // namespace

const TablePrinter& lease_printer() {
  static constexpr TablePrinter kPrinter{kLeaseColumns, &print_lease};
  return kPrinter;
}

}  // namespace kcm::local::printers
