#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

#include "local/printers/printers.h"
#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::cells_of;
using testing::parse_object;
using testing::printer_for;

const TablePrinter& pods() {
  return printer_for("", "Pod");
}

constexpr std::string_view kOneContainer = R"({"containers":[{"name":"app","image":"nginx"}]})";
constexpr std::string_view kTwoContainers =
    R"({"containers":[{"name":"app","image":"nginx"},{"name":"web","image":"httpd"}]})";
constexpr std::string_view kTwoInits =
    R"({"initContainers":[{"name":"init-a","image":"busybox"},{"name":"init-b","image":"busybox"}],
        "containers":[{"name":"app","image":"nginx"}]})";
constexpr std::string_view kSidecar =
    R"({"initContainers":[{"name":"proxy","image":"envoy","restartPolicy":"Always"}],
        "containers":[{"name":"app","image":"nginx"}]})";

std::string pod_json(std::string_view spec, std::string_view status,
                     std::string_view extra_metadata = "") {
  std::string out = R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-0",)"
                    R"("namespace":"default","creationTimestamp":"2026-11-30T11:00:00Z")";
  if (!extra_metadata.empty()) {
    out += ',';
    out += extra_metadata;
  }
  out += R"(},"spec":)";
  out += spec;
  out += R"(,"status":)";
  out += status;
  out += '}';
  return out;
}

struct StatusCase {
  const char* name;
  std::string_view spec;
  std::string_view status;
  std::string_view extra_metadata;
  const char* ready;
  const char* status_cell;
  const char* restarts;
};

// gtest prints the case by name instead of its bytes.
void PrintTo(const StatusCase& c, std::ostream* os) {
  *os << c.name;
}

