// kubectl 1.27 and 1.28 against kcm-local's /openapi/v2: they fetch it (as
// gnostic protobuf) for create/apply/replace with validation on, compute
// client-side apply patches from its x-kubernetes-patch-* extensions, and
// `explain --output plaintext-openapiv2` renders it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

// A Deployment with env A and B and a resource limit.
constexpr const char* kApp = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  labels: {app: app}
spec:
  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: "25%"}
  selector:
    matchLabels: {app: app}
  template:
    metadata:
      labels: {app: app}
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
        ports:
        - containerPort: 80
        resources:
          limits: {cpu: 500m, memory: 128Mi}
)";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

bool matches_line(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    const std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (std::regex_match(line, re)) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

class OpenApiV2Test : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(versioned_kubectl(GetParam()))) {
      GTEST_SKIP() << "no kubectl." << GetParam();
    }
    cluster_ = std::make_unique<LocalCluster>(
        LocalCluster::Options{.kube_version = "v" + GetParam() + ".0"});
    kubectl_ = std::make_unique<Kubectl>(*cluster_, versioned_kubectl(GetParam()));
  }

  CommandResult run(const std::vector<std::string>& args, const std::string& input = {}) {
    return (*kubectl_)(args, input);
  }
  CommandResult ok(const std::vector<std::string>& args, const std::string& input = {}) {
    CommandResult r = run(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r;
  }
  std::string jsonpath(const std::string& object, const std::string& path) {
    return ok({"get", object, "-o", "jsonpath=" + path}).out;
  }

  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<Kubectl> kubectl_;
};

TEST_P(OpenApiV2Test, ServesTheDocument) {
  const CommandResult r = ok({"get", "--raw", "/openapi/v2"});
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_THAT(r.out, HasSubstr(R"("swagger":"2.0")"));
  EXPECT_THAT(r.out, HasSubstr(R"("io.k8s.api.apps.v1.Deployment":{)"));
  EXPECT_THAT(
      r.out,
      HasSubstr(
          R"("x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}])"));
  EXPECT_THAT(r.out, HasSubstr(R"("/apis/apps/v1/namespaces/{namespace}/deployments/{name}":{)"));
}

TEST_P(OpenApiV2Test, CreateFetchesTheProtobufDocumentAndValidates) {
  const CommandResult r = ok({"create", "-f", "-", "-v=6"}, kApp);
  EXPECT_THAT(r.out, HasSubstr("deployment.apps/app created"));
  // The client read /openapi/v2 (as protobuf: it fails on anything else).
  EXPECT_TRUE(matches_line(r.err, R"(.*GET https://[^ ]*/openapi/v2\?timeout=32s 200 OK.*)"))
      << r.err;
  EXPECT_EQ(jsonpath("deploy/app", "{.spec.template.spec.containers[0].env[*].name}"), "A B");

  // An unknown field is refused: kubectl sees fieldValidation in the
  // document and asks the server to be strict, as with kube-apiserver.
  const CommandResult bad =
      run({"create", "-f", "-"}, replaced(replaced(kApp, "name: app\n", "name: bad\n"),
                                          "  replicas: 2\n", "  replicas: 2\n  foo: bar\n"));
  EXPECT_EQ(bad.exit_code, 1) << describe(bad);
  EXPECT_THAT(bad.err, HasSubstr(R"(strict decoding error: unknown field "spec.foo")"));
  EXPECT_EQ(run({"get", "deploy/bad"}).exit_code, 1);
}

TEST_P(OpenApiV2Test, ApplyComputesAStrategicPatchFromTheSchema) {
  EXPECT_EQ(ok({"apply", "-f", "-"}, kApp).out, "deployment.apps/app created\n");
  // Drop env B and change the image: the client diffs last-applied against
  // the file with the schema's merge keys.
  const std::string edited = replaced(replaced(kApp, "        - {name: B, value: \"2\"}\n", ""),
                                      "nginx:1.25", "nginx:1.26");
  const CommandResult r = ok({"apply", "-f", "-", "-v=8"}, edited);
  EXPECT_THAT(r.out, HasSubstr("deployment.apps/app configured"));
  EXPECT_THAT(r.err, HasSubstr("application/strategic-merge-patch+json"));
  EXPECT_THAT(r.err, HasSubstr(R"("$setElementOrder/env":[{"name":"A"}])"));
  EXPECT_THAT(r.err, HasSubstr(R"({"$patch":"delete","name":"B"})"));
  EXPECT_EQ(jsonpath("deploy/app",
                     "{.spec.template.spec.containers[0].image} "
                     "{.spec.template.spec.containers[0].env[*].name}"),
            "nginx:1.26 A");
  EXPECT_EQ(ok({"apply", "-f", "-"}, edited).out, "deployment.apps/app unchanged\n");
}

TEST_P(OpenApiV2Test, Replace) {
  ok({"create", "-f", "-"}, kApp);
  EXPECT_EQ(ok({"replace", "-f", "-"}, replaced(kApp, "replicas: 2", "replicas: 3")).out,
            "deployment.apps/app replaced\n");
  EXPECT_EQ(jsonpath("deploy/app", "{.spec.replicas}"), "3");
}

TEST_P(OpenApiV2Test, ExplainFromTheV2Document) {
  const CommandResult r =
      ok({"explain", "deployment.spec.strategy", "--output", "plaintext-openapiv2"});
  EXPECT_THAT(
      r.out, HasSubstr("KIND:     Deployment\nVERSION:  apps/v1\n\nRESOURCE: strategy <Object>\n"));
  EXPECT_TRUE(matches_line(r.out, R"(   rollingUpdate\t<Object>)")) << r.out;
  EXPECT_TRUE(matches_line(r.out, R"(   type\t<string>)")) << r.out;

  const CommandResult rec =
      ok({"explain", "pods", "--recursive", "--output", "plaintext-openapiv2"});
  EXPECT_THAT(rec.out, HasSubstr("KIND:     Pod\nVERSION:  v1\n"));
  EXPECT_TRUE(matches_line(rec.out, R"(      containers\t<\[\]Object>)")) << rec.out;
  EXPECT_TRUE(matches_line(rec.out, R"(         image\t<string>)")) << rec.out;
  EXPECT_TRUE(matches_line(rec.out, R"(      labels\t<map\[string\]string>)")) << rec.out;

  // The default explain (OpenAPI v3) agrees.
  const CommandResult v3 = ok({"explain", "deployment.spec.strategy"});
  EXPECT_THAT(v3.out, HasSubstr("FIELD: strategy <DeploymentStrategy>"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, OpenApiV2Test, ::testing::Values("1.27", "1.28"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

}  // namespace
}  // namespace kcm::e2e
