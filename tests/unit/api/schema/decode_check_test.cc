#include "api/schema/decode_check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/schema/registry.h"

namespace kcm::api::schema {
namespace {

const Type& kind(std::string group, std::string k) {
  const Type* t = Registry::builtin().root({std::move(group), "v1", std::move(k)});
  EXPECT_NE(t, nullptr);
  return *t;
}

DecodeResult check(const Type& t, std::string_view body, DecodeOptions opts = {}) {
  auto r = decode_check_text(body, t, opts);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  return r.ok() ? std::move(*r) : DecodeResult{};
}

struct TypeErrorCase {
  std::string group;
  std::string kind;
  std::string body;
  std::string error;
};

// Go's encoding/json wording: the innermost struct, the JSON path from the
// root without indices, Go's name of the target type; custom unmarshalers
// (IntOrString, Quantity, Time) report their own errors.
TEST(DecodeCheck, TypeErrorsUseGoWording) {
  const std::vector<TypeErrorCase> cases = {
      {"apps", "Deployment", R"({"spec":{"replicas":"3"}})",
       "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type "
       "int32"},
      {"apps", "Deployment", R"({"spec":{"replicas":1.5}})",
       "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of "
       "type int32"},
      {"apps", "Deployment", R"({"spec":{"replicas":3000000000}})",
       "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas "
       "of type int32"},
      {"apps", "Deployment", R"({"spec":{"replicas":1e2}})",
       "json: cannot unmarshal number 1e2 into Go struct field DeploymentSpec.spec.replicas of "
       "type int32"},
      {"apps", "Deployment", R"({"spec":"x"})",
       "json: cannot unmarshal string into Go struct field Deployment.spec of type "
       "v1.DeploymentSpec"},
      {"apps", "Deployment", R"({"spec":{"paused":"yes"}})",
       "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type "
       "bool"},
      {"apps", "Deployment",
       R"({"spec":{"template":{"spec":{"containers":[{"name":"a","image":5}]}}}})",
       "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers."
       "image of type string"},
      {"apps", "Deployment", R"({"spec":{"template":{"spec":{"containers":{}}}}})",
       "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers "
       "of type []v1.Container"},
      {"apps", "Deployment", R"({"spec":{"template":{"spec":{"containers":["a"]}}}})",
       "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers "
       "of type v1.Container"},
      {"", "Pod", R"({"spec":{"containers":[{"ports":[{"protocol":6}]}]}})",
       "json: cannot unmarshal number into Go struct field ContainerPort.spec.containers.ports."
       "protocol of type v1.Protocol"},
      {"", "Pod", R"({"metadata":{"labels":{"a":1}}})",
       "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type "
       "string"},
      {"", "Pod", R"({"metadata":{"labels":[]}})",
       "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type "
       "map[string]string"},
      {"", "Pod", R"({"metadata":{"uid":7}})",
       "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type "
       "types.UID"},
      {"", "Pod", R"({"spec":{"volumes":[{"name":"v","hostPath":"x"}]}})",
       "json: cannot unmarshal string into Go struct field Volume.spec.volumes.hostPath of type "
       "v1.HostPathVolumeSource"},
      {"", "Pod", R"({"spec":{"containers":[{"resources":{"limits":"1"}}]}})",
       "json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers."
       "resources.limits of type v1.ResourceList"},
      {"apps", "Deployment", R"({"spec":{"strategy":{"rollingUpdate":{"maxSurge":true}}}})",
       "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy."
       "rollingUpdate.maxSurge of type int32"},
      {"apps", "Deployment", R"({"spec":{"strategy":{"rollingUpdate":{"maxSurge":2.5}}}})",
       "json: cannot unmarshal number 2.5 into Go struct field RollingUpdateDeployment.spec."
       "strategy.rollingUpdate.maxSurge of type int32"},
      {"", "Pod", R"({"spec":{"containers":[{"resources":{"limits":{"cpu":"1x"}}}]}})",
       "quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"", "Pod", R"({"spec":{"containers":[{"resources":{"limits":{"memory":"1Ki5"}}}]}})",
       "unable to parse quantity's suffix"},
      {"", "Pod", R"({"metadata":{"creationTimestamp":"yesterday"}})",
       "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" "
       "as \"2006\""},
      {"", "Pod", R"({"metadata":{"creationTimestamp":5}})",
       "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp "
       "of type string"},
      {"coordination.k8s.io", "Lease", R"({"spec":{"renewTime":"2024-01-01T00:00:00Z"}})",
       "parsing time \"2024-01-01T00:00:00Z\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot "
       "parse \"Z\" as \".000000\""},
      {"", "Pod", R"("x")", "json: cannot unmarshal string into Go value of type v1.Pod"},
      {"", "Pod", R"([])", "json: cannot unmarshal array into Go value of type v1.Pod"},
  };
  for (const auto& c : cases) {
    auto r = check(kind(c.group, c.kind), c.body);
    EXPECT_EQ(r.error, c.error) << c.body;
  }
}

TEST(DecodeCheck, ValidValuesPass) {
  const std::vector<std::string> bodies = {
      R"({"spec":{"replicas":3,"paused":null,"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}}}})",
      R"({"spec":{"replicas":-0,"minReadySeconds":2147483647,"revisionHistoryLimit":null}})",
      R"({"metadata":{"creationTimestamp":null,"deletionTimestamp":"2024-02-29T23:59:59+01:00"}})",
      R"({"metadata":{"managedFields":[{"fieldsV1":{"f:spec":{"anything":[1,{"x":true}]}}}]}})",
  };
  for (const auto& b : bodies) {
    auto r = check(kind("apps", "Deployment"), b);
    EXPECT_TRUE(r.ok()) << b << ": " << r.error;
    EXPECT_TRUE(r.strict_errors.empty()) << b;
  }
  auto pod = check(
      kind("", "Pod"),
      R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":0.5,"memory":" 1Gi "}},
                   "livenessProbe":{"httpGet":{"port":"http"},"periodSeconds":3}}]}})");
  EXPECT_TRUE(pod.ok()) << pod.error;
}

