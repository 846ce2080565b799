#include <gtest/gtest.h>

#include <string>

#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::printer_for;

const TablePrinter& deployments() {
  return printer_for("apps", "Deployment");
}
const TablePrinter& replica_sets() {
  return printer_for("apps", "ReplicaSet");
}

std::string workload_json(std::string_view kind, std::string_view spec, std::string_view status) {
  std::string out = R"({"kind":")";
  out += kind;
  out += R"(","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default",)"
         R"("creationTimestamp":"2026-11-30T11:57:00Z"},"spec":)";
  out += spec;
  out += R"(,"status":)";
  out += status;
  out += '}';
  return out;
}

constexpr std::string_view kTemplate =
    R"("template":{"metadata":{"labels":{"app":"web"}},
                   "spec":{"containers":[{"name":"nginx","image":"nginx:1.27"},
                                         {"name":"sidecar","image":"busybox:1.36"}]}})";

std::string spec_with(std::string_view fields) {
  std::string out = "{";
  out += fields;
  if (!fields.empty()) out += ',';
  out += kTemplate;
  out += '}';
  return out;
}

TEST(DeploymentPrinterTest, Cells) {
  EXPECT_EQ(
      cells_json(deployments(),
                 workload_json("Deployment", spec_with(R"("replicas":3,"selector":{"matchLabels":
                                                 {"app":"web","tier":"front"}})"),
                               R"({"replicas":3,"updatedReplicas":2,"readyReplicas":1,
                                         "availableReplicas":1})")),
      R"(["web","1/3",2,1,"3m","nginx,sidecar","nginx:1.27,busybox:1.36",)"
      R"("app=web,tier=front"])");
}

TEST(DeploymentPrinterTest, DefaultsAndEmptyStatus) {
  TableOptions narrow;
  narrow.wide = false;
  // spec.replicas defaults to 1; an empty status reads as zeros.
  EXPECT_EQ(cells_json(deployments(), workload_json("Deployment", spec_with(""), "{}"), narrow),
            R"(["web","0/1",0,0,"3m"])");
  EXPECT_EQ(cells_json(deployments(),
                       workload_json("Deployment", spec_with(R"("replicas":0)"), "{}"), narrow),
            R"(["web","0/0",0,0,"3m"])");
}

TEST(DeploymentPrinterTest, SelectorCell) {
  const auto selector_of = [](std::string_view selector_fields) {
    const auto cells = testing::cells_of(
        deployments(),
        testing::parse_object(workload_json("Deployment", spec_with(selector_fields), "{}")));
    return std::string(cells[7].as_string());
  };
  // Nil and empty selectors both print as "" for Deployments.
  EXPECT_EQ(selector_of(""), "");
  EXPECT_EQ(selector_of(R"("selector":null)"), "");
  EXPECT_EQ(selector_of(R"("selector":{})"), "");
  EXPECT_EQ(selector_of(R"("selector":{"matchLabels":{"b":"2","a":"1"},
                                       "matchExpressions":[
                                         {"key":"env","operator":"In","values":["prod","dev"]},
                                         {"key":"canary","operator":"DoesNotExist"},
                                         {"key":"zone","operator":"NotIn","values":["b"]},
                                         {"key":"gpu","operator":"Exists"}]})"),
            "a=1,b=2,!canary,env in (dev,prod),gpu,zone notin (b)");
  EXPECT_EQ(selector_of(R"("selector":{"matchExpressions":[{"key":"a","operator":"Near"}]})"),
            "<invalid>");
  EXPECT_EQ(selector_of(R"("selector":{"matchExpressions":[{"key":"a","operator":"In"}]})"),
            "<invalid>");
}

TEST(ReplicaSetPrinterTest, Cells) {
  EXPECT_EQ(
      cells_json(replica_sets(),
                 workload_json("ReplicaSet", spec_with(R"("replicas":5,"selector":{"matchLabels":
                                                 {"app":"web","pod-template-hash":"7d4b9"}})"),
                               R"({"replicas":4,"readyReplicas":2,"availableReplicas":2})")),
      R"(["web",5,4,2,"3m","nginx,sidecar","nginx:1.27,busybox:1.36",)"
      R"("app=web,pod-template-hash=7d4b9"])");
}

TEST(ReplicaSetPrinterTest, DefaultsAndSelectorForms) {
  const auto cells_for = [](std::string_view spec_fields) {
    return api::to_json_string(testing::cells_of(
        replica_sets(),
        testing::parse_object(workload_json("ReplicaSet", spec_with(spec_fields), "{}"))));
  };
  // FormatLabelSelector: "<none>" for nil or empty, "<error>" when it does not convert.
  EXPECT_EQ(cells_for(""),
            R"(["web",1,0,0,"3m","nginx,sidecar","nginx:1.27,busybox:1.36","<none>"])");
  EXPECT_EQ(cells_for(R"("replicas":0,"selector":{})"),
            R"(["web",0,0,0,"3m","nginx,sidecar","nginx:1.27,busybox:1.36","<none>"])");
  EXPECT_EQ(cells_for(R"("selector":{"matchExpressions":[{"key":"a","operator":"Near"}]})"),
            R"(["web",1,0,0,"3m","nginx,sidecar","nginx:1.27,busybox:1.36","<error>"])");
  EXPECT_EQ(cells_for(R"("selector":{"matchLabels":"app=web"})"),
            R"(["web",1,0,0,"3m","nginx,sidecar","nginx:1.27,busybox:1.36","<error>"])");
}

TEST(ReplicaSetPrinterTest, ColumnTypes) {
  const auto table = testing::table_of(
      replica_sets(), testing::parse_object(workload_json("ReplicaSet", spec_with(""), "{}")));
  std::string columns;
  for (const auto& c : table.at("columnDefinitions").as_array()) {
    const auto& col = c.as_object();
    columns += std::string(col.at("name").as_string()) + "/" +
               std::string(col.at("type").as_string()) + "/" +
               std::to_string(col.at("priority").as_int64()) + " ";
  }
  EXPECT_EQ(columns,
            "Name/string/0 Desired/integer/0 Current/integer/0 Ready/integer/0 Age/string/0 "
            "Containers/string/1 Images/string/1 Selector/string/1 ");
}

TEST(WorkloadPrinterTest, NoContainers) {
  EXPECT_EQ(cells_json(deployments(), workload_json("Deployment", R"({"replicas":2})", "{}")),
            R"(["web","0/2",0,0,"3m","","",""])");
}

}  // namespace
}  // namespace kcm::local::printers
