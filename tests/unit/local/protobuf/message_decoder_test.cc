#include "local/protobuf/message_decoder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/json.h"
#include "api/schema/registry.h"
#include "proto_writer.h"

namespace kcm::local::protobuf {
namespace {

using api::schema::Registry;
using api::schema::Type;
using testing::ProtoWriter;

const Type& type_of(std::string_view package, std::string_view name) {
  const Type* t = Registry::builtin().find(package, name);
  EXPECT_NE(t, nullptr) << package << "." << name;
  return *t;
}

// The decoded JSON, or "error: <message> (at <path>, byte <offset>)".
std::string decode(const Type& type, const ProtoWriter& w) {
  auto r = decode_message(w.str(), type);
  if (!r) return "error: " + r.error().to_string();
  return api::to_json_string(json::value(*r));
}

std::string decode(std::string_view package, std::string_view name, const ProtoWriter& w) {
  return decode(type_of(package, name), w);
}

ProtoWriter timestamp(std::int64_t seconds, std::int32_t nanos = 0) {
  ProtoWriter w;
  w.varint(1, static_cast<std::uint64_t>(seconds));
  w.varint(2, static_cast<std::uint64_t>(static_cast<std::int64_t>(nanos)));
  return w;
}

ProtoWriter entry(std::string_view key, const ProtoWriter& value) {
  ProtoWriter e;
  e.bytes(1, key).message(2, value);
  return e;
}

ProtoWriter entry(std::string_view key, std::string_view value) {
  ProtoWriter e;
  e.bytes(1, key).bytes(2, value);
  return e;
}

ProtoWriter quantity(std::string_view s) {
  ProtoWriter w;
  w.bytes(1, s);
  return w;
}

// ---- what Go prints for set and unset fields ----

TEST(MessageDecoderTest, EmptyStructPrintsGoZeroValue) {
  // Pointers left out (replicas), pointer without omitempty as null
  // (selector), value structs always printed, nil required lists as null.
  EXPECT_EQ(decode("apps/v1", "DeploymentSpec", ProtoWriter()),
            R"({"selector":null,"template":{"metadata":{"creationTimestamp":null},)"
            R"("spec":{"containers":null}},"strategy":{}})");
  EXPECT_EQ(decode("core/v1", "Container", ProtoWriter()), R"({"name":"","resources":{}})");
  EXPECT_EQ(decode("core/v1", "ContainerPort", ProtoWriter()), R"({"containerPort":0})");
  EXPECT_EQ(decode("core/v1", "ResourceFieldSelector", ProtoWriter()),
            R"({"resource":"","divisor":"0"})");
  EXPECT_EQ(decode("core/v1", "HTTPGetAction", ProtoWriter()), R"({"port":0})");
  EXPECT_EQ(decode("core/v1", "GRPCAction", ProtoWriter()), R"({"port":0,"service":null})");
}

TEST(MessageDecoderTest, PointerZeroIsPrintedValueZeroIsNot) {
  // kubectl writes every value field, zero or not; pointers only when set.
  ProtoWriter spec;
  spec.varint(1, 0)   // replicas *int32
      .varint(5, 0)   // minReadySeconds int32
      .varint(6, 0)   // revisionHistoryLimit *int32
      .varint(7, 0);  // paused bool
  EXPECT_EQ(decode("apps/v1", "DeploymentSpec", spec),
            R"({"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},)"
            R"("spec":{"containers":null}},"strategy":{},"revisionHistoryLimit":0})");
  ProtoWriter pod_spec;
  pod_spec.varint(21, 0).varint(11, 1).varint(25, 0);  // automount false, hostNetwork, priority 0
  EXPECT_EQ(decode("core/v1", "PodSpec", pod_spec),
            R"({"containers":null,"automountServiceAccountToken":false,"hostNetwork":true,)"
            R"("priority":0})");
}

TEST(MessageDecoderTest, PresentPointerStructPrintsEvenWhenEmpty) {
  ProtoWriter c;
  c.bytes(1, "app").message(15, ProtoWriter());  // securityContext: {}
  EXPECT_EQ(decode("core/v1", "Container", c),
            R"({"name":"app","resources":{},"securityContext":{}})");
  ProtoWriter meta;
  meta.message(9, ProtoWriter());  // deletionTimestamp: a set pointer to the zero time
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", meta),
            R"({"creationTimestamp":null,"deletionTimestamp":null})");
}

