// Services: their table cells (upstream printService), one case per type.
#include <gtest/gtest.h>

#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::printer_for;

struct ServiceRowCase {
  const char* name;
  const char* spec_and_status;  // the Service's members after metadata
  const char* cells;
};

class ServicePrinterTest : public ::testing::TestWithParam<ServiceRowCase> {};

TEST_P(ServicePrinterTest, Cells) {
  const TablePrinter& services = printer_for("", "Service");
  const std::string object = std::string(R"({"kind":"Service","apiVersion":"v1","metadata":{)") +
                             R"("name":"web","creationTimestamp":"2026-11-30T11:55:00Z"},)" +
                             GetParam().spec_and_status + "}";
  EXPECT_EQ(cells_json(services, object), GetParam().cells);
}

INSTANTIATE_TEST_SUITE_P(
    Types, ServicePrinterTest,
    ::testing::Values(
        ServiceRowCase{
            "ClusterIP",
            R"("spec":{"type":"ClusterIP","clusterIP":"10.96.12.7",
                           "clusterIPs":["10.96.12.7"],"selector":{"tier":"web","app":"nginx"},
                           "ports":[{"port":80,"protocol":"TCP","targetPort":8080}]})",
            R"(["web","ClusterIP","10.96.12.7","<none>","80/TCP","5m","app=nginx,tier=web"])"},
        ServiceRowCase{
            "NodePortWithExternalIPs",
            R"("spec":{"type":"NodePort","clusterIPs":["10.96.3.4"],
                           "externalIPs":["192.0.2.1","192.0.2.2"],
                           "ports":[{"port":80,"protocol":"TCP","nodePort":30080},
                                    {"port":53,"protocol":"UDP","nodePort":31053}]})",
            R"(["web","NodePort","10.96.3.4","192.0.2.1,192.0.2.2","80:30080/TCP,53:31053/UDP","5m","<none>"])"},
        ServiceRowCase{
            "LoadBalancerPending",
            R"("spec":{"type":"LoadBalancer","clusterIPs":["10.96.3.5"],
                           "ports":[{"port":443,"protocol":"TCP","nodePort":30443}]},
                           "status":{"loadBalancer":{}})",
            R"(["web","LoadBalancer","10.96.3.5","<pending>","443:30443/TCP","5m","<none>"])"},
        ServiceRowCase{
            "LoadBalancerIngressSortedAndDeduplicated",
            R"("spec":{"type":"LoadBalancer","clusterIPs":["10.96.3.6"],
                           "externalIPs":["192.0.2.9"],"ports":[]},
                           "status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.9"},
                           {"hostname":"lb.example.com"},{"ip":"203.0.113.9"}]}})",
            R"(["web","LoadBalancer","10.96.3.6","203.0.113.9,lb.example.com,192.0.2.9","<none>","5m","<none>"])"},
        ServiceRowCase{
            "ExternalName", R"("spec":{"type":"ExternalName","externalName":"db.example.com"})",
            R"(["web","ExternalName","<none>","db.example.com","<none>","5m","<none>"])"},
        ServiceRowCase{"Headless",
                       R"("spec":{"type":"ClusterIP","clusterIP":"None","clusterIPs":["None"]})",
                       R"(["web","ClusterIP","None","<none>","<none>","5m","<none>"])"},
        ServiceRowCase{"UnknownType", R"("spec":{"type":"Mystery","clusterIPs":["10.96.0.9"]})",
                       R"(["web","Mystery","10.96.0.9","<unknown>","<none>","5m","<none>"])"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ServicePrinterColumnsTest, SelectorIsTheWideColumn) {
  const TablePrinter& services = printer_for("", "Service");
  ASSERT_EQ(services.columns.size(), 7u);
  const char* names[] = {"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(services.columns[i].name, std::string_view(names[i]));
    EXPECT_EQ(services.columns[i].priority, i == 6 ? 1 : 0) << names[i];
  }
}

}  // namespace
}  // namespace kcm::local::printers
