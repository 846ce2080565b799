#include "api/json_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcm::api {
namespace {

const json::value kDoc = json::parse(R"({
  "metadata": {"name": "a", "labels": {"app.kubernetes.io/name": "web"}},
  "spec": {"replicas": 3, "ratio": 1.5, "paused": false,
           "items": [{"name": "x", "n": 1}, {"name": "y", "n": 2}, {"name": "z", "n": 3}]},
  "status": {"conditions": [{"type": "Ready", "status": "True"},
                            {"type": "Synced", "status": "False"}]}
})");

std::vector<std::string> texts(std::string_view expression) {
  auto path = JsonPath::parse(expression);
  EXPECT_TRUE(path) << (path ? "" : path.error());
  std::vector<std::string> out;
  if (!path) return out;
  for (const json::value* v : path->find(kDoc))
    out.push_back(json_path_text(*v));
  return out;
}

using Texts = std::vector<std::string>;

TEST(JsonPathTest, SelectsWhatKubectlSelects) {
  const struct {
    std::string_view expression;
    Texts want;
  } cases[] = {
      {".spec.replicas", {"3"}},
      {"{.spec.replicas}", {"3"}},
      {"$.spec.replicas", {"3"}},
      {".spec.ratio", {"1.5"}},
      {".spec.paused", {"false"}},
      {".metadata.name", {"a"}},
      {".metadata.labels['app.kubernetes.io/name']", {"web"}},
      {".spec.items[0].name", {"x"}},
      {".spec.items[-1].name", {"z"}},
      {".spec.items[*].name", {"x", "y", "z"}},
      {".spec.items[1:].n", {"2", "3"}},
      {".spec.items[:2].n", {"1", "2"}},
      {".spec.items[?(@.n > 1)].name", {"y", "z"}},
      {".spec.items[?(@.n==2)].name", {"y"}},
      {".status.conditions[?(@.type==\"Ready\")].status", {"True"}},
      {".status.conditions[?(@.type=='Synced')].status", {"False"}},
      {".status.conditions[?(@.type!=\"Ready\")].type", {"Synced"}},
      {".spec.items[?(@.name)].n", {"1", "2", "3"}},
      {".spec.missing", {}},
      {".spec.items[7].name", {}},
      {".spec.replicas.deeper", {}},
      {".spec.items[0]", {R"({"name":"x","n":1})"}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(texts(c.expression), c.want) << c.expression;
}

TEST(JsonPathTest, RejectsMalformedExpressions) {
  const struct {
    std::string_view expression;
    std::string_view message;
  } cases[] = {
      {"spec.replicas", R"(invalid JSONPath "spec.replicas": must start with '.' or '[')"},
      {"{.spec", R"(invalid JSONPath "{.spec": unclosed action)"},
      {".spec[", R"(invalid JSONPath ".spec[": unterminated [)"},
      {".spec[abc]", R"(invalid JSONPath ".spec[abc]": invalid array index at 6)"},
      {".spec[0", R"(invalid JSONPath ".spec[0": expected ] at 7)"},
      {".items[?(@.a==\"x)]", R"(invalid JSONPath ".items[?(@.a==\"x)]": unterminated string)"},
      {".items[?(@.a==bad)]",
       R"(invalid JSONPath ".items[?(@.a==bad)]": invalid filter operand "bad")"},
      {"..name", R"(invalid JSONPath "..name": recursive descent (..) is not supported)"},
      {".spec!", R"(invalid JSONPath ".spec!": unexpected character at 5 ('!'))"},
      {"", R"(invalid JSONPath "": must start with '.' or '[')"},
  };
  for (const auto& c : cases) {
    auto path = JsonPath::parse(c.expression);
    ASSERT_FALSE(path) << c.expression;
    EXPECT_EQ(path.error(), c.message) << c.expression;
  }
}

}  // namespace
}  // namespace kcm::api
