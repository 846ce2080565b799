#include "api/yaml.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcm::api {
namespace {

std::string to_text(const json::value& v) {
  return json::serialize(v);
}

TEST(YamlTest, ScalarsResolveAsTheCoreSchema) {
  struct Case {
    const char* yaml;
    const char* json;
  };
  const std::vector<Case> cases = {
      {"a: 1", R"({"a":1})"},
      {"a: '1'", R"({"a":"1"})"},
      {"a: true", R"({"a":true})"},
      {"a: ~", R"({"a":null})"},
      {"a:", R"({"a":null})"},
      {"a: 1.5", R"({"a":1.5E0})"},
      {"a: 0x10", R"({"a":16})"},
      {"a: [x, 'y', 3]", R"({"a":["x","y",3]})"},
      {"a: {b: c}", R"({"a":{"b":"c"}})"},
  };
  for (const Case& c : cases) {
    auto v = parse_yaml(c.yaml);
    ASSERT_TRUE(v) << c.yaml << ": " << v.error();
    EXPECT_EQ(to_text(*v), c.json) << c.yaml;
  }
}

TEST(YamlTest, SeveralDocuments) {
  auto docs = parse_yaml_documents("a: 1\n---\n---\nb: 2\n");
  ASSERT_TRUE(docs) << docs.error();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(parse_yaml("a: 1\n---\nb: 2\n").error(),
            "expected a single YAML document, found several");
}

TEST(YamlTest, SyntaxErrorsNameTheLine) {
  auto v = parse_yaml("a: 1\nb: [\n");
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().find("yaml: line "), std::string::npos) << v.error();
}

// yaml-cpp 0.7 would build nodes for ever on these (jbeder/yaml-cpp#1040).
TEST(YamlTest, InputsThatHangYamlCppAreRefused) {
  for (const char* text : {",", ",i", "'',", ",a: 1", "  ,"}) {
    auto v = parse_yaml(text);
    ASSERT_FALSE(v) << text;
    EXPECT_EQ(v.error(),
              "error converting YAML to JSON: yaml: line 1: did not find expected node content")
        << text;
  }
  auto later = parse_yaml_documents("a: 1\n---\n,\n");
  ASSERT_FALSE(later);
  EXPECT_NE(later.error().find("line 3"), std::string::npos) << later.error();
}

}  // namespace
}  // namespace kcm::api
