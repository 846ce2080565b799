#include "local/printers/table.h"

#include <gtest/gtest.h>

#include <string>

#include "local/printers/printers.h"
#include "printer_test_util.h"

namespace kcm::local::printers {
namespace {

using testing::now;
using testing::parse_object;
using testing::printer_for;

constexpr std::string_view kNamespace =
    R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a","uid":"u-1",)"
    R"("resourceVersion":"41","creationTimestamp":"2026-11-30T11:59:30Z",)"
    R"("labels":{"kubernetes.io/metadata.name":"team-a"}},)"
    R"("spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}})";

TEST(TableTest, ExactShapeOfANamespaceList) {
  const auto ns = parse_object(kNamespace);
  const auto table = to_table(printer_for("", "Namespace"), {&ns}, TableOptions{}, "57", "", now());
  EXPECT_EQ(
      api::to_json_string(table),
      R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"57"},)"
      R"("columnDefinitions":[)"
      R"({"name":"Name","type":"string","format":"name","description":"Name must be unique )"
      R"(within a namespace. Is required when creating resources, although some resources may )"
      R"(allow a client to request the generation of an appropriate name automatically. Name is )"
      R"(primarily intended for creation idempotence and configuration definition. Cannot be )"
      R"(updated. More info: )"
      R"(https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",)"
      R"("priority":0},)"
      R"({"name":"Status","type":"string","format":"","description":"The status of the )"
      R"(namespace","priority":0},)"
      R"({"name":"Age","type":"string","format":"","description":"CreationTimestamp is a )"
      R"(timestamp representing the server time when this object was created. It is not )"
      R"(guaranteed to be set in happens-before order across separate operations. Clients may )"
      R"(not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by )"
      R"(the system. Read-only. Null for lists. More info: )"
      R"(https://git.k8s.io/community/contributors/devel/sig-architecture/)"
      R"(api-conventions.md#metadata","priority":0}],)"
      R"("rows":[{"cells":["team-a","Active","30s"],)"
      R"("object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
      R"("metadata":{"name":"team-a","uid":"u-1","resourceVersion":"41",)"
      R"("creationTimestamp":"2026-11-30T11:59:30Z",)"
      R"("labels":{"kubernetes.io/metadata.name":"team-a"}}}}]})");
}

TEST(TableTest, IncludeObjectPolicies) {
  const auto ns = parse_object(kNamespace);
  const TablePrinter& printer = printer_for("", "Namespace");
  TableOptions options;
  options.include_object = IncludeObject::kNone;
  auto table = to_table(printer, {&ns}, options, "", "", now());
  EXPECT_TRUE(table.at("rows").as_array()[0].as_object().at("object").is_null());

  options.include_object = IncludeObject::kObject;
  table = to_table(printer, {&ns}, options, "", "", now());
  EXPECT_EQ(table.at("rows").as_array()[0].as_object().at("object"), ns);

  // v1beta1 Tables carry v1beta1 PartialObjectMetadata.
  options.include_object = IncludeObject::kMetadata;
  options.version = TableVersion::kV1beta1;
  table = to_table(printer, {&ns}, options, "", "", now());
  EXPECT_EQ(table.at("apiVersion"), "meta.k8s.io/v1beta1");
  const auto& object = table.at("rows").as_array()[0].as_object().at("object").as_object();
  EXPECT_EQ(object.at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(object.at("apiVersion"), "meta.k8s.io/v1beta1");
  EXPECT_EQ(object.at("metadata"), ns.at("metadata"));
}

TEST(TableTest, PartialObjectMetadataKeepsEveryMetadataField) {
  const auto pod = parse_object(
      R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"ns",
          "generateName":"p-","annotations":{"a":"b"},"ownerReferences":[{"kind":"ReplicaSet"}],
          "finalizers":["f"],"deletionTimestamp":"2026-11-30T11:59:00Z",
          "managedFields":[{"manager":"kubectl"}]},"spec":{"containers":[]}})");
  const auto table = testing::table_of(printer_for("", "Pod"), pod);
  const auto& object = table.at("rows").as_array()[0].as_object().at("object").as_object();
  EXPECT_EQ(object.at("metadata"), pod.at("metadata"));
  EXPECT_FALSE(object.contains("spec"));
  // No metadata at all: an empty one.
  const auto bare = parse_object(R"({"kind":"Pod"})");
  const auto bare_table = testing::table_of(printer_for("", "Pod"), bare);
  EXPECT_EQ(api::to_json_string(bare_table.at("rows").as_array()[0].as_object().at("object")),
            R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{}})");
}