// One case per branch of upstream printPod's STATUS, READY and RESTARTS.
const StatusCase kStatusCases[] = {
    {"pending_without_statuses", kOneContainer, R"({"phase":"Pending"})", "", "0/1", "Pending",
     "0"},
    {"no_status_at_all", kOneContainer, "{}", "", "0/1", "", "0"},
    {"running_ready", kOneContainer,
     R"({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
         "containerStatuses":[{"name":"app","ready":true,"restartCount":0,
           "state":{"running":{"startedAt":"2026-11-30T11:00:05Z"}}}]})",
     "", "1/1", "Running", "0"},
    {"running_not_ready", kOneContainer,
     R"({"phase":"Running","containerStatuses":[{"name":"app","ready":false,"restartCount":0,
         "state":{"running":{}}}]})",
     "", "0/1", "Running", "0"},
    {"status_reason_wins_over_phase", kOneContainer, R"({"phase":"Failed","reason":"Evicted"})", "",
     "0/1", "Evicted", "0"},
    {"scheduling_gated", kOneContainer,
     R"({"phase":"Pending","conditions":[
         {"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]})",
     "", "0/1", "SchedulingGated", "0"},
    {"unschedulable_is_just_pending", kOneContainer,
     R"({"phase":"Pending","conditions":[
         {"type":"PodScheduled","status":"False","reason":"Unschedulable"}]})",
     "", "0/1", "Pending", "0"},
    {"waiting_container_creating", kOneContainer,
     R"({"phase":"Pending","containerStatuses":[{"name":"app","ready":false,"restartCount":0,
         "state":{"waiting":{"reason":"ContainerCreating"}}}]})",
     "", "0/1", "ContainerCreating", "0"},
    {"waiting_without_reason_keeps_phase", kOneContainer,
     R"({"phase":"Pending","containerStatuses":[{"name":"app","state":{"waiting":{}}}]})", "",
     "0/1", "Pending", "0"},
    {"crash_loop_back_off", kOneContainer,
     R"({"phase":"Running","containerStatuses":[{"name":"app","ready":false,"restartCount":5,
         "lastState":{"terminated":{"exitCode":1,"reason":"Error",
           "finishedAt":"2026-11-30T11:55:00Z"}},
         "state":{"waiting":{"reason":"CrashLoopBackOff"}}}]})",
     "", "0/1", "CrashLoopBackOff", "5 (5m ago)"},
    {"completed", kOneContainer,
     R"({"phase":"Succeeded","containerStatuses":[{"name":"app","ready":false,"restartCount":0,
         "state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
     "", "0/1", "Completed", "0"},
    {"terminated_exit_code", kOneContainer,
     R"({"phase":"Failed","containerStatuses":[{"name":"app","restartCount":0,
         "state":{"terminated":{"exitCode":2}}}]})",
     "", "0/1", "ExitCode:2", "0"},
    {"terminated_signal", kOneContainer,
     R"({"phase":"Failed","containerStatuses":[{"name":"app","restartCount":0,
         "state":{"terminated":{"exitCode":137,"signal":9}}}]})",
     "", "0/1", "Signal:9", "0"},
    {"completed_with_a_running_container_and_ready", kTwoContainers,
     R"({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
         "containerStatuses":[
           {"name":"app","state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
           {"name":"web","ready":true,"state":{"running":{}}}]})",
     "", "1/2", "Running", "0"},
    {"completed_with_a_running_container_not_ready", kTwoContainers,
     R"({"phase":"Running","conditions":[{"type":"Ready","status":"False"}],
         "containerStatuses":[
           {"name":"app","state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
           {"name":"web","ready":true,"state":{"running":{}}}]})",
     "", "1/2", "NotReady", "0"},
    {"first_container_has_the_last_word", kTwoContainers,
     R"({"phase":"Pending","containerStatuses":[
           {"name":"app","state":{"waiting":{"reason":"ImagePullBackOff"}}},
           {"name":"web","state":{"waiting":{"reason":"ContainerCreating"}}}]})",
     "", "0/2", "ImagePullBackOff", "0"},
    {"init_pod_initializing", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"waiting":{"reason":"PodInitializing"}}},
           {"name":"init-b","state":{"waiting":{"reason":"PodInitializing"}}}]})",
     "", "0/1", "Init:0/2", "0"},
    {"init_second_running", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
           {"name":"init-b","state":{"running":{}}}]})",
     "", "0/1", "Init:1/2", "0"},
    {"init_waiting_reason", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"waiting":{"reason":"ErrImagePull"}}}]})",
     "", "0/1", "Init:ErrImagePull", "0"},
    {"init_terminated_reason", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"terminated":{"exitCode":1,"reason":"Error"}}}]})",
     "", "0/1", "Init:Error", "0"},
    {"init_terminated_exit_code", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"terminated":{"exitCode":3}}}]})",
     "", "0/1", "Init:ExitCode:3", "0"},
    {"init_terminated_signal", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","state":{"terminated":{"exitCode":143,"signal":15}}}]})",
     "", "0/1", "Init:Signal:15", "0"},
    {"init_restarts_count_while_initializing", kTwoInits,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"init-a","restartCount":3,
            "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-30T11:50:00Z"}},
            "state":{"waiting":{"reason":"CrashLoopBackOff"}}}]})",
     "", "0/1", "Init:CrashLoopBackOff", "3 (10m ago)"},
    {"init_done_restarts_of_plain_inits_forgotten", kTwoInits,
     R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"},
                                         {"type":"Ready","status":"True"}],
         "initContainerStatuses":[
           {"name":"init-a","restartCount":2,"state":{"terminated":{"exitCode":0}}},
           {"name":"init-b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}],
         "containerStatuses":[{"name":"app","ready":true,"state":{"running":{}}}]})",
     "", "1/1", "Running", "0"},
    {"initializing_but_initialized_condition_true", kTwoInits,
     R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],
         "initContainerStatuses":[
           {"name":"init-a","restartCount":4,"state":{"waiting":{"reason":"ErrImagePull"}}}],
         "containerStatuses":[{"name":"app","ready":true,"state":{"running":{}}}]})",
     "", "1/1", "Init:ErrImagePull", "0"},
    {"first_initialized_condition_decides", kTwoInits,
     R"({"phase":"Pending","conditions":[{"type":"Initialized","status":"False"},
                                         {"type":"Initialized","status":"True"}],
         "initContainerStatuses":[{"name":"init-a","state":{"running":{}}}],
         "containerStatuses":[{"name":"app","state":{"waiting":{"reason":"PodInitializing"}}}]})",
     "", "0/1", "Init:0/2", "0"},
    {"sidecar_started_and_ready_counts", kSidecar,
     R"({"phase":"Running","initContainerStatuses":[
           {"name":"proxy","started":true,"ready":true,"restartCount":1,
            "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-30T11:58:00Z"}},
            "state":{"running":{}}}],
         "containerStatuses":[{"name":"app","ready":true,"restartCount":0,
           "state":{"running":{}}}]})",
     "", "2/2", "Running", "1 (2m ago)"},
    {"sidecar_not_started", kSidecar,
     R"({"phase":"Pending","initContainerStatuses":[
           {"name":"proxy","started":false,"state":{"waiting":{}}}]})",
     "", "0/2", "Init:0/1", "0"},
    {"terminating", kOneContainer,
     R"({"phase":"Running","containerStatuses":[{"name":"app","ready":true,
         "state":{"running":{}}}]})",
     R"("deletionTimestamp":"2026-11-30T11:59:00Z","deletionGracePeriodSeconds":30)", "1/1",
     "Terminating", "0"},
    {"terminating_keeps_terminal_phase", kOneContainer,
     R"({"phase":"Succeeded","containerStatuses":[{"name":"app",
         "state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
     R"("deletionTimestamp":"2026-11-30T11:59:00Z")", "0/1", "Completed", "0"},
    {"null_deletion_timestamp_is_not_deleting", kOneContainer, R"({"phase":"Running"})",
     R"("deletionTimestamp":null)", "0/1", "Running", "0"},
    {"node_lost_while_deleting_is_unknown", kOneContainer,
     R"({"phase":"Running","reason":"NodeLost"})", R"("deletionTimestamp":"2026-11-30T11:59:00Z")",
     "0/1", "Unknown", "0"},
    {"node_lost_without_deletion", kOneContainer, R"({"phase":"Running","reason":"NodeLost"})", "",
     "0/1", "NodeLost", "0"},
    {"restarts_without_finish_time", kOneContainer,
     R"({"phase":"Running","containerStatuses":[{"name":"app","ready":true,"restartCount":2,
         "state":{"running":{}}}]})",
     "", "1/1", "Running", "2"},
    {"restarts_summed_latest_finish_wins", kTwoContainers,
     R"({"phase":"Running","containerStatuses":[
           {"name":"app","ready":true,"restartCount":1,"state":{"running":{}},
            "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-30T11:59:30Z"}}},
           {"name":"web","ready":true,"restartCount":2,"state":{"running":{}},
            "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-30T11:40:00Z"}}}]})",
     "", "2/2", "Running", "3 (30s ago)"},
    {"restarts_long_ago", kOneContainer,
     R"({"phase":"Running","containerStatuses":[{"name":"app","ready":true,"restartCount":12,
         "state":{"running":{}},
         "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-27T10:00:00Z"}}}]})",
     "", "1/1", "Running", "12 (3d2h ago)"},
};

