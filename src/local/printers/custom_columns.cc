#include "local/printers/custom_columns.h"

#include <fmt/format.h>

#include <cmath>

#include "api/field_error.h"
#include "api/time.h"
#include "local/printers/cells.h"

namespace kcm::local::printers {
namespace {

// A cell of a non-string column (upstream cellForJSONValue): the value when
// it has the column's type, else null.
json::value typed_cell(std::string_view type, const json::value& v, TimePoint now) {
  if (type == "integer") {
    if (v.is_int64() || v.is_uint64()) return v;
    if (v.is_double()) return static_cast<std::int64_t>(v.get_double());
  } else if (type == "number") {
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    if (v.is_double()) return v;
  } else if (type == "boolean") {
    if (v.is_bool()) return v;
  } else if (type == "string") {
    if (v.is_string()) return v;
  } else if (type == "date") {
    if (const json::string* s = v.if_string()) {
      auto t = api::Time::parse(*s);
      if (!t) return "<invalid>";
      return json::string(age(*t, now));
    }
  }
  return nullptr;
}

}  // namespace

Result<std::shared_ptr<const CustomColumnsPrinter>> CustomColumnsPrinter::create(
    const std::vector<CustomColumn>& columns) {
  auto printer = std::make_shared<CustomColumnsPrinter>(Token{});
  for (const CustomColumn& column : columns) {
    auto path = api::JsonPath::parse(column.json_path);
    if (!path) {
      return fail(
          fmt::format("unrecognized column definition {}", api::go_quote(column.json_path)));
    }
    printer->paths_.push_back(std::move(*path));
    CustomColumn c = column;
    if (c.description.empty()) {
      c.description = "Custom resource definition column (in JSONPath format): " + c.json_path;
    }
    printer->columns_.push_back(std::move(c));
  }
  printer->definitions_.push_back({"Name", "string", "name", kNameDescription, 0});
  for (const CustomColumn& c : printer->columns_)
    printer->definitions_.push_back({c.name, c.type, c.format, c.description, c.priority});
  return std::shared_ptr<const CustomColumnsPrinter>(std::move(printer));
}

Row CustomColumnsPrinter::print_row(const json::object& object, const PrintContext& context) const {
  Row row;
  row.cells.emplace_back(object_name(object));
  const json::value root(object);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (!context.wide && columns_[i].priority != 0) continue;
    const auto found = paths_[i].find(root);
    if (found.empty()) {
      row.cells.emplace_back(nullptr);
    } else if (columns_[i].type == "string") {
      row.cells.emplace_back(api::json_path_text(*found.front()));
    } else {
      row.cells.push_back(typed_cell(columns_[i].type, *found.front(), context.now));
    }
  }
  return row;
}

json::object CustomColumnsPrinter::to_table(const std::vector<const json::object*>& objects,
                                            const TableOptions& options,
                                            std::string_view list_resource_version,
                                            std::string_view continue_token, TimePoint now) const {
  return printers::to_table(
      definitions_,
      [this](const json::object& object, const PrintContext& context) {
        return print_row(object, context);
      },
      /*null_rows_when_empty=*/false, objects, options, list_resource_version, continue_token, now);
}

}  // namespace kcm::local::printers
