// CustomResourceDefinition validation, defaults and the strategy's preparation.
#include "local/crd/crd_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "api/name_validation.h"
#include "crd_test_util.h"
#include "local/crd/crd_defaults.h"

namespace kcm::local::crd {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;
using testing::messages;
using testing::parse;

json::object valid_crd() {
  return parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {
      "group": "example.com",
      "scope": "Namespaced",
      "names": {"plural": "widgets", "singular": "widget", "kind": "Widget",
                "listKind": "WidgetList", "shortNames": ["wd"], "categories": ["all"]},
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
          "status": {"type": "object", "properties": {"replicas": {"type": "integer"},
                                                      "selector": {"type": "string"}}}}}},
        "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                 "statusReplicasPath": ".status.replicas",
                                                 "labelSelectorPath": ".status.selector"}},
        "additionalPrinterColumns": [{"name": "Replicas", "type": "integer",
                                      "jsonPath": ".spec.replicas"}]
      }],
      "conversion": {"strategy": "None"}
    },
    "status": {"storedVersions": ["v1"]}
  })")
      .get_object();
}

json::object& at(json::object& o, std::initializer_list<std::string_view> path) {
  json::object* cur = &o;
  for (std::string_view k : path)
    cur = &(*cur)[k].get_object();
  return *cur;
}
json::object& version0(json::object& crd) {
  return at(crd, {"spec"})["versions"].get_array()[0].get_object();
}

// "$DNS1035" stands for the DNS-1035 label message.
std::string expand_dns1035(std::string s) {
  const std::string dns = api::is_dns1035_label("A")[0];
  for (std::size_t pos; (pos = s.find("$DNS1035")) != std::string::npos;)
    s.replace(pos, 8, dns);
  return s;
}

struct CrdCase {
  const char* name;
  std::function<void(json::object&)> mutate;
  std::vector<std::string> errors;
};

class CrdValidation : public ::testing::TestWithParam<CrdCase> {};

