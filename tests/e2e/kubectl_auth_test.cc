// kubectl auth can-i and whoami with every bundled kubectl: kcm-local answers
// the access and identity reviews as kube-apiserver with
// --authorization-mode=AlwaysAllow, for the user of its kubeconfig.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class KubectlAuthTest : public ClientTest {};

TEST_P(KubectlAuthTest, CanIAnswersYes) {
  EXPECT_EQ(ok({"auth", "can-i", "create", "deployments"}).out, "yes\n");
  EXPECT_EQ(ok({"auth", "can-i", "delete", "pods", "--all-namespaces"}).out, "yes\n");
  EXPECT_EQ(ok({"auth", "can-i", "update", "deployments.apps/scale"}).out, "yes\n");
  EXPECT_EQ(ok({"auth", "can-i", "get", "/healthz"}).out, "yes\n");
  // A resource the server does not serve: kubectl warns, the server still answers.
  const CommandResult r = run({"auth", "can-i", "list", "widgets"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "yes\n");
  EXPECT_THAT(r.err, HasSubstr("the server doesn't have a resource type 'widgets'"));
}

TEST_P(KubectlAuthTest, CanIListShowsEverythingAllowed) {
  expect_table(ok({"auth", "can-i", "--list"}).out,
               {"Resources", "Non-Resource URLs", "Resource Names", "Verbs"},
               {"*.*|[]|[]|[*]", "|[*]|[]|[*]"});
}

TEST_P(KubectlAuthTest, WhoamiNamesTheKubeconfigsUser) {
  if (minor() < 28) {
    // kubectl 1.27 asks for authentication.k8s.io/v1beta1, which kcm-local
    // does not serve (only v1, GA since 1.28).
    return;
  }
  expect_table(ok({"auth", "whoami"}).out, {"ATTRIBUTE", "VALUE"},
               {"Username|kcm-admin", "Groups|[system:masters system:authenticated]"});
  // The bearer token is the admin's too.
  expect_table(ok({"auth", "whoami", "--context", "kcm-local-token"}).out, {"ATTRIBUTE", "VALUE"},
               {"Username|kcm-admin", "Groups|[system:masters system:authenticated]"});
  const std::string json = ok({"auth", "whoami", "-o", "json"}).out;
  EXPECT_THAT(json, HasSubstr(R"("kind": "SelfSubjectReview")"));
  EXPECT_THAT(json, HasSubstr(R"("username": "kcm-admin")"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, KubectlAuthTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KubectlAuthTest);

}  // namespace
}  // namespace kcm::e2e
