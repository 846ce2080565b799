#include "client/discovery.h"

#include <gtest/gtest.h>

namespace kcm::client {
namespace {
namespace json = boost::json;

TEST(DiscoveryParseTest, ApiVersions) {
  auto v = parse_api_versions(json::parse(R"({"kind":"APIVersions","versions":["v1"]})"));
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(*v, std::vector<std::string>{"v1"});
  EXPECT_EQ(parse_api_versions(json::parse(R"({"versions":"v1"})")).error(),
            "APIVersions: versions must be a list");
  EXPECT_EQ(parse_api_versions(json::parse("[]")).error(), "APIVersions: not a JSON object");
}

TEST(DiscoveryParseTest, GroupListKeepsOrderAndPreferredVersion) {
  auto groups = parse_api_group_list(json::parse(R"({"kind":"APIGroupList","groups":[
    {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],
     "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
    {"name":"x.dev","versions":[{"groupVersion":"x.dev/v2","version":"v2"},
                                {"groupVersion":"x.dev/v1","version":"v1"}],
     "preferredVersion":{"groupVersion":"x.dev/v1","version":"v1"}},
    {"name":"nopref","versions":[{"groupVersion":"nopref/v1beta1","version":"v1beta1"}]}]})"));
  ASSERT_TRUE(groups.ok()) << groups.error();
  ASSERT_EQ(groups->size(), 3u);
  EXPECT_EQ((*groups)[0].name, "apps");
  EXPECT_EQ((*groups)[1].versions, (std::vector<std::string>{"v2", "v1"}));
  EXPECT_EQ((*groups)[1].preferred_version, "v1");
  EXPECT_EQ((*groups)[2].preferred_version, "v1beta1");
}

TEST(DiscoveryParseTest, GroupListErrorsNameTheField) {
  struct Case {
    const char* doc;
    const char* error;
  };
  const Case cases[] = {
      {R"({})", "APIGroupList: groups is missing"},
      {R"({"groups":[1]})", "APIGroupList: groups must be objects"},
      {R"({"groups":[{"versions":[]}]})", "APIGroup: name must be a string"},
      {R"({"groups":[{"name":"a","versions":[{"groupVersion":"a/v1"}]}]})",
       "APIGroup a: version must be a string"},
  };
  for (const Case& c : cases) {
    auto r = parse_api_group_list(json::parse(c.doc));
    ASSERT_FALSE(r.ok()) << c.doc;
    EXPECT_EQ(r.error(), c.error) << c.doc;
  }
}

TEST(DiscoveryParseTest, ResourceList) {
  auto resources = parse_api_resource_list(json::parse(R"({"kind":"APIResourceList",
    "groupVersion":"apps/v1","resources":[
      {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment",
       "verbs":["create","delete","deletecollection","get","list","patch","update","watch"]},
      {"name":"deployments/scale","namespaced":true,"kind":"Scale","verbs":["get","patch"]}]})"));
  ASSERT_TRUE(resources.ok()) << resources.error();
  ASSERT_EQ(resources->size(), 2u);
  const ApiResource& d = (*resources)[0];
  EXPECT_EQ(d.gvr().group, "apps");
  EXPECT_EQ(d.gvr().version, "v1");
  EXPECT_EQ(d.gvr().resource, "deployments");
  EXPECT_TRUE(d.namespaced);
  EXPECT_FALSE(d.is_subresource());
  EXPECT_TRUE(d.supports_all({"delete", "list", "watch"}));
  EXPECT_TRUE((*resources)[1].is_subresource());
  EXPECT_FALSE((*resources)[1].supports_all({"delete", "list", "watch"}));

  auto core = parse_api_resource_list(json::parse(R"({"groupVersion":"v1","resources":[]})"));
  ASSERT_TRUE(core.ok());
  EXPECT_TRUE(core->empty());
  EXPECT_EQ(parse_api_resource_list(
                json::parse(R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Pod"}]})"))
                .error(),
            "APIResourceList v1 resource pods: namespaced must be a boolean");
}

}  // namespace
}  // namespace kcm::client
