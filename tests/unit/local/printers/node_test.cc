#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::printer_for;

const TablePrinter& nodes() {
  return printer_for("", "Node");
}

std::string node_json(std::string_view labels, std::string_view spec, std::string_view status) {
  std::string out = R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-1",)"
                    R"("creationTimestamp":"2026-11-28T12:00:00Z","labels":)";
  out += labels;
  out += R"(},"spec":)";
  out += spec;
  out += R"(,"status":)";
  out += status;
  out += '}';
  return out;
}

struct NodeCase {
  const char* name;
  std::string_view labels;
  std::string_view spec;
  std::string_view status;
  const char* expected_status;
  const char* expected_roles;
};

// gtest prints the case by name instead of its bytes.
void PrintTo(const NodeCase& c, std::ostream* os) {
  *os << c.name;
}

const NodeCase kNodeCases[] = {
    {"ready", "{}", "{}", R"({"conditions":[{"type":"Ready","status":"True"}]})", "Ready",
     "<none>"},
    {"not_ready", "{}", "{}", R"({"conditions":[{"type":"Ready","status":"False"}]})", "NotReady",
     "<none>"},
    {"ready_unknown_is_not_ready", "{}", "{}",
     R"({"conditions":[{"type":"Ready","status":"Unknown"}]})", "NotReady", "<none>"},
    {"no_ready_condition", "{}", "{}",
     R"({"conditions":[{"type":"MemoryPressure","status":"False"}]})", "Unknown", "<none>"},
    {"no_conditions", "{}", "{}", "{}", "Unknown", "<none>"},
    {"last_ready_condition_wins", "{}", "{}",
     R"({"conditions":[{"type":"Ready","status":"False"},{"type":"Ready","status":"True"}]})",
     "Ready", "<none>"},
    {"cordoned", "{}", R"({"unschedulable":true})",
     R"({"conditions":[{"type":"Ready","status":"True"}]})", "Ready,SchedulingDisabled", "<none>"},
    {"cordoned_without_conditions", "{}", R"({"unschedulable":true})", "{}",
     "Unknown,SchedulingDisabled", "<none>"},
    {"schedulable_false_flag", "{}", R"({"unschedulable":false})",
     R"({"conditions":[{"type":"Ready","status":"True"}]})", "Ready", "<none>"},
    {"control_plane_role", R"({"node-role.kubernetes.io/control-plane":""})", "{}", "{}", "Unknown",
     "control-plane"},
    {"roles_sorted_and_merged",
     R"({"node-role.kubernetes.io/worker":"","kubernetes.io/role":"master",
         "node-role.kubernetes.io/control-plane":"true","kubernetes.io/hostname":"node-1",
         "node-role.kubernetes.io/":"x"})",
     "{}", "{}", "Unknown", "control-plane,master,worker"},
    {"role_label_duplicates_collapse",
     R"({"node-role.kubernetes.io/master":"","kubernetes.io/role":"master"})", "{}", "{}",
     "Unknown", "master"},
    {"empty_legacy_role_ignored", R"({"kubernetes.io/role":""})", "{}", "{}", "Unknown", "<none>"},
};

class NodeStatusTest : public ::testing::TestWithParam<NodeCase> {};

TEST_P(NodeStatusTest, StatusAndRoles) {
  const NodeCase& c = GetParam();
  TableOptions narrow;
  narrow.wide = false;
  const auto cells = testing::cells_of(
      nodes(), testing::parse_object(node_json(c.labels, c.spec, c.status)), narrow);
  ASSERT_EQ(cells.size(), 5u);
  EXPECT_EQ(cells[1], c.expected_status);
  EXPECT_EQ(cells[2], c.expected_roles);
  EXPECT_EQ(cells[3], "2d");
}

INSTANTIATE_TEST_SUITE_P(Cases, NodeStatusTest, ::testing::ValuesIn(kNodeCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(NodePrinterTest, WideCells) {
  EXPECT_EQ(cells_json(nodes(), node_json(R"({"node-role.kubernetes.io/worker":""})", "{}",
                                          R"({"conditions":[{"type":"Ready","status":"True"}],
                               "addresses":[{"type":"Hostname","address":"node-1"},
                                            {"type":"InternalIP","address":"10.0.0.4"},
                                            {"type":"InternalIP","address":"10.0.0.5"},
                                            {"type":"ExternalIP","address":"203.0.113.7"}],
                               "nodeInfo":{"kubeletVersion":"v1.32.4","osImage":"Debian GNU/Linux 12",
                                           "kernelVersion":"6.1.0-18-amd64",
                                           "containerRuntimeVersion":"containerd://1.7.13"}})")),
            R"(["node-1","Ready","worker","2d","v1.32.4","10.0.0.4","203.0.113.7",)"
            R"("Debian GNU/Linux 12","6.1.0-18-amd64","containerd://1.7.13"])");
  // Missing addresses and node info: "<none>" and "<unknown>", an empty VERSION.
  EXPECT_EQ(cells_json(nodes(), node_json("{}", "{}", "{}")),
            R"(["node-1","Unknown","<none>","2d","","<none>","<none>",)"
            R"("<unknown>","<unknown>","<unknown>"])");
}

TEST(NodePrinterTest, ColumnsAndWideFiltering) {
  const auto object = testing::parse_object(node_json("{}", "{}", "{}"));
  TableOptions narrow;
  narrow.wide = false;
  const auto narrow_table = testing::table_of(nodes(), object, narrow);
  std::string names;
  for (const auto& c : narrow_table.at("columnDefinitions").as_array()) {
    names += std::string(c.as_object().at("name").as_string()) + ",";
  }
  EXPECT_EQ(names, "Name,Status,Roles,Age,Version,");
  const auto wide_table = testing::table_of(nodes(), object);
  EXPECT_EQ(wide_table.at("columnDefinitions").as_array().size(), 10u);
  EXPECT_EQ(wide_table.at("columnDefinitions").as_array()[5].as_object().at("name"), "Internal-IP");
}

}  // namespace
}  // namespace kcm::local::printers
