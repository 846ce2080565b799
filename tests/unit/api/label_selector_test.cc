#include "api/label_selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api_test_util.h"

namespace kcm::api {
namespace {

json::value parse_or_die(std::string_view text) {
  std::string err;
  auto v = parse_json(text, &err);
  EXPECT_TRUE(v.has_value()) << err;
  return v.value_or(nullptr);
}

LabelSelector selector_from(std::string_view text) {
  auto s = LabelSelector::from_json(parse_or_die(text));
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : LabelSelector{};
}

TEST(LabelSelectorJsonTest, ReadsAndWritesTheWireForm) {
  const std::string text =
      R"({"matchLabels":{"app":"web","a":"1"},"matchExpressions":[)"
      R"({"key":"tier","operator":"In","values":["b","a"]},{"key":"x","operator":"Exists"}]})";
  const LabelSelector s = selector_from(text);
  EXPECT_EQ(s.match_labels, (labels::LabelSet{{"a", "1"}, {"app", "web"}}));
  ASSERT_EQ(s.match_expressions.size(), 2u);
  EXPECT_EQ(s.match_expressions[0], (LabelSelectorRequirement{"tier", "In", {"b", "a"}}));
  EXPECT_EQ(s.match_expressions[1], (LabelSelectorRequirement{"x", "Exists", {}}));
  // Go sorts map keys and omits empty values lists.
  EXPECT_EQ(
      to_json_string(s.to_json()),
      R"({"matchLabels":{"a":"1","app":"web"},"matchExpressions":[)"
      R"({"key":"tier","operator":"In","values":["b","a"]},{"key":"x","operator":"Exists"}]})");
  EXPECT_EQ(to_json_string(LabelSelector{}.to_json()), "{}");
  EXPECT_EQ(selector_from(to_json_string(s.to_json())), s);
}

TEST(LabelSelectorJsonTest, NullsAndUnknownMembers) {
  const LabelSelector s =
      selector_from(R"({"matchLabels":{"a":null},"matchExpressions":[null,)"
                    R"({"key":"k","operator":"Exists","values":null,"extra":1}],"other":true})");
  EXPECT_EQ(s.match_labels, (labels::LabelSet{{"a", ""}}));
  ASSERT_EQ(s.match_expressions.size(), 2u);
  EXPECT_EQ(s.match_expressions[0], LabelSelectorRequirement{});
  EXPECT_EQ(s.match_expressions[1], (LabelSelectorRequirement{"k", "Exists", {}}));
  EXPECT_TRUE(selector_from(R"({"matchLabels":null,"matchExpressions":null})").empty());

  const json::value null_value(nullptr);
  auto absent = label_selector_from_json(nullptr);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  auto null = label_selector_from_json(&null_value);
  ASSERT_TRUE(null.ok());
  EXPECT_FALSE(null->has_value());
  const json::value empty = json::object{};
  auto present = label_selector_from_json(&empty);
  ASSERT_TRUE(present.ok());
  ASSERT_TRUE(present->has_value());
  EXPECT_TRUE((*present)->empty());
}

TEST(LabelSelectorJsonTest, WrongShapes) {
  struct Case {
    std::string json;
    std::string path;
    std::string want;
  };
  const std::vector<Case> cases = {
      {R"("app=web")", "", "json: cannot unmarshal string into Go value of type v1.LabelSelector"},
      {"5", "spec.selector",
       "json: cannot unmarshal number into Go struct field spec.selector of type "
       "v1.LabelSelector"},
      {R"({"matchLabels":[]})", "",
       "json: cannot unmarshal array into Go struct field LabelSelector.matchLabels of type "
       "map[string]string"},
      {R"({"matchLabels":{"a":1}})", "spec.selector",
       "json: cannot unmarshal number into Go struct field LabelSelector.spec.selector.matchLabels "
       "of type string"},
      {R"({"matchExpressions":{}})", "",
       "json: cannot unmarshal object into Go struct field LabelSelector.matchExpressions of type "
       "[]v1.LabelSelectorRequirement"},
      {R"({"matchExpressions":[1]})", "",
       "json: cannot unmarshal number into Go struct field LabelSelector.matchExpressions of type "
       "v1.LabelSelectorRequirement"},
      {R"({"matchExpressions":[{"key":true}]})", "",
       "json: cannot unmarshal bool into Go struct field "
       "LabelSelectorRequirement.matchExpressions.key of type string"},
      {R"({"matchExpressions":[{"key":"a","operator":1}]})", "spec.selector",
       "json: cannot unmarshal number into Go struct field "
       "LabelSelectorRequirement.spec.selector.matchExpressions.operator of type "
       "v1.LabelSelectorOperator"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":"x"}]})", "",
       "json: cannot unmarshal string into Go struct field "
       "LabelSelectorRequirement.matchExpressions.values of type []string"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":["x",2]}]})", "",
       "json: cannot unmarshal number into Go struct field "
       "LabelSelectorRequirement.matchExpressions.values of type string"},
  };
  for (const auto& c : cases) {
    auto s = LabelSelector::from_json(parse_or_die(c.json), c.path);
    ASSERT_FALSE(s.ok()) << c.json;
    EXPECT_EQ(s.error(), c.want) << c.json;
  }
}

TEST(LabelSelectorConvertTest, AsSelector) {
  const LabelSelector s = selector_from(
      R"({"matchLabels":{"app":"web"},"matchExpressions":[)"
      R"({"key":"tier","operator":"In","values":["b","a"]},)"
      R"({"key":"env","operator":"NotIn","values":["prod"]},)"
      R"({"key":"legacy","operator":"DoesNotExist"},{"key":"x","operator":"Exists"}]})");
  auto str = to_selector_string(s);
  ASSERT_TRUE(str.ok()) << str.error();
  EXPECT_EQ(*str, "app=web,env notin (prod),!legacy,tier in (a,b),x");

  auto sel = as_selector(s);
  ASSERT_TRUE(sel.ok());
  struct Case {
    labels::LabelSet pod;
    bool want;
  };
  const std::vector<Case> cases = {
      {{{"app", "web"}, {"tier", "a"}, {"x", ""}}, true},
      {{{"app", "web"}, {"env", "dev"}, {"tier", "b"}, {"x", "1"}}, true},
      {{{"app", "web"}, {"env", "prod"}, {"tier", "b"}, {"x", "1"}}, false},
      {{{"app", "web"}, {"legacy", "1"}, {"tier", "b"}, {"x", "1"}}, false},
      {{{"app", "web"}, {"tier", "c"}, {"x", "1"}}, false},
      {{{"app", "web"}, {"tier", "a"}}, false},
      {{{"app", "api"}, {"tier", "a"}, {"x", ""}}, false},
  };
  for (const auto& c : cases)
    EXPECT_EQ(labels::matches(*sel, c.pod), c.want);
}

TEST(LabelSelectorConvertTest, EmptySelectsEverythingAndNilNothing) {
  auto everything = as_selector(LabelSelector{});
  ASSERT_TRUE(everything.ok());
  EXPECT_TRUE(everything->empty());
  EXPECT_TRUE(labels::matches(*everything, labels::LabelSet{{"a", "b"}}));

  auto nothing = as_selector(std::optional<LabelSelector>());
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->matches_nothing());
  EXPECT_FALSE(labels::matches(*nothing, labels::LabelSet{}));

