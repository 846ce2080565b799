#include "local/apiserver/request_info.h"

#include <gtest/gtest.h>

namespace kcm::local::apiserver {
namespace {

struct InfoCase {
  const char* method;
  const char* path;
  const char* watch;
  const char* verb;
  const char* group;
  const char* ns;
  const char* resource;
  const char* name;
  const char* sub;
};

TEST(RequestInfoTest, ParsesResourcePathsAsUpstream) {
  const InfoCase cases[] = {
      {"GET", "/api/v1/pods", "", "list", "", "", "pods", "", ""},
      {"GET", "/api/v1/namespaces/default/pods", "", "list", "", "default", "pods", "", ""},
      {"GET", "/api/v1/namespaces/default/pods", "true", "watch", "", "default", "pods", "", ""},
      {"GET", "/api/v1/namespaces/default/pods/web", "", "get", "", "default", "pods", "web", ""},
      {"PATCH", "/apis/apps/v1/namespaces/ns/deployments/web/scale", "", "patch", "apps", "ns",
       "deployments", "web", "scale"},
      {"PUT", "/api/v1/namespaces/team/finalize", "", "update", "", "", "namespaces", "team",
       "finalize"},
      {"GET", "/api/v1/namespaces/team/status", "", "get", "", "", "namespaces", "team", "status"},
      {"GET", "/api/v1/namespaces/team", "", "get", "", "", "namespaces", "team", ""},
      {"DELETE", "/api/v1/namespaces/ns/pods", "", "deletecollection", "", "ns", "pods", "", ""},
      {"DELETE", "/api/v1/namespaces/ns/pods/p", "", "delete", "", "ns", "pods", "p", ""},
      {"POST", "/api/v1/namespaces/ns/pods/p/binding", "", "create", "", "ns", "pods", "p",
       "binding"},
      {"GET", "/api/v1/watch/namespaces/ns/pods", "", "watch", "", "ns", "pods", "", ""},
      {"GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm", "", "get",
       "coordination.k8s.io", "kube-system", "leases", "kcm", ""},
  };
  for (const InfoCase& c : cases) {
    RequestInfo info = parse_request_info(c.method, c.path, std::string_view(c.watch) == "true");
    SCOPED_TRACE(c.path);
    EXPECT_TRUE(info.is_resource_request);
    EXPECT_EQ(info.verb, c.verb);
    EXPECT_EQ(info.group, c.group);
    EXPECT_EQ(info.namespace_, c.ns);
    EXPECT_EQ(info.resource, c.resource);
    EXPECT_EQ(info.name, c.name);
    EXPECT_EQ(info.subresource, c.sub);
  }
}

TEST(RequestInfoTest, DiscoveryPathsAreNotResourceRequests) {
  for (const char* path : {"/api", "/apis", "/api/v1", "/apis/apps", "/apis/apps/v1", "/version",
                           "/healthz", "/openapi/v3"}) {
    EXPECT_FALSE(parse_request_info("GET", path, false).is_resource_request) << path;
  }
}

// Every boolean query parameter reads as upstream's Convert_Slice_string_To_bool.
TEST(RequestInfoTest, QueryBooleansAreFalseOnlyForFalseAndZero) {
  for (const char* yes : {"true", "1", "True", "yes", "", "anything"}) {
    EXPECT_TRUE(query_bool(yes)) << '"' << yes << '"';
  }
  for (const char* no : {"false", "FALSE", "False", "0"}) {
    EXPECT_FALSE(query_bool(no)) << no;
  }
}

}  // namespace
}  // namespace kcm::local::apiserver