TEST_P(CrdValidation, Create) {
  json::object crd = valid_crd();
  GetParam().mutate(crd);
  std::vector<std::string> want;
  for (const std::string& e : GetParam().errors)
    want.push_back(expand_dns1035(e));
  EXPECT_THAT(messages(validate_crd(crd)), ElementsAreArray(want));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdValidation,
    ::testing::Values(
        CrdCase{"Valid", [](json::object&) {}, {}},
        CrdCase{
            "NameMustBePluralDotGroup",
            [](json::object& c) { at(c, {"metadata"})["name"] = "foo.example.com"; },
            {R"(metadata.name: Invalid value: "foo.example.com": must be spec.names.plural+"."+spec.group)"}},
        CrdCase{"NameRequired",
                [](json::object& c) { at(c, {"metadata"}).erase("name"); },
                {"metadata.name: Required value: name or generateName is required"}},
        CrdCase{"GroupRequired",
                [](json::object& c) {
                  at(c, {"spec"})["group"] = "";
                  at(c, {"metadata"})["name"] = "widgets.";
                },
                {R"(metadata.name: Invalid value: "widgets.": )" +
                     api::is_dns1123_subdomain("widgets.")[0],
                 "spec.group: Required value"}},
        CrdCase{
            "GroupNeedsADot",
            [](json::object& c) {
              at(c, {"spec"})["group"] = "example";
              at(c, {"metadata"})["name"] = "widgets.example";
            },
            {R"(spec.group: Invalid value: "example": should be a domain with at least one dot)"}},
        CrdCase{
            "GroupNotDns",
            [](json::object& c) {
              at(c, {"spec"})["group"] = "Example.com";
              at(c, {"metadata"})["name"] = "widgets.Example.com";
            },
            {R"(metadata.name: Invalid value: "widgets.Example.com": )" +
                 api::is_dns1123_subdomain("A")[0],
             R"(spec.group: Invalid value: "Example.com": )" + api::is_dns1123_subdomain("A")[0]}},
        CrdCase{"ScopeRequired",
                [](json::object& c) { at(c, {"spec"}).erase("scope"); },
                {"spec.scope: Required value"}},
        CrdCase{
            "ScopeUnsupported",
            [](json::object& c) { at(c, {"spec"})["scope"] = "Global"; },
            {R"(spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced")"}},
        CrdCase{"VersionNameNotDns",
                [](json::object& c) {
                  version0(c)["name"] = "V1";
                  at(c, {"status"})["storedVersions"] = json::array{"V1"};
                },
                {R"(spec.versions[0].name: Invalid value: "V1": $DNS1035)"}},
        CrdCase{"SchemaRequired",
                [](json::object& c) { version0(c).erase("schema"); },
                {"spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"}},
        CrdCase{
            "SchemaNotStructural",
            [](json::object& c) {
              version0(c)["schema"] = json::object{
                  {"openAPIV3Schema",
                   parse(R"({"type": "object", "properties": {"spec": {"properties": {}}}})")}};
              version0(c).erase("subresources");
            },
            {"spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must "
             "not be empty for specified object fields"}},
        CrdCase{
            "ScalePaths",
            [](json::object& c) {
              json::object& scale = at(version0(c), {"subresources", "scale"});
              scale["specReplicasPath"] = "spec.replicas";
              scale.erase("statusReplicasPath");
              scale["labelSelectorPath"] = ".metadata.labels";
            },
            {R"(spec.versions[0].subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .)",
             "spec.versions[0].subresources.scale.statusReplicasPath: Required value",
             R"(spec.versions[0].subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status)"}},
        CrdCase{
            "ScalePathsUnderTheWrongParent",
            [](json::object& c) {
              json::object& scale = at(version0(c), {"subresources", "scale"});
              scale["specReplicasPath"] = ".status.replicas";
              scale["statusReplicasPath"] = ".spec.replicas";
            },
            {R"(spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec)",
             R"(spec.versions[0].subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status)"}},
        CrdCase{
            "PrinterColumns",
            [](json::object& c) {
              version0(c)["additionalPrinterColumns"] = parse(R"([
                 {"type": "float", "format": "uuid", "jsonPath": "spec.x"},
                 {"name": "n"}])");
            },
            {"spec.versions[0].additionalPrinterColumns[0].name: Required value",
             R"(spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string)",
             R"(spec.versions[0].additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password)",
             R"(spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .)",
             "spec.versions[0].additionalPrinterColumns[1].type: Required value: must be one of "
             "boolean,date,integer,number,string",
             "spec.versions[0].additionalPrinterColumns[1].JSONPath: Required value"}},
        CrdCase{"NamesRequired",
                [](json::object& c) {
                  at(c, {"spec"})["names"] = json::object{{"plural", "widgets"}};
                },
                {"spec.names.singular: Required value", "spec.names.kind: Required value",
                 "spec.names.listKind: Required value"}},
        CrdCase{
            "NamesFormat",
            [](json::object& c) {
              at(c, {"spec"})["names"] = parse(R"({"plural": "widgets", "singular": "Widget",
                   "kind": "my_kind", "listKind": "my_kind", "shortNames": ["ok", "w d"],
                   "categories": ["All"]})");
            },
            {R"(spec.names.singular: Invalid value: "Widget": $DNS1035)",
             R"(spec.names.kind: Invalid value: "my_kind": may have mixed case, but should otherwise match: $DNS1035)",
             R"(spec.names.listKind: Invalid value: "my_kind": may have mixed case, but should otherwise match: $DNS1035)",
             R"(spec.names.shortNames[1]: Invalid value: "w d": $DNS1035)",
             R"(spec.names.listKind: Invalid value: "my_kind": kind and listKind may not be the same)",
             R"(spec.names.categories[0]: Invalid value: "All": $DNS1035)"}},
        CrdCase{
            "ConversionStrategy",
            [](json::object& c) {
              at(c, {"spec", "conversion"})["strategy"] = "Magic";
            },
            {R"(spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook")"}},
        CrdCase{
            "ConversionWebhookNeedsConfig",
            [](json::object& c) {
              at(c, {"spec", "conversion"})["strategy"] = "Webhook";
            },
            {"spec.conversion.webhookClientConfig: Required value: required when strategy is set "
             "to Webhook",
             "spec.conversion.conversionReviewVersions: Required value"}},
        CrdCase{
            "ConversionWebhook",
            [](json::object& c) {
              at(c, {"spec"})["conversion"] = parse(R"({"strategy": "Webhook", "webhook": {
                   "clientConfig": {"url": "https://x", "service": {"name": "s", "namespace": "n"}},
                   "conversionReviewVersions": ["v2", "v2"]}})");
            },
            {"spec.conversion.webhookClientConfig: Required value: exactly one of url or service "
             "is required",
             R"(spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version)",
             R"(spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: none of the versions accepted by this server. accepted version(s) are v1, v1beta1)"}},
        CrdCase{
            "ConversionNoneWithWebhook",
            [](json::object& c) {
              at(c, {"spec"})["conversion"] = parse(R"({"strategy": "None", "webhook": {
                   "clientConfig": {"url": "https://x"}, "conversionReviewVersions": ["v1"]}})");
            },
            {"spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is "
             "not set to Webhook",
             "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy "
             "is not set to Webhook"}},
        CrdCase{
            "PreserveUnknownFields",
            [](json::object& c) { at(c, {"spec"})["preserveUnknownFields"] = true; },
            {"spec.preserveUnknownFields: Invalid value: true: cannot set to true, set "
             "x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"}},
        CrdCase{
            "StoredVersionsRequired",
            [](json::object& c) { at(c, {"status"})["storedVersions"] = json::array(); },
            {"status.storedVersions: Invalid value: []: must have at least one stored version"}},
        CrdCase{"StoredVersionMustExist",
                [](json::object& c) {
                  at(c, {"status"})["storedVersions"] = json::array{"v1", "v0"};
                },
                {R"(status.storedVersions[1]: Invalid value: "v0": must appear in spec.versions)"}},
        CrdCase{"AcceptedNames",
                [](json::object& c) {
                  at(c, {"status"})["acceptedNames"] = json::object{{"plural", "Bad"}};
                },
                {R"(status.acceptedNames.plural: Invalid value: "Bad": $DNS1035)"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdValidation, VersionsMustBeUniqueWithOneStorage) {
  json::object crd = valid_crd();
  json::array& versions = at(crd, {"spec"})["versions"].get_array();
  versions.push_back(versions[0]);
  const std::string dump = json::serialize(versions);
  EXPECT_THAT(
      messages(validate_crd(crd)),
      ElementsAre("spec.versions: Invalid value: " + dump + ": must contain unique version names",
                  "spec.versions: Invalid value: " + dump +
                      ": must have exactly one version marked as storage version",
                  // Upstream matches each stored version once: the duplicate misses it.
                  "status.storedVersions: Invalid value: " + json::serialize(versions[1]) +
                      ": must have the storage version v1"));
  at(crd, {"spec"})["versions"] = json::array();
  EXPECT_THAT(
      messages(validate_crd(crd)),
      ElementsAre(
          "spec.versions: Invalid value: []: must have exactly one version marked "
          "as storage version",
          R"(status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions)"));
}

TEST(CrdValidation, StatusSubresourceRestrictsRoot) {
  json::object crd = valid_crd();
  json::object& schema = at(version0(crd), {"schema", "openAPIV3Schema"});
  schema["minProperties"] = 1;
  auto errs = validate_crd(crd);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].field, "spec.versions[0].schema.openAPIV3Schema");
  EXPECT_EQ(errs[0].detail,
            "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum "
            "MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items "
            "Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are "
            "allowed at the root of the schema if the status subresource is enabled");
  // Without the status subresource the same schema is fine.
  version0(crd).erase("subresources");
  EXPECT_THAT(validate_crd(crd), IsEmpty());
}

