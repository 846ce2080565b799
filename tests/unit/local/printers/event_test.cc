#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::cells_json;
using testing::printer_for;

const TablePrinter& core_events() {
  return printer_for("", "Event");
}
const TablePrinter& events_v1() {
  return printer_for("events.k8s.io", "Event");
}

// core/v1 Event with `fields` after the metadata.
std::string event_json(std::string_view fields) {
  std::string out = R"({"kind":"Event","apiVersion":"v1","metadata":{"name":"web.17f1",)"
                    R"("namespace":"default","creationTimestamp":"2026-11-30T11:00:00Z"})";
  if (!fields.empty()) {
    out += ',';
    out += fields;
  }
  out += '}';
  return out;
}

TEST(EventPrinterTest, TypicalKubeletEvent) {
  EXPECT_EQ(
      cells_json(core_events(), event_json(R"("involvedObject":{"kind":"Pod","namespace":"default",
                                       "name":"web-0","fieldPath":"spec.containers{app}"},
                                     "reason":"Pulled","message":"Successfully pulled image\n",
                                     "source":{"component":"kubelet","host":"node-1"},
                                     "firstTimestamp":"2026-11-30T11:30:00Z",
                                     "lastTimestamp":"2026-11-30T11:58:00Z","count":4,
                                     "type":"Normal")")),
      R"(["2m","Normal","Pulled","pod/web-0","spec.containers{app}","kubelet, node-1",)"
      R"("Successfully pulled image","30m",4,"web.17f1"])");
}

TEST(EventPrinterTest, NarrowCells) {
  TableOptions narrow;
  narrow.wide = false;
  EXPECT_EQ(
      cells_json(core_events(), event_json(R"("involvedObject":{"kind":"Deployment","name":"web"},
                                     "reason":"ScalingReplicaSet",
                                     "message":"Scaled up replica set web-7d4b9 to 3",
                                     "source":{"component":"deployment-controller"},
                                     "firstTimestamp":"2026-11-30T11:59:55Z",
                                     "lastTimestamp":"2026-11-30T11:59:55Z","count":1,
                                     "type":"Normal")"),
                 narrow),
      R"(["5s","Normal","ScalingReplicaSet","deployment/web",)"
      R"("Scaled up replica set web-7d4b9 to 3"])");
}

struct TimesCase {
  const char* name;
  std::string_view fields;
  const char* last_seen;
  const char* first_seen;
  std::int64_t count;
};

// gtest prints the case by name instead of its bytes.
void PrintTo(const TimesCase& c, std::ostream* os) {
  *os << c.name;
}

const TimesCase kTimesCases[] = {
    {"first_and_last", R"("firstTimestamp":"2026-11-29T12:00:00Z",
                          "lastTimestamp":"2026-11-30T11:00:00Z","count":7)",
     "60m", "24h", 7},
    {"no_last_uses_first", R"("firstTimestamp":"2026-11-30T11:57:58Z","count":2)", "2m2s", "2m2s",
     2},
    {"null_last_uses_first",
     R"("firstTimestamp":"2026-11-30T11:57:58Z","lastTimestamp":null,"count":2)", "2m2s", "2m2s",
     2},
    // 59.876544s: HumanDuration truncates to whole seconds.
    {"no_first_uses_event_time", R"("eventTime":"2026-11-30T11:59:00.123456Z")", "59s", "59s", 1},
    {"series_overrides_last_and_count",
     R"("eventTime":"2026-11-30T09:00:00.000000Z",
        "series":{"count":12,"lastObservedTime":"2026-11-30T11:59:50.000000Z"})",
     "10s", "3h", 12},
    {"series_with_zero_count_stays_zero",
     R"("eventTime":"2026-11-30T09:00:00.000000Z","series":{})", "<unknown>", "3h", 0},
    {"null_series_is_none", R"("eventTime":"2026-11-30T09:00:00.000000Z","series":null)", "3h",
     "3h", 1},
    {"no_times_at_all", "", "<unknown>", "<unknown>", 1},
    {"old_event", R"("firstTimestamp":"2025-10-01T12:00:00Z",
                     "lastTimestamp":"2026-02-01T12:00:00Z","count":1)",
     "302d", "425d", 1},
};

class EventTimesTest : public ::testing::TestWithParam<TimesCase> {};

TEST_P(EventTimesTest, LastSeenFirstSeenCount) {
  const TimesCase& c = GetParam();
  const auto cells = testing::cells_of(core_events(), testing::parse_object(event_json(c.fields)));
  ASSERT_EQ(cells.size(), 10u);
  EXPECT_EQ(cells[0], c.last_seen);
  EXPECT_EQ(cells[7], c.first_seen);
  EXPECT_EQ(cells[8], c.count);
}

