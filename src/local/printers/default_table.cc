// upstream's rest.DefaultTableConvertor, for kinds without a printer (custom
// resources among them): NAME and CREATED AT, the creation time in RFC 3339.
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kDefaultColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Created At", "date", "", kCreationTimestampDescription, 0},
};

Row print_default(const json::object& object, const PrintContext& /*context*/) {
  Row row;
  row.cells.emplace_back(object_name(object));
  // Go formats the zero time too: "0001-01-01T00:00:00Z".
  row.cells.emplace_back(
      time_at(api::find_object(object, "metadata"), "creationTimestamp").to_string());
  return row;
}

}  // namespace

const TablePrinter& default_table_printer() {
  static constexpr TablePrinter kPrinter{kDefaultColumns, &print_default, true};
  return kPrinter;
}

}  // namespace kcm::local::printers