TEST(TableTest, MetadataOfTheTable) {
  const auto ns = parse_object(kNamespace);
  const TablePrinter& printer = printer_for("", "Namespace");
  auto table = to_table(printer, {&ns}, {}, "", "", now());
  EXPECT_EQ(api::to_json_string(table.at("metadata")), "{}");
  table = to_table(printer, {&ns}, {}, "100", "eyJ2IjoxfQ", now());
  EXPECT_EQ(api::to_json_string(table.at("metadata")),
            R"({"resourceVersion":"100","continue":"eyJ2IjoxfQ"})");
}

TEST(TableTest, NoHeadersForLaterWatchEvents) {
  const auto ns = parse_object(kNamespace);
  TableOptions options;
  options.no_headers = true;
  const auto table = to_table(printer_for("", "Namespace"), {&ns}, options, "58", "", now());
  EXPECT_TRUE(table.at("columnDefinitions").is_null());
  EXPECT_EQ(table.at("rows").as_array().size(), 1u);
}

TEST(TableTest, RowsInOrderAndNullsSkipped) {
  const auto a = parse_object(R"({"metadata":{"name":"a"},"spec":{"holderIdentity":"x"}})");
  const auto b = parse_object(R"({"metadata":{"name":"b"}})");
  const auto table =
      to_table(printer_for("coordination.k8s.io", "Lease"), {&b, nullptr, &a}, {}, "", "", now());
  const auto& rows = table.at("rows").as_array();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(api::to_json_string(rows[0].as_object().at("cells")), R"(["b","","<unknown>"])");
  EXPECT_EQ(api::to_json_string(rows[1].as_object().at("cells")), R"(["a","x","<unknown>"])");
}

TEST(TableTest, EmptyLists) {
  // The kind printers answer an empty list with "rows":[], the default one with null.
  const auto pods = to_table(printer_for("", "Pod"), {}, {}, "9", "", now());
  EXPECT_TRUE(pods.at("rows").is_array());
  EXPECT_TRUE(pods.at("rows").as_array().empty());
  const auto custom = to_table(default_printer(), {}, {}, "9", "", now());
  EXPECT_TRUE(custom.at("rows").is_null());
  EXPECT_EQ(custom.at("columnDefinitions").as_array().size(), 2u);
}

TEST(TableTest, ParseIncludeObject) {
  EXPECT_EQ(*parse_include_object(""), IncludeObject::kMetadata);
  EXPECT_EQ(*parse_include_object("Metadata"), IncludeObject::kMetadata);
  EXPECT_EQ(*parse_include_object("None"), IncludeObject::kNone);
  EXPECT_EQ(*parse_include_object("Object"), IncludeObject::kObject);
  auto bad = parse_include_object("object");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), R"(unrecognized includeObject value: "object")");
  bad = parse_include_object("a\"b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), R"(unrecognized includeObject value: "a\"b")");
}

