// ConfigMaps and Secrets: their table cells.
#include <gtest/gtest.h>

#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::printer_for;

TEST(ConfigMapPrinterTest, CountsDataAndBinaryDataKeys) {
  const TablePrinter& config_maps = printer_for("", "ConfigMap");
  ASSERT_EQ(config_maps.columns.size(), 3u);
  EXPECT_EQ(config_maps.columns[1].name, std::string_view("Data"));
  EXPECT_EQ(cells_json(config_maps,
                       R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"app",
                           "creationTimestamp":"2026-11-30T11:57:00Z"},
                           "data":{"a":"1","b":"2"},"binaryData":{"c":"eg=="}})"),
            R"(["app",3,"3m"])");
  EXPECT_EQ(cells_json(config_maps,
                       R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"empty",
                           "creationTimestamp":"2026-11-30T11:00:00Z"}})"),
            R"(["empty",0,"60m"])");
}

TEST(SecretPrinterTest, TypeAndDataKeys) {
  const TablePrinter& secrets = printer_for("", "Secret");
  ASSERT_EQ(secrets.columns.size(), 4u);
  EXPECT_EQ(cells_json(secrets,
                       R"({"kind":"Secret","apiVersion":"v1","metadata":{"name":"tls",
                           "creationTimestamp":"2026-11-30T11:57:00Z"},"type":"kubernetes.io/tls",
                           "data":{"tls.crt":"eA==","tls.key":"eA=="}})"),
            R"(["tls","kubernetes.io/tls",2,"3m"])");
}

}  // namespace
}  // namespace kcm::local::printers