class PodStatusTest : public ::testing::TestWithParam<StatusCase> {};

TEST_P(PodStatusTest, ReadyStatusRestarts) {
  const StatusCase& c = GetParam();
  TableOptions narrow;
  narrow.wide = false;
  const auto cells =
      cells_of(pods(), parse_object(pod_json(c.spec, c.status, c.extra_metadata)), narrow);
  ASSERT_EQ(cells.size(), 5u);
  EXPECT_EQ(cells[0], "web-0");
  EXPECT_EQ(cells[1], c.ready);
  EXPECT_EQ(cells[2], c.status_cell);
  EXPECT_EQ(cells[3], c.restarts);
  EXPECT_EQ(cells[4], "60m");
}

INSTANTIATE_TEST_SUITE_P(Branches, PodStatusTest, ::testing::ValuesIn(kStatusCases),
                         [](const auto& info) { return std::string(info.param.name); });

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PodPrinterTest, TypicalPodFixture) {
  api::json::object pod = parse_object(read_file(KCM_TEST_DATA_DIR "/pod-typical.json"));
  ASSERT_FALSE(pod.empty());
  // The fixture nests its status one level too deep ("status":{"status":{...}}),
  // so as stored it reads as a pod with an empty status, as Go would decode it.
  EXPECT_EQ(api::to_json_string(cells_of(pods(), pod)),
            R"(["checkout-0-lldrhptrbr-bbbbb","0/1","","0","120m",)"
            R"("<none>","load-node-0","<none>","<none>"])");
  // With the status where it belongs, the pod is a running, ready pod.
  api::json::object& status = pod["status"].as_object();
  api::json::value inner = status["status"];
  pod["status"] = inner;
  EXPECT_EQ(api::to_json_string(cells_of(pods(), pod)),
            R"(["checkout-0-lldrhptrbr-bbbbb","1/1","Running","0","120m",)"
            R"("10.244.0.2","load-node-0","<none>","<none>"])");
}