INSTANTIATE_TEST_SUITE_P(Cases, EventTimesTest, ::testing::ValuesIn(kTimesCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(EventPrinterTest, ObjectColumn) {
  TableOptions narrow;
  narrow.wide = false;
  const auto object_of = [&](std::string_view involved) {
    const auto cells =
        testing::cells_of(core_events(),
                          testing::parse_object(event_json(std::string(R"("involvedObject":)") +
                                                           std::string(involved))),
                          narrow);
    return std::string(cells[3].as_string());
  };
  EXPECT_EQ(object_of(R"({"kind":"ReplicaSet","name":"web-7d4b9"})"), "replicaset/web-7d4b9");
  EXPECT_EQ(object_of(R"({"kind":"Node","name":"node-1","uid":"node-1"})"), "node/node-1");
  EXPECT_EQ(object_of(R"({"kind":"Node"})"), "node");
  EXPECT_EQ(object_of(R"({"name":"orphan"})"), "/orphan");
  EXPECT_EQ(object_of("{}"), "");
}

TEST(EventPrinterTest, SourceColumn) {
  const auto source_of = [](std::string_view fields) {
    const auto cells = testing::cells_of(core_events(), testing::parse_object(event_json(fields)));
    return std::string(cells[5].as_string());
  };
  EXPECT_EQ(source_of(R"("source":{"component":"kubelet","host":"node-1"})"), "kubelet, node-1");
  EXPECT_EQ(source_of(R"("source":{"component":"deployment-controller"})"),
            "deployment-controller");
  EXPECT_EQ(source_of(R"("source":{},"reportingComponent":"kcm/deployment",
                         "reportingInstance":"kcm-1")"),
            "kcm/deployment, kcm-1");
  EXPECT_EQ(source_of(R"("source":{"host":"node-2"},"reportingComponent":"kubelet")"),
            "kubelet, node-2");
  EXPECT_EQ(source_of(R"("reportingInstance":"only-instance")"), ", only-instance");
  EXPECT_EQ(source_of(""), "");
}

TEST(EventPrinterTest, MessageIsTrimmed) {
  const auto message_of = [](std::string_view message_json) {
    const auto cells = testing::cells_of(
        core_events(), testing::parse_object(
                           event_json(std::string(R"("message":)") + std::string(message_json))));
    return std::string(cells[6].as_string());
  };
  EXPECT_EQ(message_of(R"("  Back-off restarting failed container\t\n")"),
            "Back-off restarting failed container");
  // Unicode white space (no-break space, ideographic space) goes as well.
  EXPECT_EQ(message_of(R"("\u00a0\u3000inner  spaces stay\u2003")"), "inner  spaces stay");
  EXPECT_EQ(message_of(R"(" \n ")"), "");
  // U+200B (zero-width space) is not white space to Go.
  EXPECT_EQ(message_of(R"("\u200bx\u200b")"), "\u200bx\u200b");
}

TEST(EventPrinterTest, EventsV1FieldNames) {
  // events.k8s.io/v1 names the internal fields differently.
  EXPECT_EQ(cells_json(events_v1(),
                       R"({"kind":"Event","apiVersion":"events.k8s.io/v1",
                           "metadata":{"name":"web.17f2","namespace":"default",
                                       "creationTimestamp":"2026-11-30T11:00:00Z"},
                           "eventTime":"2026-11-30T11:50:00.000000Z",
                           "reportingController":"kcm/deployment-controller",
                           "reportingInstance":"kcm-0",
                           "action":"Scale","reason":"ScalingReplicaSet",
                           "regarding":{"kind":"Deployment","name":"web","namespace":"default"},
                           "note":"Scaled up replica set web-1 to 2 ","type":"Normal"})"),
            R"(["10m","Normal","ScalingReplicaSet","deployment/web","",)"
            R"("kcm/deployment-controller, kcm-0","Scaled up replica set web-1 to 2","10m",1,)"
            R"("web.17f2"])");
  EXPECT_EQ(cells_json(events_v1(),
                       R"({"metadata":{"name":"old"},
                           "regarding":{"kind":"Pod","name":"p","fieldPath":"spec.containers{c}"},
                           "deprecatedSource":{"component":"kubelet","host":"n1"},
                           "deprecatedFirstTimestamp":"2026-11-30T11:00:00Z",
                           "deprecatedLastTimestamp":"2026-11-30T11:30:00Z",
                           "deprecatedCount":3,"note":"n","type":"Warning","reason":"BackOff",
                           "series":{"count":5,"lastObservedTime":"2026-11-30T11:59:00.000000Z"}})"),
            R"(["60s","Warning","BackOff","pod/p","spec.containers{c}","kubelet, n1","n","60m",)"
            R"(5,"old"])");
  // The core field names mean nothing in events.k8s.io/v1.
  const auto cells = testing::cells_of(
      events_v1(), testing::parse_object(R"({"metadata":{"name":"x"},"message":"m","count":9,
                                            "involvedObject":{"kind":"Pod","name":"p"}})"));
  EXPECT_EQ(cells[3], "");
  EXPECT_EQ(cells[6], "");
  EXPECT_EQ(cells[8], 1);
}

TEST(EventPrinterTest, Columns) {
  const auto table = testing::table_of(core_events(), testing::parse_object(event_json("")));
  std::string names;
  for (const auto& c : table.at("columnDefinitions").as_array()) {
    const auto& col = c.as_object();
    names += std::string(col.at("name").as_string()) + ":" +
             std::to_string(col.at("priority").as_int64()) + " ";
  }
  EXPECT_EQ(names,
            "Last Seen:0 Type:0 Reason:0 Object:0 Subobject:1 Source:1 Message:0 First Seen:1 "
            "Count:1 Name:1 ");
  EXPECT_EQ(table.at("columnDefinitions").as_array()[9].as_object().at("format"), "name");
}

}  // namespace
}  // namespace kcm::local::printers