  EXPECT_EQ(format_label_selector(std::nullopt), "<none>");
  EXPECT_EQ(format_label_selector(LabelSelector{}), "<none>");
  EXPECT_EQ(format_label_selector(selector_from(R"({"matchLabels":{"app":"web"}})")), "app=web");
  EXPECT_EQ(format_label_selector(
                selector_from(R"({"matchExpressions":[{"key":"a","operator":"Bad"}]})")),
            "<error>");
}

TEST(LabelSelectorConvertTest, Errors) {
  struct Case {
    std::string json;
    std::string want;
  };
  const std::vector<Case> cases = {
      {R"({"matchExpressions":[{"key":"a","operator":"Foo"}]})",
       "\"Foo\" is not a valid pod selector operator"},
      {R"({"matchExpressions":[{"key":"a","operator":"in","values":["x"]}]})",
       "\"in\" is not a valid pod selector operator"},
      {R"({"matchExpressions":[{"key":"a","operator":"In"}]})",
       "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
       "empty"},
      {R"({"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]})",
       "values: Invalid value: []string{\"x\"}: values set must be empty for exists and does not "
       "exist"},
      {R"({"matchLabels":{"a b":"x"}})", "key: Invalid value: \"a b\": " + kNamePartMsg},
      {R"({"matchLabels":{"app":"-x"}})",
       "values[0][app]: Invalid value: \"-x\": " + kLabelValueMsg},
  };
  for (const auto& c : cases) {
    auto s = as_selector(selector_from(c.json));
    ASSERT_FALSE(s.ok()) << c.json;
    EXPECT_EQ(s.error(), c.want) << c.json;
    auto str = to_selector_string(selector_from(c.json));
    ASSERT_FALSE(str.ok());
    EXPECT_EQ(str.error(), c.want);
  }
}