TEST(PrinterLookupTest, FindPrinter) {
  EXPECT_NE(find_printer("", "Pod"), nullptr);
  EXPECT_NE(find_printer("", "Node"), nullptr);
  EXPECT_NE(find_printer("", "Namespace"), nullptr);
  EXPECT_NE(find_printer("", "Event"), nullptr);
  EXPECT_NE(find_printer("", "ConfigMap"), nullptr);
  EXPECT_NE(find_printer("", "Secret"), nullptr);
  EXPECT_NE(find_printer("", "Service"), nullptr);
  EXPECT_NE(find_printer("apps", "Deployment"), nullptr);
  EXPECT_NE(find_printer("apps", "ReplicaSet"), nullptr);
  EXPECT_NE(find_printer("coordination.k8s.io", "Lease"), nullptr);
  EXPECT_NE(find_printer("events.k8s.io", "Event"), nullptr);
  EXPECT_NE(find_printer("events.k8s.io", "Event"), find_printer("", "Event"));
  // Kinds without an upstream printer here, and kinds in the wrong group.
  EXPECT_EQ(find_printer("", "ServiceAccount"), nullptr);
  EXPECT_EQ(find_printer("apps", "Pod"), nullptr);
  EXPECT_EQ(find_printer("", "Deployment"), nullptr);
  EXPECT_EQ(find_printer("extensions", "Deployment"), nullptr);
  EXPECT_EQ(find_printer("stable.example.com", "CronTab"), nullptr);
  EXPECT_EQ(find_printer("", "pod"), nullptr);
}

TEST(DefaultPrinterTest, NameAndCreatedAt) {
  const auto crontab = parse_object(
      R"({"apiVersion":"stable.example.com/v1","kind":"CronTab",
          "metadata":{"name":"my-cron","creationTimestamp":"2026-11-30T13:00:00+01:00"}})");
  const auto table = testing::table_of(default_printer(), crontab);
  EXPECT_EQ(api::to_json_string(table.at("columnDefinitions").as_array()[1].as_object().at("type")),
            R"("date")");
  EXPECT_EQ(table.at("columnDefinitions").as_array()[1].as_object().at("name"), "Created At");
  // RFC 3339 in UTC, whole seconds.
  EXPECT_EQ(testing::cells_json(default_printer(), R"({"metadata":{"name":"my-cron",
                "creationTimestamp":"2026-11-30T13:00:00.75+01:00"}})"),
            R"(["my-cron","2026-11-30T12:00:00Z"])");
  // Go formats the zero time as well.
  EXPECT_EQ(testing::cells_json(default_printer(), R"({"metadata":{"name":"x"}})"),
            R"(["x","0001-01-01T00:00:00Z"])");
}

TEST(NamespacePrinterTest, Cells) {
  EXPECT_EQ(testing::cells_json(printer_for("", "Namespace"), kNamespace),
            R"(["team-a","Active","30s"])");
  EXPECT_EQ(
      testing::cells_json(printer_for("", "Namespace"),
                          R"({"metadata":{"name":"gone","creationTimestamp":)"
                          R"("2026-11-20T12:00:00Z","deletionTimestamp":"2026-11-30T11:00:00Z"},)"
                          R"("status":{"phase":"Terminating"}})"),
      R"(["gone","Terminating","10d"])");
  EXPECT_EQ(testing::cells_json(printer_for("", "Namespace"), R"({"metadata":{"name":"new"}})"),
            R"(["new","","<unknown>"])");
}

TEST(LeasePrinterTest, Cells) {
  const TablePrinter& leases = printer_for("coordination.k8s.io", "Lease");
  EXPECT_EQ(testing::cells_json(leases, R"({"metadata":{"name":"kcm","namespace":"kube-system",
                                           "creationTimestamp":"2026-09-01T00:00:00Z"},
                                           "spec":{"holderIdentity":"host-1_3c0e",
                                                   "leaseDurationSeconds":15}})"),
            R"(["kcm","host-1_3c0e","90d"])");
  EXPECT_EQ(testing::cells_json(leases, R"({"metadata":{"name":"free",
                                           "creationTimestamp":"2026-11-30T11:59:59Z"},
                                           "spec":{"holderIdentity":null}})"),
            R"(["free","","1s"])");
  const auto table = testing::table_of(leases, parse_object(R"({"metadata":{"name":"x"}})"));
  EXPECT_EQ(table.at("columnDefinitions").as_array()[1].as_object().at("name"), "Holder");
}

}  // namespace
}  // namespace kcm::local::printers
