// Error paths for every bundled kubectl, printed as upstream prints them: 404,
// 409 (exists, conflict), 422 with field paths, 400 for strict field
// validation, 415.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

// create -f and replace -f run with --validate=false here (except where
// validation is the subject): clients before 1.29 validate through
// /openapi/v2, which the create/apply/replace tests cover; these tests are
// about how the server's errors read.
class ErrorsTest : public ClientTest {
 protected:
  // Runs `args` expecting exit code 1 and nothing on stdout; returns stderr.
  std::string fails(const std::vector<std::string>& args, const std::string& input = {}) {
    const CommandResult r = run(args, input);
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_EQ(r.out, "") << describe(r);
    return r.err;
  }
};

// `deployment_yaml` with one line replaced.
std::string edited(std::string yaml, const std::string& from, const std::string& to) {
  const auto at = yaml.find(from);
  if (at == std::string::npos) throw std::runtime_error("no " + from + " in\n" + yaml);
  return yaml.replace(at, from.size(), to);
}

TEST_P(ErrorsTest, NotFound) {
  EXPECT_EQ(fails({"get", "deploy", "nope"}),
            "Error from server (NotFound): deployments.apps \"nope\" not found\n");
  EXPECT_EQ(fails({"get", "pod", "nope", "-o", "yaml"}),
            "Error from server (NotFound): pods \"nope\" not found\n");
  EXPECT_EQ(fails({"get", "namespace", ns() + "-nope"}),
            "Error from server (NotFound): namespaces \"" + ns() + "-nope\" not found\n");
  EXPECT_EQ(fails({"patch", "deploy", "nope", "--type=merge", "-p", "{}"}),
            "Error from server (NotFound): deployments.apps \"nope\" not found\n");
  // (1.32 on append the NotFound message.)
  EXPECT_THAT(fails({"scale", "deploy", "nope", "--replicas=1"}),
              ::testing::StartsWith("error: no objects passed to scale"));
  EXPECT_EQ(fails({"label", "pod", "nope", "a=b"}),
            "Error from server (NotFound): pods \"nope\" not found\n");
  EXPECT_EQ(fails({"replace", "--validate=false", "-f", "-"}, deployment_yaml("nope")),
            "Error from server (NotFound): error when replacing \"STDIN\": deployments.apps "
            "\"nope\" not found\n");
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-", "-n", ns() + "-missing"},
                  deployment_yaml("web")),
            "Error from server (NotFound): error when creating \"STDIN\": namespaces \"" + ns() +
                "-missing\" not found\n");
  EXPECT_EQ(fails({"get", "foos"}), "error: the server doesn't have a resource type \"foos\"\n");
}

TEST_P(ErrorsTest, AlreadyExistsAndConflict) {
  create(deployment_yaml("web"));
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-"}, deployment_yaml("web")),
            "Error from server (AlreadyExists): error when creating \"STDIN\": deployments.apps "
            "\"web\" already exists\n");
  create(pod_yaml("p"));
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-"}, pod_yaml("p")),
            "Error from server (AlreadyExists): error when creating \"STDIN\": pods \"p\" already "
            "exists\n");
  // A stale resourceVersion.
  const std::string rv = jsonpath("deploy/web", "{.metadata.resourceVersion}");
  ok({"scale", "deploy", "web", "--replicas=2"});
  EXPECT_EQ(fails({"replace", "--validate=false", "-f", "-"},
                  edited(deployment_yaml("web"), "  name: web\n",
                         "  name: web\n  resourceVersion: \"" + rv + "\"\n")),
            "Error from server (Conflict): error when replacing \"STDIN\": Operation cannot be "
            "fulfilled on deployments.apps \"web\": the object has been modified; please apply "
            "your changes to the latest version and try again\n");
  EXPECT_EQ(fails({"patch", "deploy", "web", "--type=merge", "-p",
                   R"({"metadata":{"resourceVersion":")" + rv + R"("},"spec":{"replicas":5}})"}),
            "Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "
            "\"web\": the object has been modified; please apply your changes to the latest "
            "version and try again\n");
  EXPECT_EQ(jsonpath("deploy/web", "{.spec.replicas}"), "2");
}