// The first recoverable type error wins, unless a custom unmarshaler fails
// later: Go stops there and returns that error instead.
TEST(DecodeCheck, CustomUnmarshalerErrorsStopDecoding) {
  auto r =
      check(kind("apps", "Deployment"),
            R"({"spec":{"replicas":"x","template":{"metadata":{"creationTimestamp":"bad"}}}})");
  EXPECT_EQ(r.error,
            "parsing time \"bad\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as "
            "\"2006\"");
  auto first = check(kind("apps", "Deployment"), R"({"spec":{"replicas":"x","paused":"y"}})");
  EXPECT_EQ(first.error,
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of "
            "type int32");
}

// Upstream's own integration case (test/integration/apiserver/field_validation_test.go).
TEST(DecodeCheck, StrictErrorsMatchUpstreamIntegrationCase) {
  const std::string body = R"({
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "dupename", "name": "deployment", "labels": {"app": "nginx"},
                 "unknownMeta": "metaVal"},
    "spec": {
      "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2",
      "paused": true, "paused": false,
      "selector": {"matchLabels": {"app": "nginx"}},
      "template": {"metadata": {"labels": {"app": "nginx"}},
        "spec": {"containers": [{"name": "nginx", "image": "nginx:latest",
          "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}})";
  auto r = check(kind("apps", "Deployment"), body);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(strict_decoding_message(r.strict_errors),
            "strict decoding error: duplicate field \"metadata.name\", unknown field "
            "\"metadata.unknownMeta\", unknown field \"spec.unknown1\", unknown field "
            "\"spec.unknownDupe\", duplicate field \"spec.paused\", unknown field "
            "\"spec.template.spec.containers[0].unknownNested\", duplicate field "
            "\"spec.template.spec.containers[0].imagePullPolicy\"");
  EXPECT_EQ(r.unknown_fields,
            (std::vector<std::string>{"metadata.unknownMeta", "spec.unknown1", "spec.unknownDupe",
                                      "spec.template.spec.containers[0].unknownNested"}));
  EXPECT_EQ(r.duplicate_fields,
            (std::vector<std::string>{"metadata.name", "spec.paused",
                                      "spec.template.spec.containers[0].imagePullPolicy"}));
}

TEST(DecodeCheck, UnknownFieldPaths) {
  struct Case {
    std::string body;
    std::vector<std::string> unknown;
  };
  const std::vector<Case> cases = {
      {R"({"spec":{"foo":1}})", {"spec.foo"}},
      {R"({"spec":{"Replicas":1}})", {"spec.Replicas"}},  // case-sensitive
      {R"({"spec":{"foo":{"bar":1}}})", {"spec.foo"}},    // nothing below an unknown field
      {R"({"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b","imagee":"x"}]}}}})",
       {"spec.template.spec.containers[1].imagee"}},
      {R"({"spec":{"template":{"spec":{"volumes":[{"name":"v","hostPath":{"path":"/","typo":1}}]}}}})",
       {"spec.template.spec.volumes[0].hostPath.typo"}},
      {R"({"metadata":{"managedFields":[{"fieldsV1":{"whatever":1}}]},"status":{"x":1}})",
       {"status.x"}},
      {R"({"spec":{"selector":{"matchLabels":{"any-key":"v"}}}})", {}},
  };
  for (const auto& c : cases) {
    auto r = check(kind("apps", "Deployment"), c.body);
    EXPECT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.unknown_fields, c.unknown) << c.body;
  }
}

TEST(DecodeCheck, TypeErrorTakesPrecedenceOverStrictErrors) {
  auto r = check(kind("apps", "Deployment"), R"({"spec":{"foo":1,"replicas":"x"}})");
  EXPECT_FALSE(r.ok());
  auto outcome = check_request_body(R"({"spec":{"foo":1,"replicas":"x"}})",
                                    {"apps", "v1", "Deployment"}, FieldValidation::kStrict);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, 400);
  EXPECT_EQ(outcome.error->message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot "
            "unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32");
}

TEST(DecodeCheck, FieldValidationModes) {
  const std::string body =
      R"({"apiVersion":"apps/v1","kind":"Deployment","spec":{"foo":1,"bar":2}})";
  const GroupVersionKind gvk{"apps", "v1", "Deployment"};
  auto strict = check_request_body(body, gvk, FieldValidation::kStrict);
  ASSERT_TRUE(strict.error.has_value());
  EXPECT_EQ(strict.error->reason, "BadRequest");
  EXPECT_EQ(strict.error->message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding "
            "error: unknown field \"spec.foo\", unknown field \"spec.bar\"");
  auto warn = check_request_body(body, gvk, FieldValidation::kWarn);
  EXPECT_FALSE(warn.error.has_value());
  EXPECT_EQ(warn.warnings,
            (std::vector<std::string>{"unknown field \"spec.foo\"", "unknown field \"spec.bar\""}));
  auto ignore = check_request_body(body, gvk, FieldValidation::kIgnore);
  EXPECT_FALSE(ignore.error.has_value());
  EXPECT_TRUE(ignore.warnings.empty());

  EXPECT_EQ(parse_field_validation(""), FieldValidation::kWarn);
  EXPECT_EQ(parse_field_validation("Strict"), FieldValidation::kStrict);
  EXPECT_EQ(parse_field_validation("Ignore"), FieldValidation::kIgnore);
  EXPECT_EQ(parse_field_validation("strict"), std::nullopt);
  const Status bad = invalid_field_validation("CreateOptions", "strict");
  EXPECT_EQ(bad.code, 422);
  EXPECT_EQ(bad.reason, "Invalid");
  EXPECT_NE(bad.message.find("fieldValidation: Unsupported value: \"strict\""), std::string::npos)
      << bad.message;
}

// YAML bodies reach the decoder as JSON with sorted keys.
TEST(DecodeCheck, SortedKeysOrderForYaml) {
  DecodeOptions opts;
  opts.sorted_keys = true;
  auto r = check(kind("apps", "Deployment"),
                 R"({"spec":{"unknown1":1,"template":{"spec":{"containers":[{"unknownNested":1}]}}},
                     "metadata":{"unknownMeta":1}})",
                 opts);
  EXPECT_EQ(r.unknown_fields,
            (std::vector<std::string>{"metadata.unknownMeta",
                                      "spec.template.spec.containers[0].unknownNested",
                                      "spec.unknown1"}));
}

