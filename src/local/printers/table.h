// Server-side Table printing: the meta.k8s.io/v1 Table that `kubectl get`
// asks for (Accept ...;as=Table;g=meta.k8s.io;v=v1) and prints cell by cell.
// A TablePrinter holds one kind's columns and the function that turns an
// object into a row, as upstream's pkg/printers handlers do; to_table() wraps
// rows into the Table shape and attaches each row's object as the request's
// includeObject policy says. Pure functions of their input: no I/O, no clock.
#pragma once

#include <chrono>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::local::printers {

namespace json = api::json;

using TimePoint = std::chrono::system_clock::time_point;

// metav1.TableColumnDefinition. Columns with priority > 0 are the `-o wide` ones.
struct ColumnDefinition {
  std::string_view name;
  std::string_view type;    // "string", "integer", "date", ...
  std::string_view format;  // "name" for the object's name column, else ""
  std::string_view description;
  int priority = 0;
};

// What a row function may depend on besides the object.
struct PrintContext {
  TimePoint now;
  // upstream GenerateOptions.Wide; the API server always prints wide.
  bool wide = true;
};

// One metav1.TableRow without its object (to_table attaches that).
struct Row {
  json::array cells;
  json::array conditions;  // TableRowCondition values; omitted from JSON when empty
};

using RowFunction = Row (*)(const json::object& object, const PrintContext& context);

// One kind's columns and row function.
struct TablePrinter {
  std::span<const ColumnDefinition> columns;
  RowFunction print_row = nullptr;
  // upstream's DefaultTableConvertor never allocates its rows, so an empty
  // list encodes as "rows":null where the kind printers send "rows":[].
  bool null_rows_when_empty = false;
};

// metav1.IncludeObjectPolicy: what each row's "object" carries.
enum class IncludeObject {
  kNone,      // "object": null
  kMetadata,  // a PartialObjectMetadata (the default)
  kObject,    // the whole object (kubectl --sort-by asks for it)
};

// The ?includeObject= value: "" and "Metadata", "None", "Object". Anything
// else is upstream's BadRequest message: `unrecognized includeObject value: "x"`.
Result<IncludeObject> parse_include_object(std::string_view value);

// The Table's group version (kubectl offers v1 first, v1beta1 second).
enum class TableVersion { kV1, kV1beta1 };

struct TableOptions {
  IncludeObject include_object = IncludeObject::kMetadata;
  // metav1.TableOptions.NoHeaders: "columnDefinitions":null. The watch handler
  // sets it after the first event so that headers go out only once.
  bool no_headers = false;
  // GenerateOptions.Wide: false leaves out priority > 0 columns and their cells.
  bool wide = true;
  TableVersion version = TableVersion::kV1;
};

// "meta.k8s.io/v1" or "meta.k8s.io/v1beta1".
std::string_view table_api_version(TableVersion version);

// The Table for `objects` (one for a GET or a watch event, all items for a
// list): kind/apiVersion, metadata.resourceVersion and metadata.continue (each
// omitted when empty), columnDefinitions, then one row per object in order.
// Null entries in `objects` are skipped.
json::object to_table(const TablePrinter& printer, const std::vector<const json::object*>& objects,
                      const TableOptions& options, std::string_view list_resource_version,
                      std::string_view continue_token, TimePoint now);

// The same for printers built at run time (custom resources' columns).
using RowPrinter = std::function<Row(const json::object& object, const PrintContext& context)>;
json::object to_table(std::span<const ColumnDefinition> columns, const RowPrinter& print_row,
                      bool null_rows_when_empty, const std::vector<const json::object*>& objects,
                      const TableOptions& options, std::string_view list_resource_version,
                      std::string_view continue_token, TimePoint now);

// The column definition as JSON ({name,type,format,description,priority}).
json::object column_to_json(const ColumnDefinition& column);

}  // namespace kcm::local::printers