TEST(PodPrinterTest, Columns) {
  const auto table = testing::table_of(pods(), parse_object(pod_json(kOneContainer, "{}")));
  std::string names;
  for (const auto& c : table.at("columnDefinitions").as_array()) {
    const auto& col = c.as_object();
    names += std::string(col.at("name").as_string()) + ":" +
             std::to_string(col.at("priority").as_int64()) + " ";
  }
  EXPECT_EQ(names,
            "Name:0 Ready:0 Status:0 Restarts:0 Age:0 IP:1 Node:1 Nominated Node:1 "
            "Readiness Gates:1 ");
  const auto& first = table.at("columnDefinitions").as_array()[0].as_object();
  EXPECT_EQ(first.at("type"), "string");
  EXPECT_EQ(first.at("format"), "name");
  const auto& restarts = table.at("columnDefinitions").as_array()[3].as_object();
  EXPECT_EQ(restarts.at("type"), "string");
  EXPECT_EQ(restarts.at("format"), "");
}

TEST(PodPrinterTest, WideCells) {
  EXPECT_EQ(cells_json(pods(), pod_json(R"({"containers":[{"name":"app"}],"nodeName":"node-1",
                                           "readinessGates":[{"conditionType":"example.com/a"},
                                                             {"conditionType":"example.com/b"}]})",
                                        R"({"phase":"Running","podIP":"10.0.0.9",
                                            "podIPs":[{"ip":"10.0.0.9"},{"ip":"fd00::9"}],
                                            "nominatedNodeName":"node-2",
                                            "conditions":[
                                              {"type":"example.com/b","status":"True"},
                                              {"type":"example.com/a","status":"False"}]})")),
            R"(["web-0","0/1","Running","0","60m","10.0.0.9","node-1","node-2","1/2"])");
  // The IP comes from podIPs only, as upstream's does.
  EXPECT_EQ(
      cells_json(pods(), pod_json(kOneContainer, R"({"phase":"Pending","podIP":"10.0.0.9"})")),
      R"(["web-0","0/1","Pending","0","60m","<none>","<none>","<none>","<none>"])");
  // A gate with no matching condition counts as not true.
  EXPECT_EQ(
      cells_json(pods(), pod_json(R"({"containers":[],"readinessGates":[{"conditionType":"x"}]})",
                                  R"({"phase":"Pending"})")),
      R"(["web-0","0/0","Pending","0","60m","<none>","<none>","<none>","0/1"])");
}

TEST(PodPrinterTest, RowConditionsForFinishedPods) {
  const auto row_of = [](std::string_view status) {
    const auto table = testing::table_of(pods(), parse_object(pod_json(kOneContainer, status)));
    return table.at("rows").as_array()[0].as_object();
  };
  EXPECT_EQ(api::to_json_string(row_of(R"({"phase":"Succeeded"})").at("conditions")),
            R"([{"type":"Completed","status":"True","reason":"Succeeded",)"
            R"("message":"The pod has completed successfully."}])");
  EXPECT_EQ(
      api::to_json_string(row_of(R"({"phase":"Failed"})").at("conditions")),
      R"([{"type":"Completed","status":"True","reason":"Failed","message":"The pod failed."}])");
  EXPECT_FALSE(row_of(R"({"phase":"Running"})").contains("conditions"));
}

TEST(PodPrinterTest, AgeOfMissingCreationTimestampIsUnknown) {
  EXPECT_EQ(cells_json(pods(), R"({"metadata":{"name":"x"},"spec":{"containers":[{"name":"a"}]}})"),
            R"(["x","0/1","","0","<unknown>","<none>","<none>","<none>","<none>"])");
}

TEST(PodPrinterTest, WrongTypesReadAsZeroValues) {
  // A printer never throws: wrong JSON types read as Go's zero values.
  EXPECT_EQ(cells_json(pods(), R"({"metadata":{"name":7,"creationTimestamp":"garbage"},
                                  "spec":{"containers":"x","initContainers":[1,null]},
                                  "status":{"phase":["Running"],"containerStatuses":[null,3,
                                    {"restartCount":"2","state":{"waiting":[]}}],
                                    "conditions":{"type":"Ready"}}})"),
            R"(["","0/0","","0","<unknown>","<none>","<none>","<none>","<none>"])");
}

}  // namespace
}  // namespace kcm::local::printers
