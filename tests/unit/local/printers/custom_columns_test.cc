// A custom resource's Table (upstream's CRD tableconvertor): NAME, then the
// additionalPrinterColumns with typed cells read through their JSONPaths.
#include "local/printers/custom_columns.h"

#include <gtest/gtest.h>

#include <chrono>

namespace kcm::local::printers {
namespace {

// 2026-11-30T12:00:00Z
const TimePoint kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1796040000));

json::object widget() {
  return json::parse(R"({"apiVersion":"example.com/v1","kind":"Widget",
    "metadata":{"name":"w1","namespace":"default","creationTimestamp":"2026-11-30T11:55:00Z"},
    "spec":{"size":3,"ratio":2.5,"ok":true,"tags":["a","b"],"when":"2026-11-30T10:00:00Z"},
    "status":{"conditions":[{"type":"Ready","status":"True"}]}})")
      .as_object();
}

json::object table_of(const std::vector<CustomColumn>& columns, bool wide = true) {
  auto printer = CustomColumnsPrinter::create(columns);
  EXPECT_TRUE(printer) << (printer ? "" : printer.error());
  const json::object w = widget();
  TableOptions options;
  options.wide = wide;
  return (*printer)->to_table({&w}, options, "42", "", kNow);
}

TEST(CustomColumnsPrinterTest, CellsTakeTheColumnsTypes) {
  const json::object table = table_of({
      {"Size", "integer", "", "", 0, ".spec.size"},
      {"Ratio", "number", "", "", 0, ".spec.ratio"},
      {"SizeAsNumber", "number", "", "", 0, ".spec.size"},
      {"OK", "boolean", "", "", 0, ".spec.ok"},
      {"Ready", "string", "", "", 0, R"(.status.conditions[?(@.type=="Ready")].status)"},
      {"Tags", "string", "", "", 0, ".spec.tags"},
      {"Size2", "string", "", "", 0, ".spec.size"},
      {"Wrong", "integer", "", "", 0, ".spec.ok"},
      {"Missing", "string", "", "", 0, ".spec.nothing"},
      {"When", "date", "", "", 0, ".spec.when"},
      {"Age", "date", "", "", 0, ".metadata.creationTimestamp"},
  });
  EXPECT_EQ(json::serialize(table.at("rows").at(0).at("cells")),
            R"(["w1",3,2.5E0,3E0,true,"True","[\"a\",\"b\"]","3",null,null,"120m","5m"])");
  EXPECT_EQ(table.at("metadata").at("resourceVersion"), "42");
}

TEST(CustomColumnsPrinterTest, ColumnDefinitionsStartWithName) {
  const json::object table = table_of({{"Size", "integer", "int32", "How big.", 0, ".spec.size"},
                                       {"Ratio", "number", "", "", 1, ".spec.ratio"}});
  const json::array& columns = table.at("columnDefinitions").as_array();
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[0].at("name"), "Name");
  EXPECT_EQ(columns[0].at("format"), "name");
  EXPECT_EQ(
      json::serialize(columns[1]),
      R"({"name":"Size","type":"integer","format":"int32","description":"How big.","priority":0})");
  EXPECT_EQ(columns[2].at("description"),
            "Custom resource definition column (in JSONPath format): .spec.ratio");
  EXPECT_EQ(columns[2].at("priority"), 1);
}

TEST(CustomColumnsPrinterTest, NarrowTablesLeaveOutPriorityColumns) {
  const json::object table = table_of(
      {{"Size", "integer", "", "", 0, ".spec.size"}, {"Ratio", "number", "", "", 1, ".spec.ratio"}},
      /*wide=*/false);
  EXPECT_EQ(table.at("columnDefinitions").as_array().size(), 2u);
  EXPECT_EQ(json::serialize(table.at("rows").at(0).at("cells")), R"(["w1",3])");
}

TEST(CustomColumnsPrinterTest, UnparsablePathIsRefused) {
  auto printer = CustomColumnsPrinter::create({{"Bad", "string", "", "", 0, ".spec["}});
  ASSERT_FALSE(printer);
  EXPECT_EQ(printer.error(), R"(unrecognized column definition ".spec[")");
}

TEST(CustomColumnsPrinterTest, InvalidDateReadsInvalid) {
  const json::object table = table_of({{"When", "date", "", "", 0, ".metadata.name"}});
  EXPECT_EQ(json::serialize(table.at("rows").at(0).at("cells")), R"(["w1","<invalid>"])");
}

}  // namespace
}  // namespace kcm::local::printers