TEST(CrdValidation, Update) {
  const json::object old = valid_crd();
  json::object crd = valid_crd();
  EXPECT_THAT(validate_crd_update(crd, old), IsEmpty());

  at(crd, {"spec"})["group"] = "other.com";
  at(crd, {"spec", "names"})["plural"] = "gadgets";
  at(crd, {"spec", "names"})["kind"] = "Gadget";
  at(crd, {"spec"})["scope"] = "Cluster";
  // Not established: kind and scope may change; group and plural never.
  EXPECT_THAT(messages(validate_crd_update(crd, old)),
              ElementsAre(R"(spec.group: Invalid value: "other.com": field is immutable)",
                          R"(spec.names.plural: Invalid value: "gadgets": field is immutable)"));

  json::object established = old;
  at(established, {"status"})["conditions"] =
      parse(R"([{"type": "Established", "status": "True"}])");
  EXPECT_THAT(messages(validate_crd_update(crd, established)),
              ElementsAre(R"(spec.scope: Invalid value: "Cluster": field is immutable)",
                          R"(spec.names.kind: Invalid value: "Gadget": field is immutable)",
                          R"(spec.group: Invalid value: "other.com": field is immutable)",
                          R"(spec.names.plural: Invalid value: "gadgets": field is immutable)"));

  // An old object that already preserved unknown fields may keep doing so.
  json::object legacy = valid_crd();
  at(legacy, {"spec"})["preserveUnknownFields"] = true;
  json::object next = legacy;
  EXPECT_THAT(validate_crd_update(next, legacy), IsEmpty());
}

TEST(CrdValidation, StatusUpdateChecksAcceptedNamesOnly) {
  json::object crd = valid_crd();
  at(crd, {"spec"})["scope"] = "Nope";
  EXPECT_THAT(validate_crd_status_update(crd), IsEmpty());
  at(crd, {"status"})["acceptedNames"] = json::object{{
                                                          "kind",
                                                          "A",
                                                      },
                                                      {"listKind", "A"}};
  EXPECT_THAT(
      messages(validate_crd_status_update(crd)),
      ElementsAre(
          R"(status.acceptedNames.listKind: Invalid value: "A": kind and listKind may not be the same)"));
}