TEST(DecodeCheck, StrictErrorsAreCappedAndDeduplicated) {
  std::string body = R"({"spec":{)";
  for (int i = 0; i < 150; ++i)
    body += "\"f" + std::to_string(i) + "\":1,";
  body += R"("f0":2}})";
  auto r = check(kind("apps", "Deployment"), body);
  EXPECT_EQ(r.strict_errors.size(), 100u);
  EXPECT_EQ(r.strict_errors.front(), "unknown field \"spec.f0\"");
}

TEST(DecodeCheck, ParsedValueVariant) {
  auto v = parse_json(R"({"spec":{"replicas":2.5,"foo":true}})", nullptr);
  ASSERT_TRUE(v.has_value());
  auto r = decode_check(*v, kind("apps", "Deployment"));
  EXPECT_EQ(
      r.error,
      "json: cannot unmarshal number 2.5 into Go struct field DeploymentSpec.spec.replicas of "
      "type int32");
  auto ok =
      decode_check(*parse_json(R"({"spec":{"foo":true}})", nullptr), kind("apps", "Deployment"));
  EXPECT_EQ(ok.unknown_fields, (std::vector<std::string>{"spec.foo"}));
}

TEST(DecodeCheck, InvalidJsonText) {
  auto r = decode_check_text(R"({"spec":)", kind("apps", "Deployment"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "invalid JSON at offset 8: unexpected end of input");
  auto bad = decode_check_text(R"({"a":1} x)", kind("apps", "Deployment"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "invalid JSON at offset 8: unexpected data after the JSON value");
}

std::string read_fixture() {
  // shared/ sits beside the repository, locally and in CI.
  std::ifstream f(std::string(KCM_TEST_DATA_DIR) +
                  "/../../../shared/spec/fixtures/pod-typical.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(DecodeCheck, TypicalPodFixture) {
  const std::string text = read_fixture();
  if (text.empty()) GTEST_SKIP() << "shared/spec/fixtures/pod-typical.json not found";
  auto r = check(kind("", "Pod"), text);
  EXPECT_TRUE(r.ok()) << r.error;
  // The fixture nests its status one level too deep ({"status":{"status":{...}}});
  // upstream reports exactly that.
  EXPECT_EQ(r.unknown_fields, (std::vector<std::string>{"status.status"}));

  // With the status where it belongs, every field is known.
  auto v = parse_json(text, nullptr);
  ASSERT_TRUE(v.has_value());
  auto& obj = v->as_object();
  json::value inner = obj["status"].as_object()["status"];
  obj["status"] = inner;
  auto fixed = decode_check(*v, kind("", "Pod"));
  EXPECT_TRUE(fixed.ok()) << fixed.error;
  EXPECT_TRUE(fixed.unknown_fields.empty()) << fixed.unknown_fields.front();

  // A typo deep inside is caught.
  auto& container = obj["spec"].as_object()["containers"].as_array()[0].as_object();
  container["imagee"] = "nginx";
  container["livenessProbe"].as_object()["httpGett"] = json::object{};
  auto typo = decode_check(*v, kind("", "Pod"));
  EXPECT_EQ(typo.unknown_fields,
            (std::vector<std::string>{"spec.containers[0].livenessProbe.httpGett",
                                      "spec.containers[0].imagee"}));
}

}  // namespace
}  // namespace kcm::api::schema