TEST(LabelSelectorConvertTest, ParseLabelSelector) {
  auto s = parse_label_selector("x,tier in (b,a,b),app=web,!legacy,k==v");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->match_labels, (labels::LabelSet{{"app", "web"}, {"k", "v"}}));
  const std::vector<LabelSelectorRequirement> want = {
      {"legacy", "DoesNotExist", {}},
      {"tier", "In", {"a", "b"}},
      {"x", "Exists", {}},
  };
  EXPECT_EQ(s->match_expressions, want);

  struct Case {
    std::string input;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"a!=b", "\"!=\" is not a valid label selector operator"},
      {"a>1", "\"gt\" isn't supported in label selectors"},
      {"a<1", "\"lt\" isn't supported in label selectors"},
      {"app: nginx",
       "couldn't parse the selector string \"app: nginx\": unable to parse requirement: <nil>: "
       "Invalid value: \"app:\": " +
           kNamePartMsg},
      {"a b",
       "couldn't parse the selector string \"a b\": unable to parse requirement: found 'b', "
       "expected: in, notin, =, ==, !=, gt, lt"},
  };
  for (const auto& c : cases) {
    auto r = parse_label_selector(c.input);
    ASSERT_FALSE(r.ok()) << c.input;
    EXPECT_EQ(r.error(), c.want) << c.input;
  }
}

TEST(LabelSelectorValidationTest, Messages) {
  struct Case {
    std::string json;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"a","operator":"In","values":["x"]}]})",
       {}},
      {R"({})", {}},
      {R"({"matchLabels":{"a b":"x","ok":"-v"}})",
       {"spec.selector.matchLabels: Invalid value: \"a b\": " + kNamePartMsg,
        "spec.selector.matchLabels: Invalid value: \"-v\": " + kLabelValueMsg}},
      {R"({"matchExpressions":[{"key":"a","operator":"In"}]})",
       {"spec.selector.matchExpressions[0].values: Required value: must be specified when "
        "`operator` is 'In' or 'NotIn'"}},
      {R"({"matchExpressions":[{"key":"a","operator":"Exists"},{"key":"b","operator":"DoesNotExist","values":["x"]}]})",
       {"spec.selector.matchExpressions[1].values: Forbidden: may not be specified when "
        "`operator` is 'Exists' or 'DoesNotExist'"}},
      {R"({"matchExpressions":[{"key":"a","operator":"Foo"}]})",
       {"spec.selector.matchExpressions[0].operator: Invalid value: \"Foo\": not a valid selector "
        "operator"}},
      {R"({"matchExpressions":[{"operator":"Exists"}]})",
       {"spec.selector.matchExpressions[0].key: Invalid value: \"\": name part must be non-empty",
        "spec.selector.matchExpressions[0].key: Invalid value: \"\": " + kNamePartMsg}},
      {R"({"matchExpressions":[{"key":"k","operator":"NotIn","values":["ok","-x"]}]})",
       {"spec.selector.matchExpressions[0].values[1]: Invalid value: \"-x\": " + kLabelValueMsg}},
      {R"({"matchExpressions":[{"key":"k","operator":"Exists","values":["-x"]}]})",
       {"spec.selector.matchExpressions[0].values: Forbidden: may not be specified when "
        "`operator` is 'Exists' or 'DoesNotExist'",
        "spec.selector.matchExpressions[0].values[0]: Invalid value: \"-x\": " + kLabelValueMsg}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(error_messages(validate_label_selector(selector_from(c.json), "spec.selector")),
              c.want)
        << c.json;
  }
}

TEST(LabelSelectorValidationTest, InvalidValuesCanBeAllowed) {
  const LabelSelector s =
      selector_from(R"({"matchExpressions":[{"key":"k","operator":"In","values":["-x"]}]})");
  EXPECT_TRUE(label_selector_has_invalid_label_value(s));
  EXPECT_FALSE(
      label_selector_has_invalid_label_value(selector_from(R"({"matchLabels":{"a":"-x"}})")));
  EXPECT_EQ(validate_label_selector(s, "spec.selector").size(), 1u);
  EXPECT_TRUE(
      validate_label_selector(s, "spec.selector", {.allow_invalid_label_value_in_selector = true})
          .empty());
  EXPECT_TRUE(validate_label_selector(std::optional<LabelSelector>(), "spec.selector").empty());
}

}  // namespace
}  // namespace kcm::api