TEST(MessageDecoderTest, ScalarsAndLastOccurrenceWins) {
  ProtoWriter port;
  port.bytes(1, "http")
      .varint(2, 0xFFFFFFFFFFFFFFFFull)  // hostPort -1, sign-extended as Go writes int32
      .varint(3, 8080)
      .bytes(4, "TCP")
      .bytes(1, "web");  // a repeated singular field: the last one wins
  EXPECT_EQ(decode("core/v1", "ContainerPort", port),
            R"({"name":"web","hostPort":-1,"containerPort":8080,"protocol":"TCP"})");
  ProtoWriter meta;
  meta.varint(7, 0x7FFFFFFFFFFFFFFFull);  // generation: int64 printed as a number
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", meta),
            R"({"generation":9223372036854775807,"creationTimestamp":null})");
}

TEST(MessageDecoderTest, InvalidUtf8IsCoercedAsGoPrintsIt) {
  ProtoWriter meta;
  meta.bytes(1, "bad\xFFname");
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", meta),
            "{\"name\":\"bad\xEF\xBF\xBDname\",\"creationTimestamp\":null}");
}

TEST(MessageDecoderTest, SingularMessageRepeatedOnTheWireIsMerged) {
  ProtoWriter first, second;
  first.varint(2, 1000);   // runAsUser
  second.varint(6, 2000);  // runAsGroup
  ProtoWriter spec;
  spec.message(14, first).message(14, second);
  EXPECT_EQ(decode("core/v1", "PodSpec", spec),
            R"({"containers":null,"securityContext":{"runAsUser":1000,"runAsGroup":2000}})");
}

// ---- repeated fields and maps ----

TEST(MessageDecoderTest, RepeatedNumbersPackedOrNot) {
  ProtoWriter packed;
  packed.raw_varint(1).raw_varint(2).raw_varint(300);
  ProtoWriter sc;
  sc.bytes(4, packed.str()).varint(4, 4);  // supplementalGroups
  EXPECT_EQ(decode("core/v1", "PodSecurityContext", sc), R"({"supplementalGroups":[1,2,300,4]})");
  // An empty packed run leaves the slice nil: omitted.
  ProtoWriter empty;
  empty.bytes(4, "");
  EXPECT_EQ(decode("core/v1", "PodSecurityContext", empty), "{}");
}

TEST(MessageDecoderTest, ListsKeepOrderAndNestedMessages) {
  ProtoWriter nginx, sidecar, spec;
  nginx.bytes(1, "nginx").bytes(2, "nginx:1.27").bytes(4, "-g").bytes(4, "daemon off;");
  sidecar.bytes(1, "sidecar");
  spec.message(2, nginx).message(2, sidecar);
  EXPECT_EQ(decode("core/v1", "PodSpec", spec),
            R"({"containers":[{"name":"nginx","image":"nginx:1.27","args":["-g","daemon off;"],)"
            R"("resources":{}},{"name":"sidecar","resources":{}}]})");
}

TEST(MessageDecoderTest, MapsSortedLastKeyWinsMissingPartsZero) {
  ProtoWriter meta;
  meta.message(11, entry("tier", "web"))
      .message(11, entry("app", "old"))
      .message(11, entry("app", "shop"))
      .message(12, ProtoWriter().bytes(1, "note"));  // annotation without a value
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", meta),
            R"({"creationTimestamp":null,"labels":{"app":"shop","tier":"web"},)"
            R"("annotations":{"note":""}})");
}

TEST(MessageDecoderTest, ConfigMapBinaryDataIsBase64) {
  ProtoWriter cm;
  cm.message(1, ProtoWriter().bytes(1, "app"))
      .message(2, entry("mode", "fast"))
      .message(3, entry("logo", std::string_view("\x89PNG\0", 5)))
      .varint(4, 1);
  EXPECT_EQ(decode("core/v1", "ConfigMap", cm),
            R"({"metadata":{"name":"app","creationTimestamp":null},"immutable":true,)"
            R"("data":{"mode":"fast"},"binaryData":{"logo":"iVBORwA="}})");
}

TEST(MessageDecoderTest, ResourceListQuantitiesAreCanonical) {
  ProtoWriter rr;
  rr.message(1, entry("memory", quantity("1024Mi")))
      .message(1, entry("cpu", quantity("1000m")))
      .message(2, entry("cpu", quantity("0.5")))
      .message(2, entry("ephemeral-storage", ProtoWriter()));  // no value: zero
  EXPECT_EQ(decode("core/v1", "ResourceRequirements", rr),
            R"({"limits":{"cpu":"1","memory":"1Gi"},)"
            R"("requests":{"cpu":"500m","ephemeral-storage":"0"}})");
}

