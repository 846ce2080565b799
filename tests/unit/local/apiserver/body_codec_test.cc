#include "local/apiserver/body_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "local/apiserver/discovery.h"

namespace kcm::local::apiserver {
namespace {

using ::testing::HasSubstr;

class BodyCodecTest : public ::testing::Test {
 protected:
  registry::ResourceTable table_ = registry::builtin_resources();
  const registry::ResourceInfo& deploy_ = *table_.find("apps", "v1", "deployments");
};

TEST_F(BodyCodecTest, DecodesJsonAndYaml) {
  auto json_obj =
      decode_object(deploy_, deploy_.gvk(), "application/json",
                    R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"}})");
  ASSERT_TRUE(json_obj) << json_obj.error().message;
  auto yaml_obj = decode_object(deploy_, deploy_.gvk(), "application/yaml",
                                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n");
  ASSERT_TRUE(yaml_obj) << yaml_obj.error().message;
  EXPECT_EQ(*json_obj, *yaml_obj);
  // kind and apiVersion are filled in when absent.
  auto bare = decode_object(deploy_, deploy_.gvk(), "", R"({"metadata":{"name":"w"}})");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->at("kind").as_string(), "Deployment");
}

TEST_F(BodyCodecTest, RejectsBadBodiesWithUpstreamMessages) {
  struct Case {
    std::string content_type, body;
    int code;
    std::string message;
  };
  const Case cases[] = {
      {"application/json", "{", 400,
       "the object provided is unrecognized (must be of type Deployment)"},
      {"application/json", R"({"apiVersion":"v1","kind":"Pod"})", 400,
       "the API version in the data (v1) does not match the expected API version (apps/v1)"},
      {"application/json", R"({"apiVersion":"apps/v1","kind":"ReplicaSet"})", 400,
       "ReplicaSet in version \"v1\" cannot be handled as a Deployment"},
      {"application/json", "[1]", 400, "couldn't get version/kind"},
      {"application/vnd.kubernetes.protobuf", "not protobuf", 400,
       "provided data does not appear to be a protobuf message"},
      {"text/plain", "x", 415, "accepted media types include: application/json"},
  };
  for (const Case& c : cases) {
    auto r = decode_object(deploy_, deploy_.gvk(), c.content_type, c.body);
    ASSERT_FALSE(r) << c.body;
    EXPECT_EQ(r.error().code, c.code) << c.body;
    EXPECT_THAT(r.error().message, HasSubstr(c.message));
  }
}

TEST_F(BodyCodecTest, AcceptNegotiation) {
  // (Resource responses: output_negotiation_test.cc.)
  EXPECT_EQ(aggregated_discovery_version(
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
                "application/json"),
            "v2");
  EXPECT_EQ(aggregated_discovery_version("application/json, */*"), "");
}

TEST_F(BodyCodecTest, ListsCarryKindVersionAndContinue) {
  auto item = std::make_shared<storage::StoredObject>();
  item->json = R"({"a":1})";
  EXPECT_EQ(encode_list("apps/v1", "DeploymentList", 7, "tok", 3, {item, item}),
            R"({"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"7",)"
            R"("continue":"tok","remainingItemCount":3},"items":[{"a":1},{"a":1}]})");
}

TEST_F(BodyCodecTest, AggregatedDiscoveryDescribesResources) {
  const std::string apis =
      json::serialize(aggregated_discovery(table_, false, "apidiscovery.k8s.io/v2"));
  EXPECT_THAT(
      apis,
      HasSubstr(
          R"("resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"scope":"Namespaced")"));
  EXPECT_THAT(apis, HasSubstr(R"("shortNames":["deploy"],"categories":["all"])"));
  EXPECT_THAT(
      apis,
      HasSubstr(
          R"({"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"})"));
  const std::string core =
      json::serialize(aggregated_discovery(table_, true, "apidiscovery.k8s.io/v2"));
  EXPECT_THAT(core, HasSubstr(R"("resource":"pods")"));
  EXPECT_THAT(core, ::testing::Not(HasSubstr(R"("resource":"deployments")")));
}

}  // namespace
}  // namespace kcm::local::apiserver
