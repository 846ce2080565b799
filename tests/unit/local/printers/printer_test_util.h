// Shared helpers of the printer tests: JSON literals, a fixed clock and the
// cells of a one-object table.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/time.h"
#include "local/printers/printers.h"
#include "local/printers/table.h"

namespace kcm::local::printers::testing {

inline api::json::object parse_object(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  if (!v || !v->is_object()) {
    ADD_FAILURE() << "bad JSON in test: " << error << "\n" << text;
    return {};
  }
  return std::move(v->as_object());
}

inline TimePoint at(std::string_view rfc3339) {
  auto t = api::Time::parse(rfc3339);
  if (!t) {
    ADD_FAILURE() << t.error();
    return {};
  }
  return t->time_point();
}

// Every test's "now".
inline TimePoint now() {
  return at("2026-11-30T12:00:00Z");
}

// The table of one object.
inline api::json::object table_of(const TablePrinter& printer, const api::json::object& object,
                                  TableOptions options = {}) {
  return to_table(printer, {&object}, options, "", "", now());
}

// The cells of the single row printed for `object`.
inline api::json::array cells_of(const TablePrinter& printer, const api::json::object& object,
                                 TableOptions options = {}) {
  api::json::object table = table_of(printer, object, options);
  const api::json::array& rows = table.at("rows").as_array();
  if (rows.size() != 1) {
    ADD_FAILURE() << "expected one row, got " << rows.size();
    return {};
  }
  return rows[0].as_object().at("cells").as_array();
}

// Cells as compact JSON, for readable failures: ["a",1,"b"].
inline std::string cells_json(const TablePrinter& printer, std::string_view object_json,
                              TableOptions options = {}) {
  return api::to_json_string(cells_of(printer, parse_object(object_json), options));
}

inline const TablePrinter& printer_for(std::string_view group, std::string_view kind) {
  const TablePrinter* p = find_printer(group, kind);
  if (p == nullptr) {
    ADD_FAILURE() << "no printer for " << group << "/" << kind;
    return default_printer();
  }
  return *p;
}

}  // namespace kcm::local::printers::testing
