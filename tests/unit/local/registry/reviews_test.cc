// The access and identity reviews answered as kube-apiserver with
// --authorization-mode=AlwaysAllow answers them (upstream's
// pkg/registry/authorization/selfsubject*review and
// pkg/registry/authentication/selfsubjectreview).
#include "local/registry/reviews.h"

#include <gtest/gtest.h>

#include "api/json.h"

namespace kcm::local::registry {
namespace {

namespace json = boost::json;

const ResourceInfo& review(std::string_view group, std::string_view resource) {
  static const ResourceTable table = builtin_resources();
  const ResourceInfo* info = table.find(group, "v1", resource);
  EXPECT_NE(info, nullptr) << resource;
  EXPECT_TRUE(info->review);
  EXPECT_EQ(info->verbs, std::vector<std::string>{"create"});
  EXPECT_FALSE(info->namespaced);
  return *info;
}

const RequestUser kAdmin{"kcm-admin", {"system:masters", "system:authenticated"}};
constexpr std::string_view kNow = "2026-12-04T20:00:00Z";

Result<json::object, api::Status> answer(std::string_view resource, std::string_view body,
                                         const RequestUser& user = kAdmin) {
  const std::string group =
      resource == "selfsubjectreviews" ? "authentication.k8s.io" : "authorization.k8s.io";
  return answer_review(review(group, resource), json::parse(body).as_object(), user, kNow);
}

struct AccessCase {
  std::string name;
  std::string spec;      // the request's spec
  std::string answered;  // the whole answer, or "" for an error
  std::string error;     // the Status message
};

TEST(SelfSubjectAccessReview, AnswersAsAlwaysAllow) {
  const std::vector<AccessCase> cases = {
      {"a resource action, echoed as Go writes it back (empty strings and unknown fields "
       "left out)",
       R"({"resourceAttributes":{"namespace":"default","verb":"list","group":"","resource":"pods","colour":"red"}})",
       R"({"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1",)"
       R"("metadata":{"creationTimestamp":null},)"
       R"("spec":{"resourceAttributes":{"namespace":"default","verb":"list","resource":"pods"}},)"
       R"("status":{"allowed":true}})",
       ""},
      {"every resource attribute, in declaration order",
       R"({"resourceAttributes":{"name":"web","subresource":"scale","resource":"deployments","version":"v1","group":"apps","verb":"update","namespace":"ns",)"
       R"("labelSelector":{"rawSelector":"app=web"}}})",
       R"({"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1",)"
       R"("metadata":{"creationTimestamp":null},)"
       R"("spec":{"resourceAttributes":{"namespace":"ns","verb":"update","group":"apps","version":"v1",)"
       R"("resource":"deployments","subresource":"scale","name":"web","labelSelector":{"rawSelector":"app=web"}}},)"
       R"("status":{"allowed":true}})",
       ""},
      {"a non-resource path", R"({"nonResourceAttributes":{"path":"/healthz","verb":"get"}})",
       R"({"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1",)"
       R"("metadata":{"creationTimestamp":null},)"
       R"("spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"}},"status":{"allowed":true}})",
       ""},
      {"neither", "{}", "",
       "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: "
       "Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must "
       "be specified"},
      {"both",
       R"({"resourceAttributes":{"verb":"get"},"nonResourceAttributes":{"path":"/x","verb":"get"}})",
       "",
       "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: "
       "Invalid value: authorization.NonResourceAttributes{Path:\"/x\", Verb:\"get\"}: cannot be "
       "specified in combination with resourceAttributes"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string body =
        R"({"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":)" +
        c.spec + R"(,"status":{"allowed":false,"reason":"from the client"}})";
    const auto r = answer("selfsubjectaccessreviews", body);
    if (c.error.empty()) {
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(json::serialize(*r), c.answered);
    } else {
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().code, 422);
      EXPECT_EQ(r.error().reason, "Invalid");
      EXPECT_EQ(r.error().message, c.error);
    }
  }
}

TEST(SelfSubjectRulesReview, EverythingInTheNamespaceAndNoSpecInTheAnswer) {
  const auto r =
      answer("selfsubjectrulesreviews",
             R"({"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1",)"
             R"("metadata":{"name":"ignored"},"spec":{"namespace":"default"}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(json::serialize(*r),
            R"({"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1",)"
            R"("metadata":{"creationTimestamp":null},"spec":{},)"
            R"("status":{"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}],)"
            R"("nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}],"incomplete":false}})");
}

TEST(SelfSubjectRulesReview, WithoutANamespaceIsABadRequest) {
  for (const std::string_view spec : {R"({})", R"({"namespace":""})"}) {
    const auto r = answer(
        "selfsubjectrulesreviews",
        std::string(R"({"kind":"SelfSubjectRulesReview","spec":)") + std::string(spec) + "}");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, 400);
    EXPECT_EQ(r.error().message, "no namespace on request");
  }
}

TEST(SelfSubjectReview, TheRequestingUserStampedWithTheTime) {
  const auto r = answer(
      "selfsubjectreviews",
      R"({"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","metadata":{}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(json::serialize(*r),
            R"({"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1",)"
            R"("metadata":{"creationTimestamp":"2026-12-04T20:00:00Z"},)"
            R"("status":{"userInfo":{"username":"kcm-admin",)"
            R"("groups":["system:masters","system:authenticated"]}}})");
  // No groups: none written (omitempty).
  const auto bare = answer("selfsubjectreviews", R"({"kind":"SelfSubjectReview"})", {"alice", {}});
  ASSERT_TRUE(bare);
  EXPECT_EQ(json::serialize(bare->at("status")), R"({"userInfo":{"username":"alice"}})");
}

TEST(Reviews, WithoutAUserAreBadRequests) {
  for (const std::string_view resource :
       {"selfsubjectreviews", "selfsubjectaccessreviews", "selfsubjectrulesreviews"}) {
    const auto r = answer(resource, R"({"spec":{"namespace":"default"}})", {});
    ASSERT_FALSE(r) << resource;
    EXPECT_EQ(r.error().code, 400);
    EXPECT_EQ(r.error().message, "no user present on request");
  }
}

}  // namespace
}  // namespace kcm::local::registry