// ---- well-known types ----

TEST(MessageDecoderTest, TimesAsMetav1PrintsThem) {
  ProtoWriter meta;
  meta.message(8, timestamp(1'796'032'800, 999'999'999));  // nanoseconds dropped
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", meta),
            R"({"creationTimestamp":"2026-11-30T10:00:00Z"})");
  ProtoWriter zero;
  zero.message(8, timestamp(-62'135'596'800));  // Go's zero time
  EXPECT_EQ(decode("meta/v1", "ObjectMeta", zero), R"({"creationTimestamp":null})");

  ProtoWriter lease;
  lease.bytes(1, "kcm-1")
      .message(3, timestamp(-62'135'596'800))  // a set pointer to the zero time
      .message(4, timestamp(1'796'032'800, 123'456'789));
  EXPECT_EQ(decode("coordination.k8s.io/v1", "LeaseSpec", lease),
            R"({"holderIdentity":"kcm-1","acquireTime":null,)"
            R"("renewTime":"2026-11-30T10:00:00.123456Z"})");
}

TEST(MessageDecoderTest, IntOrString) {
  ProtoWriter num, str, rolling;
  num.varint(1, 0).varint(2, 8080);
  str.varint(1, 1).bytes(3, "http");
  ProtoWriter get;
  get.message(2, num);
  EXPECT_EQ(decode("core/v1", "HTTPGetAction", get), R"({"port":8080})");
  ProtoWriter named;
  named.message(2, str);
  EXPECT_EQ(decode("core/v1", "HTTPGetAction", named), R"({"port":"http"})");
  rolling.message(1, ProtoWriter().varint(1, 1).bytes(3, "25%"))
      .message(2, ProtoWriter().varint(1, 0).varint(2, 0));
  EXPECT_EQ(decode("apps/v1", "RollingUpdateDeployment", rolling),
            R"({"maxUnavailable":"25%","maxSurge":0})");
}

TEST(MessageDecoderTest, FieldsV1IsRawJson) {
  ProtoWriter entry_msg;
  entry_msg.bytes(1, "kubectl")
      .bytes(2, "Update")
      .message(7, ProtoWriter().bytes(1, R"({"f:metadata":{"f:labels":{}}})"));
  EXPECT_EQ(decode("meta/v1", "ManagedFieldsEntry", entry_msg),
            R"({"manager":"kubectl","operation":"Update",)"
            R"("fieldsV1":{"f:metadata":{"f:labels":{}}}})");
}

// ---- inline (embedded) structs ----

TEST(MessageDecoderTest, InlineStructsPrintTheirFieldsInPlace) {
  ProtoWriter volume;
  volume.bytes(1, "data").message(2, ProtoWriter().message(2, ProtoWriter()));  // emptyDir: {}
  EXPECT_EQ(decode("core/v1", "Volume", volume), R"({"name":"data","emptyDir":{}})");
  ProtoWriter cm;
  cm.message(1, ProtoWriter().bytes(1, "settings")).varint(3, 420);
  EXPECT_EQ(decode("core/v1", "ConfigMapVolumeSource", cm),
            R"({"name":"settings","defaultMode":420})");
  ProtoWriter ephemeral;
  ephemeral.message(1, ProtoWriter().bytes(1, "dbg").bytes(2, "busybox")).bytes(2, "app");
  EXPECT_EQ(decode("core/v1", "EphemeralContainer", ephemeral),
            R"({"name":"dbg","image":"busybox","resources":{},"targetContainerName":"app"})");
  // The embedded struct absent: its zero value still prints (name is required).
  EXPECT_EQ(decode("core/v1", "EphemeralContainer", ProtoWriter()),
            R"({"name":"","resources":{}})");
}

TEST(MessageDecoderTest, RootTypeMetaComesFirstKindBeforeApiVersion) {
  ProtoWriter ns;
  ns.message(1, ProtoWriter().bytes(1, "team-a").message(8, ProtoWriter()))
      .message(2, ProtoWriter())
      .message(3, ProtoWriter().bytes(1, ""));
  const api::GroupVersionKind gvk{"", "v1", "Namespace"};
  auto r = decode_message(ns.str(), type_of("core/v1", "Namespace"), 0, &gvk);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(api::to_json_string(json::value(*r)),
            R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a",)"
            R"("creationTimestamp":null},"spec":{},"status":{}})");
  // Without a type meta the fields that have no protobuf number are left out.
  EXPECT_EQ(decode("core/v1", "Namespace", ns),
            R"({"metadata":{"name":"team-a","creationTimestamp":null},"spec":{},"status":{}})");
}

// ---- malformed and unknown input ----

TEST(MessageDecoderTest, Errors) {
  struct Row {
    const char* type;
    ProtoWriter body;
    const char* want;
  };
  ProtoWriter nested_unknown;
  nested_unknown.message(2, ProtoWriter()
                                .message(2, ProtoWriter().bytes(1, "a"))
                                .message(2, ProtoWriter().bytes(1, "b").varint(42, 1)));
  ProtoWriter bad_quantity;
  bad_quantity.message(1, entry("cpu", quantity("lots")));
  ProtoWriter truncated;
  truncated.bytes(1, "web").tag(2, 2).raw_varint(10).raw("abc");
  ProtoWriter overflow;
  overflow.tag(7, 0).raw(std::string(10, '\xFF')).raw("\x01");
  const Row rows[] = {
      {"Pod", nested_unknown,
       "error: the body of the request was in an unknown format: field number 42 of v1.Container "
       "is not known to this server (at spec.containers[1], byte 12)"},
      {"ObjectMeta", truncated, "error: unexpected EOF (byte 7)"},
      {"ObjectMeta", ProtoWriter().varint(1, 5),
       "error: proto: wrong wireType = 0 for field name of v1.ObjectMeta (at name, byte 0)"},
      {"ObjectMeta", ProtoWriter().tag(1, 3),
       "error: proto: wrong wireType = 3 for field name of v1.ObjectMeta (at name, byte 0)"},
      {"ObjectMeta", ProtoWriter().tag(1, 2).raw_varint(0xFFFFFFFFFFFFFFFFull),
       "error: proto: negative length found during unmarshaling (byte 1)"},
      {"ObjectMeta", overflow, "error: proto: integer overflow (byte 1)"},
      {"ObjectMeta", ProtoWriter().tag(7, 0).raw("\x80\x80"), "error: unexpected EOF (byte 1)"},
      {"ObjectMeta", ProtoWriter().raw(std::string("\0", 1)),
       "error: proto: v1.ObjectMeta: illegal tag 0 (wire type 0) (byte 0)"},
      {"ObjectMeta", ProtoWriter().tag(3, 4),
       "error: proto: v1.ObjectMeta: wiretype end group for non-group (byte 0)"},
      {"ResourceRequirements", bad_quantity,
       "error: quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (at limits[cpu], byte 11)"},
      {"HTTPGetAction", ProtoWriter().message(2, ProtoWriter().varint(1, 7)),
       "error: impossible IntOrString.Type 7 (at port, byte 2)"},
      {"ObjectMeta", ProtoWriter().message(8, ProtoWriter().varint(1, 253'402'300'800)),
       "error: time out of range: 253402300800 seconds since 1970 (at creationTimestamp, byte 2)"},
      {"ObjectMeta", ProtoWriter().message(8, ProtoWriter().bytes(1, "x")),
       "error: proto: wrong wireType = 2 for field 1 of v1.Time (at creationTimestamp, byte 2)"},
      {"ObjectMeta", ProtoWriter().message(8, ProtoWriter().varint(3, 1)),
       "error: the body of the request was in an unknown format: field number 3 of v1.Time is not "
       "known to this server (at creationTimestamp, byte 2)"},
      {"ObjectMeta", ProtoWriter().message(11, ProtoWriter().bytes(1, "k").varint(3, 1)),
       "error: the body of the request was in an unknown format: field number 3 of "
       "map[string]string entry is not known to this server (at labels, byte 5)"},
  };
  const char* package_of[][2] = {{"Pod", "core/v1"},
                                 {"ObjectMeta", "meta/v1"},
                                 {"ResourceRequirements", "core/v1"},
                                 {"HTTPGetAction", "core/v1"}};
  for (const auto& row : rows) {
    std::string package;
    for (const auto& p : package_of) {
      if (std::string_view(p[0]) == row.type) package = p[1];
    }
    EXPECT_EQ(decode(package, row.type, row.body), row.want) << row.type;
  }
}

TEST(MessageDecoderTest, UnknownFieldsCarryingZeroValuesAreDropped) {
  // kubectl 1.33 writes PodStatus.observedGeneration (field 17, newer than
  // this schema) as 0 in every pod it creates; its JSON would omit it.
  ProtoWriter status;
  status.bytes(1, "Pending").varint(17, 0).bytes(18, "").message(19, ProtoWriter()).fixed64(20, 0);
  EXPECT_EQ(decode("core/v1", "PodStatus", status), R"({"phase":"Pending"})");
  ProtoWriter set;
  set.bytes(1, "Pending").varint(17, 3);
  EXPECT_EQ(decode("core/v1", "PodStatus", set),
            "error: the body of the request was in an unknown format: field number 17 of "
            "v1.PodStatus is not known to this server (byte 9)");
  ProtoWriter text;
  text.bytes(18, "x");
  EXPECT_EQ(decode("core/v1", "PodStatus", text),
            "error: the body of the request was in an unknown format: field number 18 of "
            "v1.PodStatus is not known to this server (byte 0)");
}

TEST(MessageDecoderTest, FieldsV1MustBeJson) {
  ProtoWriter entry_msg;
  entry_msg.message(7, ProtoWriter().bytes(1, "{"));
  const std::string got = decode("meta/v1", "ManagedFieldsEntry", entry_msg);
  EXPECT_EQ(got.rfind("error: v1.FieldsV1 is not JSON: ", 0), 0u) << got;
  EXPECT_NE(got.find("(at fieldsV1, byte 4)"), std::string::npos) << got;
}

// ---- kinds the built-in types do not use ----

constexpr std::string_view kTestDefinitions = R"(package test/v1 prefix=io.k8s.test.v1 short=test
type Thing "A type with every remaining kind."
  data    bytes        1 omitempty "Bytes, omitempty."
  blob    bytes        2 req "Bytes without omitempty."
  ratio   double       3 omitempty "A float64."
  ratios  []double     4 omitempty "Float64s."
  timeout Duration     5 "A metav1.Duration."
  ext     RawExtension 6 "A runtime.RawExtension."
  counts  []int32      7 omitempty "Numbers."
)";

std::unique_ptr<Registry> test_registry() {
  auto r = Registry::parse({{"test.schema", kTestDefinitions}});
  EXPECT_TRUE(r) << r.error();
  return std::move(*r);
}

TEST(MessageDecoderTest, BytesDoublesDurationsRawExtensions) {
  const auto registry = test_registry();
  const Type& thing = *registry->find("test/v1", "Thing");
  EXPECT_EQ(decode(thing, ProtoWriter()), R"({"blob":null,"timeout":"0s","ext":null})");

  ProtoWriter packed_doubles;
  packed_doubles.raw(std::string("\0\0\0\0\0\0\xF0\x3F", 8));  // 1.0
  ProtoWriter w;
  w.bytes(1, std::string("\0\xFF", 2))
      .bytes(2, "")
      .fixed64(3, 0x3FF8000000000000ull)  // 1.5
      .bytes(4, packed_doubles.str())
      .fixed64(4, 0x4000000000000000ull)  // 2.0
      .message(5, ProtoWriter().varint(1, 90'500'000'000))
      .message(6, ProtoWriter().bytes(1, R"({"apiVersion":"v1","kind":"Pod"})"));
  auto r = decode_message(w.str(), thing);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->at("data"), json::value("AP8="));
  EXPECT_EQ(r->at("blob"), json::value(""));
  EXPECT_EQ(r->at("ratio").as_double(), 1.5);
  EXPECT_EQ(r->at("ratios"), (json::array{1.0, 2.0}));
  EXPECT_EQ(r->at("timeout"), json::value("1m30.5s"));
  EXPECT_EQ(r->at("ext"), (json::object{{"apiVersion", "v1"}, {"kind", "Pod"}}));

  ProtoWriter nan;
  nan.fixed64(3, 0x7FF8000000000001ull);
  EXPECT_EQ(decode(thing, nan), "error: json: unsupported value: NaN (at ratio, byte 0)");
  ProtoWriter short_packed;
  short_packed.bytes(4, "\x01\x02\x03");
  EXPECT_EQ(decode(thing, short_packed), "error: unexpected EOF (at ratios[0], byte 2)");
}

}  // namespace
}  // namespace kcm::local::protobuf