TEST(CrdValidation, VersionSchema) {
  const json::object crd = valid_crd();
  auto schema = crd_version_schema(crd, "v1");
  ASSERT_TRUE(schema.ok());
  ASSERT_NE((*schema)->property("spec"), nullptr);
  EXPECT_EQ((*schema)->property("spec")->property("replicas")->type, "integer");
  auto missing = crd_version_schema(crd, "v9");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(messages(missing.error()), ElementsAre(R"(spec.versions: Not found: "v9")"));
  json::object no_schema = valid_crd();
  version0(no_schema).erase("schema");
  auto required = crd_version_schema(no_schema, "v1");
  ASSERT_FALSE(required.ok());
  EXPECT_THAT(messages(required.error()),
              ElementsAre("spec.versions[0].schema.openAPIV3Schema: Required value: schemas are "
                          "required"));
}

TEST(CrdValidation, NameProblems) {
  const json::object crd = valid_crd();
  EXPECT_THAT(crd_name_problems("widgets.example.com", crd), IsEmpty());
  EXPECT_THAT(crd_name_problems("x.example.com", crd),
              ElementsAre(R"(must be spec.names.plural+"."+spec.group)"));
}

TEST(CrdDefaults, V1Defaults) {
  json::object crd = parse(R"({
    "spec": {"names": {"plural": "widgets", "kind": "Widget"},
             "versions": [{"name": "v1", "storage": false}, {"name": "v2", "storage": true}]}
  })")
                         .get_object();
  crd_defaults(crd);
  EXPECT_EQ(json::value(crd), parse(R"({
    "spec": {"names": {"plural": "widgets", "kind": "Widget", "singular": "widget",
                       "listKind": "WidgetList"},
             "versions": [{"name": "v1", "storage": false}, {"name": "v2", "storage": true}],
             "conversion": {"strategy": "None"}},
    "status": {"storedVersions": ["v2"]}
  })"))
      << json::serialize(crd);

  json::object kept = parse(R"({
    "spec": {"names": {"kind": "Widget", "singular": "w", "listKind": "Widgets"},
             "conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {
                 "service": {"name": "s", "namespace": "n"}}}}},
    "status": {"storedVersions": ["v0"]}
  })")
                          .get_object();
  crd_defaults(kept);
  EXPECT_EQ(json::value(kept), parse(R"({
    "spec": {"names": {"kind": "Widget", "singular": "w", "listKind": "Widgets"},
             "conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {
                 "service": {"name": "s", "namespace": "n", "port": 443}}}}},
    "status": {"storedVersions": ["v0"]}
  })"))
      << json::serialize(kept);

  json::object no_kind = parse(R"({"spec": {"names": {"plural": "x"}}})").get_object();
  crd_defaults(no_kind);
  EXPECT_EQ(no_kind.at("spec").at("names"), parse(R"({"plural": "x"})"));
}

TEST(CrdStrategy, PrepareForCreateAndUpdate) {
  json::object crd = valid_crd();
  at(crd, {"status"})["conditions"] = json::array{json::object{{"type", "Established"}}};
  crd_prepare_for_create(crd);
  EXPECT_EQ(crd.at("status"), parse(R"({"storedVersions": ["v1"]})"));
  EXPECT_EQ(crd.at("metadata").at("generation"), json::value(1));
  EXPECT_EQ(crd_storage_version(crd), "v1");

  json::object next = crd;
  next.erase("status");
  crd_prepare_for_update(next, crd);
  EXPECT_EQ(next.at("status"), crd.at("status"));
  EXPECT_EQ(next.at("metadata").at("generation"), json::value(1));

  // A new storage version is recorded and the spec change bumps the generation.
  json::array& versions = at(next, {"spec"})["versions"].get_array();
  versions[0].get_object()["storage"] = false;
  json::value v2 = versions[0];
  v2.get_object()["name"] = "v2";
  v2.get_object()["storage"] = true;
  versions.push_back(v2);
  const json::object before = next;
  crd_prepare_for_update(next, before);
  EXPECT_EQ(next.at("status"), parse(R"({"storedVersions": ["v1", "v2"]})"));
  json::object changed = next;
  at(changed, {"spec"})["scope"] = "Cluster";
  crd_prepare_for_update(changed, next);
  EXPECT_EQ(changed.at("metadata").at("generation"), json::value(2));
}

}  // namespace
}  // namespace kcm::local::crd
