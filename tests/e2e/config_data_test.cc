// ConfigMaps and Secrets with every bundled kubectl: the create generators,
// apply, get's table, describe, immutability and validation errors as the API
// server words them, and delete.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class ConfigDataTest : public ClientTest {};

constexpr const char* kSettings = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
immutable: true
data:
  app.properties: |
    mode=fast
binaryData:
  logo: iVBORw0KGgo=
)";

TEST_P(ConfigDataTest, ConfigMapLifecycle) {
  EXPECT_EQ(ok({"create", "configmap", "app", "--from-literal=LOG_LEVEL=debug",
                "--from-literal=mode=fast"})
                .out,
            "configmap/app created\n");
  EXPECT_EQ(jsonpath("cm/app", "{.data.LOG_LEVEL} {.data.mode}"), "debug fast");
  EXPECT_EQ(ok({"apply", "-f", "-"}, kSettings).out, "configmap/settings created\n");
  expect_table(ok({"get", "configmaps"}).out, {"NAME", "DATA", "AGE"},
               {"app|2|<age>", "settings|2|<age>"});
  const std::string described = ok({"describe", "cm", "settings"}).out;
  EXPECT_THAT(described, HasSubstr("app.properties:"));
  EXPECT_THAT(described, HasSubstr("mode=fast"));
  EXPECT_THAT(described, HasSubstr("logo: 8 bytes"));

  // Immutable: data may not change.
  CommandResult r = run({"patch", "cm", "settings", "--type=merge", "-p", R"({"data":{"x":"1"}})"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("The ConfigMap \"settings\" is invalid: data: Forbidden: field is "
                               "immutable when `immutable` is set"));
  // A key outside the allowed characters, refused by the server.
  r = run({"apply", "-f", "-"},
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  'a b': x\n");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("The ConfigMap \"bad\" is invalid: data[a b]: Invalid value: "
                               "\"a b\": a valid config key must consist of alphanumeric "
                               "characters, '-', '_' or '.'"));

  EXPECT_EQ(ok({"delete", "cm", "app", "settings"}).out,
            "configmap \"app\" deleted\nconfigmap \"settings\" deleted\n");
  EXPECT_EQ(ok({"get", "cm", "-o", "name"}).out, "");
}

TEST_P(ConfigDataTest, Secrets) {
  EXPECT_EQ(ok({"create", "secret", "generic", "db", "--from-literal=user=admin",
                "--from-literal=password=s3cret"})
                .out,
            "secret/db created\n");
  EXPECT_EQ(ok({"create", "secret", "docker-registry", "registry", "--docker-server=r.example.com",
                "--docker-username=u", "--docker-password=p"})
                .out,
            "secret/registry created\n");
  // stringData is folded into data on write and never returned.
  EXPECT_EQ(ok({"apply", "-f", "-"},
               "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  token: "
               "abc\n")
                .out,
            "secret/app created\n");
  EXPECT_EQ(jsonpath("secret/app", "{.type} {.data.token} [{.stringData}]"), "Opaque YWJj []");
  expect_table(ok({"get", "secrets"}).out, {"NAME", "TYPE", "DATA", "AGE"},
               {"app|Opaque|1|<age>", "db|Opaque|2|<age>",
                "registry|kubernetes.io/dockerconfigjson|1|<age>"});
  EXPECT_EQ(ok({"get", "secrets", "--field-selector=type=Opaque", "-o", "name"}).out,
            "secret/app\nsecret/db\n");
  const std::string described = ok({"describe", "secret", "db"}).out;
  EXPECT_THAT(described, HasSubstr("password:  6 bytes"));
  EXPECT_THAT(described, ::testing::Not(HasSubstr("s3cret")));

  const CommandResult r = run({"apply", "-f", "-"},
                              "apiVersion: v1\nkind: Secret\nmetadata:\n  name: cert\ntype: "
                              "kubernetes.io/tls\ndata:\n  tls.crt: eA==\n");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("The Secret \"cert\" is invalid: data[tls.key]: Required value"));
  EXPECT_EQ(ok({"delete", "secret", "db"}).out, "secret \"db\" deleted\n");
}

INSTANTIATE_TEST_SUITE_P(Kubectl, ConfigDataTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConfigDataTest);

}  // namespace
}  // namespace kcm::e2e
