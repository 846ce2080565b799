#include "local/printers/table.h"

#include <string>

#include "api/field_error.h"

namespace kcm::local::printers {

namespace {

// What upstream's asTable puts in a row for each includeObject policy.
json::value row_object(const json::object& object, IncludeObject include,
                       std::string_view api_version) {
  switch (include) {
    case IncludeObject::kNone:
      return nullptr;
    case IncludeObject::kObject:
      return object;
    case IncludeObject::kMetadata:
      break;
  }
  // meta.AsPartialObjectMetadata: the object's whole ObjectMeta, typed as
  // PartialObjectMetadata in the Table's own group version.
  json::object partial;
  partial["kind"] = "PartialObjectMetadata";
  partial["apiVersion"] = api_version;
  const json::value* metadata = object.if_contains("metadata");
  if (metadata != nullptr && metadata->is_object()) {
    partial["metadata"] = *metadata;
  } else {
    partial["metadata"] = json::object();
  }
  return partial;
}

}  // namespace

Result<IncludeObject> parse_include_object(std::string_view value) {
  if (value.empty() || value == "Metadata") return IncludeObject::kMetadata;
  if (value == "None") return IncludeObject::kNone;
  if (value == "Object") return IncludeObject::kObject;
  return fail("unrecognized includeObject value: " + api::go_quote(value));
}

std::string_view table_api_version(TableVersion version) {
  return version == TableVersion::kV1beta1 ? "meta.k8s.io/v1beta1" : "meta.k8s.io/v1";
}

json::object column_to_json(const ColumnDefinition& column) {
  json::object out;
  out["name"] = column.name;
  out["type"] = column.type;
  out["format"] = column.format;
  out["description"] = column.description;
  out["priority"] = column.priority;
  return out;
}

json::object to_table(const TablePrinter& printer, const std::vector<const json::object*>& objects,
                      const TableOptions& options, std::string_view list_resource_version,
                      std::string_view continue_token, TimePoint now) {
  return to_table(printer.columns, printer.print_row, printer.null_rows_when_empty, objects,
                  options, list_resource_version, continue_token, now);
}

json::object to_table(std::span<const ColumnDefinition> column_definitions,
                      const RowPrinter& print_row, bool null_rows_when_empty,
                      const std::vector<const json::object*>& objects, const TableOptions& options,
                      std::string_view list_resource_version, std::string_view continue_token,
                      TimePoint now) {
  const std::string_view api_version = table_api_version(options.version);
  json::object table;
  table["kind"] = "Table";
  table["apiVersion"] = api_version;

  json::object metadata;
  if (!list_resource_version.empty()) metadata["resourceVersion"] = list_resource_version;
  if (!continue_token.empty()) metadata["continue"] = continue_token;
  table["metadata"] = std::move(metadata);

  if (options.no_headers) {
    table["columnDefinitions"] = nullptr;
  } else {
    json::array columns;
    for (const ColumnDefinition& column : column_definitions) {
      if (!options.wide && column.priority != 0) continue;
      columns.push_back(column_to_json(column));
    }
    table["columnDefinitions"] = std::move(columns);
  }

  const PrintContext context{now, options.wide};
  json::array rows;
  for (const json::object* object : objects) {
    if (object == nullptr) continue;
    Row row = print_row(*object, context);
    json::object out;
    out["cells"] = std::move(row.cells);
    if (!row.conditions.empty()) out["conditions"] = std::move(row.conditions);
    out["object"] = row_object(*object, options.include_object, api_version);
    rows.push_back(std::move(out));
  }
  if (rows.empty() && null_rows_when_empty) {
    table["rows"] = nullptr;
  } else {
    table["rows"] = std::move(rows);
  }
  return table;
}

}  // namespace kcm::local::printers
