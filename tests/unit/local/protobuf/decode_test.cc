#include "local/protobuf/decode.h"

#include <gtest/gtest.h>

#include <string>

#include "api/json.h"
#include "local/protobuf/envelope.h"
#include "proto_writer.h"

namespace kcm::local::protobuf {
namespace {

using testing::envelope;
using testing::ProtoWriter;

const api::GroupVersionKind kNamespace{"", "v1", "Namespace"};
const api::GroupVersionKind kDeployment{"apps", "v1", "Deployment"};

ProtoWriter namespace_named(std::string_view name) {
  ProtoWriter ns;
  ns.message(1, ProtoWriter().bytes(1, name));
  return ns;
}

std::string decoded(std::string_view body, const api::GroupVersionKind& gvk) {
  auto r = decode_protobuf_object(body, gvk);
  if (!r)
    return "error " + std::to_string(r.error().code) + " " + r.error().reason + ": " +
           r.error().message;
  return api::to_json_string(*r);
}

TEST(DecodeProtobufObjectTest, DecodesTheEnvelopeAndTheObject) {
  EXPECT_EQ(decoded(envelope("v1", "Namespace", namespace_named("team-a")), kNamespace),
            R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a",)"
            R"("creationTimestamp":null},"spec":{},"status":{}})");
}

TEST(DecodeProtobufObjectTest, TypeMetaDefaultsToTheEndpoint) {
  const std::string want = R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"x",)"
                           R"("creationTimestamp":null},"spec":{},"status":{}})";
  EXPECT_EQ(decoded(envelope("", "", namespace_named("x")), kNamespace), want);
  // An apiVersion Go cannot parse is dropped, then defaulted.
  EXPECT_EQ(decoded(envelope("a/b/c", "Namespace", namespace_named("x")), kNamespace), want);
  // No Unknown fields at all: the zero object.
  EXPECT_EQ(decoded(std::string("k8s\0\x22\x00", 6), kNamespace),
            R"({"kind":"Namespace","apiVersion":"v1","metadata":{"creationTimestamp":null},)"
            R"("spec":{},"status":{}})");
}

TEST(DecodeProtobufObjectTest, Errors) {
  ProtoWriter unknown_in_spec;
  unknown_in_spec.message(1, ProtoWriter().bytes(1, "web")).message(2, ProtoWriter().varint(99, 1));
  const struct {
    std::string body;
    api::GroupVersionKind gvk;
    std::string want;
  } rows[] = {
      {"", kNamespace,
       "error 400 BadRequest: the object provided is unrecognized (must be of type Namespace): "
       "empty data (<empty>)"},
      {std::string("k8s\0", 4), kNamespace,
       "error 400 BadRequest: the object provided is unrecognized (must be of type Namespace): "
       "empty body (6b387300)"},
      {R"({"kind":"Namespace"})", kNamespace,
       "error 400 BadRequest: the object provided is unrecognized (must be of type Namespace): "
       "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] "
       "(7b226b696e64223a224e616d657370616365227d)"},
      {std::string("k8s\0\x0a\x05\x0a\x02v1", 10), kNamespace,
       "error 400 BadRequest: the object provided is unrecognized (must be of type Namespace): "
       "unexpected EOF (byte 6) (6b3873000a050a027631)"},
      {std::string("k8s\0\x2a\x00", 6), kNamespace,
       "error 400 BadRequest: the object provided is unrecognized (must be of type Namespace): "
       "field number 5 of runtime.Unknown is not known to this server (byte 4) (6b3873002a00)"},
      {envelope("apps/v1", "Deployment", namespace_named("x")), kNamespace,
       "error 400 BadRequest: the API version in the data (apps/v1) does not match the expected "
       "API version (v1)"},
      {envelope("v1", "Pod", namespace_named("x")), kNamespace,
       "error 400 BadRequest: Pod in version \"v1\" cannot be handled as a Namespace: the kind in "
       "the data does not match the expected kind (Namespace)"},
      {envelope("apps/v1", "Deployment", unknown_in_spec), kDeployment,
       "error 400 BadRequest: Deployment in version \"v1\" cannot be handled as a Deployment: the "
       "body of the request was in an unknown format: field number 99 of v1.DeploymentSpec is "
       "not known to this server (at spec, byte 38)"},
      {envelope("widgets.example.com/v1", "Widget", ProtoWriter()),
       {"widgets.example.com", "v1", "Widget"},
       "error 415 UnsupportedMediaType: the body of the request was in an unknown format - "
       "Widget has no protobuf schema in this server; accepted media types include: "
       "application/json, application/yaml"},
  };
  for (const auto& row : rows)
    EXPECT_EQ(decoded(row.body, row.gvk), row.want);
}

TEST(DecodeProtobufObjectTest, SharedKindWithAnExplicitType) {
  // DeleteOptions is declared once (/v1) but sent to every group's endpoints.
  const auto* type = api::schema::Registry::builtin().find("meta/v1", "DeleteOptions");
  ASSERT_NE(type, nullptr);
  ProtoWriter opts;
  opts.varint(1, 0).bytes(4, "Background").bytes(5, "All");
  const api::GroupVersionKind gvk{"apps", "v1", "DeleteOptions"};
  auto r = decode_protobuf_object(envelope("apps/v1", "DeleteOptions", opts), gvk, *type);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(api::to_json_string(*r),
            R"({"kind":"DeleteOptions","apiVersion":"apps/v1","gracePeriodSeconds":0,)"
            R"("propagationPolicy":"Background","dryRun":["All"]})");
  // Through the registry it is only found under /v1.
  EXPECT_EQ(decoded(envelope("apps/v1", "DeleteOptions", opts), gvk).substr(0, 9), "error 415");
}

TEST(EnvelopeTest, Fields) {
  ProtoWriter tm;
  tm.bytes(1, "apps/v1").bytes(2, "Deployment");
  ProtoWriter unknown;
  unknown.message(1, tm).bytes(2, "RAW").bytes(3, "gzip").bytes(4, "application/x");
  const std::string body = std::string("k8s\0", 4) + unknown.str();
  auto e = parse_envelope(body);
  ASSERT_TRUE(e) << e.error();
  EXPECT_EQ(e->api_version, "apps/v1");
  EXPECT_EQ(e->kind, "Deployment");
  EXPECT_EQ(e->raw, "RAW");
  EXPECT_EQ(body.substr(e->raw_offset, 3), "RAW");
  EXPECT_EQ(e->content_encoding, "gzip");
  EXPECT_EQ(e->content_type, "application/x");

  auto wrong = parse_envelope(std::string("k8s\0\x08\x01", 6));
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error(), "proto: wrong wireType = 0 for field TypeMeta (byte 4)");
}

}  // namespace
}  // namespace kcm::local::protobuf
