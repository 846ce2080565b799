// ConfigMaps: NAME DATA AGE (upstream printConfigMap).
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kConfigMapColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    // Upstream declares the column a string and fills it with a number.
    {"Data", "string", "",
     "Data contains the configuration data. Each key must consist of alphanumeric characters, "
     "'-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The "
     "keys stored in Data must not overlap with the keys in the BinaryData field, this is "
     "enforced during validation process.",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
};

Row print_config_map(const json::object& config_map, const PrintContext& context) {
  Row row;
  row.cells.emplace_back(object_name(config_map));
  row.cells.emplace_back(map_len_at(&config_map, "data") + map_len_at(&config_map, "binaryData"));
  row.cells.emplace_back(creation_age(config_map, context.now));
  return row;
}

}  // namespace

const TablePrinter& config_map_printer() {
  static constexpr TablePrinter kPrinter{kConfigMapColumns, &print_config_map};
  return kPrinter;
}

}  // namespace kcm::local::printers
