// The Table printer of a custom resource (upstream's CRD tableconvertor):
// NAME, then one column per additionalPrinterColumns entry, each cell read
// from the object with the column's JSONPath and typed as the column says.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "api/json_path.h"
#include "api/result.h"
#include "local/printers/table.h"

namespace kcm::local::printers {

// One additionalPrinterColumns entry.
struct CustomColumn {
  std::string name;
  std::string type;  // integer, number, string, boolean, date
  std::string format;
  std::string description;  // empty: upstream's "Custom resource definition column ..."
  int priority = 0;
  std::string json_path;
};

class CustomColumnsPrinter {
 public:
  // Fails as upstream does for a path it cannot parse:
  // `unrecognized column definition ".spec["`.
  static Result<std::shared_ptr<const CustomColumnsPrinter>> create(
      const std::vector<CustomColumn>& columns);

  json::object to_table(const std::vector<const json::object*>& objects,
                        const TableOptions& options, std::string_view list_resource_version,
                        std::string_view continue_token, TimePoint now) const;

  CustomColumnsPrinter(const CustomColumnsPrinter&) = delete;
  CustomColumnsPrinter& operator=(const CustomColumnsPrinter&) = delete;

 private:
  struct Token {};  // construction goes through create()

 public:
  explicit CustomColumnsPrinter(Token) {}

 private:
  Row print_row(const json::object& object, const PrintContext& context) const;

  std::vector<CustomColumn> columns_;          // with descriptions filled in
  std::vector<api::JsonPath> paths_;           // parallel to columns_
  std::vector<ColumnDefinition> definitions_;  // NAME, then views into columns_
};

}  // namespace kcm::local::printers