TEST_P(ErrorsTest, InvalidWithFieldPaths) {
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-"},
                  edited(deployment_yaml("web"), "replicas: 3", "replicas: -1")),
            "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater "
            "than or equal to 0\n");
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-"},
                  edited(edited(deployment_yaml("web"), "replicas: 3", "replicas: -1"),
                         "        image: nginx:1.25\n", "")),
            "The Deployment \"web\" is invalid: \n"
            "* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n"
            "* spec.template.spec.containers[0].image: Required value\n");
  EXPECT_EQ(fails({"create", "--validate=false", "-f", "-"},
                  edited(deployment_yaml("web"), "metadata: {labels: {app: web}}",
                         "metadata: {labels: {app: other}}")),
            "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
            "map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`\n");
  EXPECT_THAT(fails({"create", "--validate=false", "-f", "-"}, pod_yaml("Bad_Name")),
              ::testing::StartsWith(
                  "The Pod \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a "
                  "lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                  "characters, '-' or '.', and must start and end with an alphanumeric character "
                  "(e.g. 'example.com', regex used for validation is "));

  // On updates too.
  create(deployment_yaml("web"));
  EXPECT_EQ(fails({"patch", "deploy", "web", "--subresource=scale", "--type=merge", "-p",
                   R"({"spec":{"replicas":-3}})"}),
            "The Scale \"web\" is invalid: spec.replicas: Invalid value: -3: must be greater than "
            "or equal to 0\n");
  EXPECT_EQ(fails({"patch", "deploy", "web", "--type=merge", "-p",
                   R"({"metadata":{"labels":{"bad":"-x-"}}})"}),
            "The Deployment \"web\" is invalid: metadata.labels: Invalid value: \"-x-\": a valid "
            "label must be an empty string or consist of alphanumeric characters, '-', '_' or "
            "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
            "'my_value',  or '12345', regex used for validation is "
            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n");
  const std::string immutable = fails({"patch", "deploy", "web", "--type=merge", "-p",
                                       R"({"spec":{"selector":{"matchLabels":{"app":"x"}},)"
                                       R"("template":{"metadata":{"labels":{"app":"x"}}}}})"});
  EXPECT_THAT(immutable, ::testing::StartsWith("The Deployment \"web\" is invalid: "
                                               "spec.selector: Invalid value: "));
  EXPECT_THAT(immutable, HasSubstr(": field is immutable\n"));
  EXPECT_EQ(jsonpath("deploy/web", "{.spec.replicas} {.metadata.labels}"), R"(3 {"app":"web"})");
}

TEST_P(ErrorsTest, StrictFieldValidation) {
  const std::string unknown =
      edited(deployment_yaml("web"), "  replicas: 3\n", "  replicas: 3\n  foo: bar\n");
  EXPECT_EQ(fails({"create", "-f", "-"}, unknown),
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version "
            "\"v1\" cannot be handled as a Deployment: strict decoding error: unknown field "
            "\"spec.foo\"\n");
  const std::string two =
      edited(unknown, "        image: nginx:1.25\n", "        image: nginx:1.25\n        bar: 1\n");
  EXPECT_EQ(fails({"apply", "-f", "-"}, two),
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version "
            "\"v1\" cannot be handled as a Deployment: strict decoding error: unknown field "
            "\"spec.foo\", unknown field \"spec.template.spec.containers[0].bar\"\n");
  EXPECT_EQ(run({"get", "deploy", "web"}).exit_code, 1);

  // --validate=warn: the server warns and drops the field.
  const CommandResult warned = ok({"create", "-f", "-", "--validate=warn"}, unknown);
  EXPECT_EQ(warned.out, "deployment.apps/web created\n");
  EXPECT_EQ(warned.err, "Warning: unknown field \"spec.foo\"\n");
  // --validate=false: silently dropped.
  const CommandResult ignored =
      ok({"create", "-f", "-", "--validate=false"}, edited(unknown, "name: web", "name: web2"));
  EXPECT_EQ(ignored.out, "deployment.apps/web2 created\n");
  EXPECT_EQ(ignored.err, "");
  // Neither keeps the unknown field.
  EXPECT_EQ(jsonpath("deploy", "{range .items[*]}{.metadata.name}:{.spec.foo};{end}"),
            "web:;web2:;");
  // replace validates too.
  EXPECT_EQ(fails({"replace", "-f", "-"}, unknown),
            "Error from server (BadRequest): error when replacing \"STDIN\": Deployment in "
            "version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown "
            "field \"spec.foo\"\n");
}

TEST_P(ErrorsTest, MalformedBody) {
  // create --raw posts the bytes as they are (YAML is not JSON).
  const std::string err =
      fails({"create", "--raw", "/api/v1/namespaces/" + ns() + "/pods", "-f", "-"}, "kind: Pod\n");
  EXPECT_EQ(err,
            "Error from server (BadRequest): the object provided is unrecognized (must be of type "
            "Pod): couldn't get version/kind; json parse error: invalid character 'k' looking for "
            "beginning of value (\"kind: Pod\\n\")\n");
}

// No kubectl command sends a media type a conformant server refuses for these
// kinds (1.32+ generators send protobuf, which servers take), so the 415 answer
// itself is checked on the wire; kubectl prints it as
// "Error from server (UnsupportedMediaType): <message>".
TEST_P(ErrorsTest, UnsupportedMediaType) {
  static const std::regex token_re(R"re(token: "?([0-9A-Za-z._-]+)"?)re");
  std::smatch m;
  const std::string kubeconfig = read_file(cluster().kubeconfig());
  ASSERT_TRUE(std::regex_search(kubeconfig, m, token_re)) << kubeconfig;
  const CommandResult r =
      run_command({"curl", "-sk", "-X", "POST", "-H", "Authorization: Bearer " + m[1].str(), "-H",
                   "Content-Type: text/plain", "--data-binary", "x", "-w", "\n%{http_code}",
                   cluster().url() + "/api/v1/namespaces/" + ns() + "/pods"});
  EXPECT_EQ(r.out,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")"
            R"(the body of the request was in an unknown format - accepted media types include: )"
            R"(application/json, application/yaml, application/vnd.kubernetes.protobuf",)"
            R"("reason":"UnsupportedMediaType","code":415})"
            "\n415");
}

INSTANTIATE_TEST_SUITE_P(Kubectl, ErrorsTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ErrorsTest);

}  // namespace
}  // namespace kcm::e2e
