#include "local/openapi_v2/extension_yaml.h"

#include <gtest/gtest.h>

namespace kcm::local::openapi_v2 {
namespace {

json::value parse(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  EXPECT_TRUE(v) << error;
  return v ? *v : json::value();
}

TEST(ExtensionYaml, WritesBlockYamlThatReadsBackTheSame) {
  struct Case {
    std::string json;
    std::string yaml;
  };
  const std::vector<Case> cases = {
      {R"("retainKeys")", "retainKeys\n"},
      {R"("merge,retainKeys")", "merge,retainKeys\n"},
      {R"("io.k8s.api.core.v1.Pod")", "io.k8s.api.core.v1.Pod\n"},
      // Strings YAML would read as something else are quoted.
      {R"("")", "\"\"\n"},
      {R"("true")", "\"true\"\n"},
      {R"("No")", "\"No\"\n"},
      {R"("null")", "\"null\"\n"},
      {R"("1.5")", "\"1.5\"\n"},
      {R"("two words")", "\"two words\"\n"},
      {R"("a: b")", "\"a: b\"\n"},
      {R"("quote\"d")", "\"quote\\\"d\"\n"},
      {"true", "true\n"},
      {"7", "7\n"},
      {"null", "null\n"},
      {"[]", "[]\n"},
      {"{}", "{}\n"},
      {R"(["name"])", "- name\n"},
      {R"(["containerPort","protocol"])", "- containerPort\n- protocol\n"},
      {R"({"group":"","kind":"Pod","version":"v1"})", "group: \"\"\nkind: Pod\nversion: v1\n"},
      {R"([{"group":"apps","kind":"Deployment","version":"v1"}])",
       "- group: apps\n  kind: Deployment\n  version: v1\n"},
      {R"({"a":["x","z"],"b":{"c":1}})", "a:\n- x\n- z\nb:\n  c: 1\n"},
      // go-yaml v2 reads y and n as booleans.
      {R"(["y","N"])", "- \"y\"\n- \"N\"\n"},
      {R"([["x"],[]])", "- - x\n- []\n"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(extension_yaml(parse(c.json)), c.yaml) << c.json;
  }
}

}  // namespace
}  // namespace kcm::local::openapi_v2
