// The shared validation helpers and Go value renderings.
#include <gtest/gtest.h>

#include "local/registry/go_value.h"
#include "local/registry/semantic_equal.h"
#include "local/registry/validation_common.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::obj;

TEST(ValidationHelpers, IpAndCidrParsing) {
  bool v6 = false;
  EXPECT_TRUE(parse_ip_sloppy("10.0.0.1", &v6));
  EXPECT_FALSE(v6);
  EXPECT_TRUE(parse_ip_sloppy("010.000.000.001"));  // Go's pre-1.17 leniency
  EXPECT_TRUE(parse_ip_sloppy("2001:db8::1", &v6));
  EXPECT_TRUE(v6);
  for (const char* bad : {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1..2.3", "a.b.c.d", "::g"}) {
    EXPECT_FALSE(parse_ip_sloppy(bad)) << bad;
  }
  EXPECT_TRUE(parse_cidr_sloppy("10.244.0.0/16"));
  EXPECT_TRUE(parse_cidr_sloppy("fd00::/64"));
  for (const char* bad : {"10.0.0.0", "10.0.0.0/33", "10.0.0.0/", "fd00::/129", "x/8"}) {
    EXPECT_FALSE(parse_cidr_sloppy(bad)) << bad;
  }
}

TEST(ValidationHelpers, PortNames) {
  EXPECT_TRUE(is_valid_port_name("http").empty());
  EXPECT_TRUE(is_valid_port_name("h-2").empty());
  EXPECT_EQ(is_valid_port_name("80"),
            std::vector<std::string>{"must contain at least one letter (a-z)"});
  EXPECT_EQ(is_valid_port_name("-a--b-"),
            (std::vector<std::string>{"must not contain consecutive hyphens",
                                      "must not begin or end with a hyphen"}));
  EXPECT_EQ(is_valid_port_num(0),
            std::vector<std::string>{"must be between 1 and 65535, inclusive"});
}

TEST(ValidationHelpers, EnvAndKeys) {
  EXPECT_TRUE(is_relaxed_env_var_name("1_STARTS-with.digit ok").empty());
  EXPECT_EQ(is_relaxed_env_var_name(""),
            std::vector<std::string>{"environment variable name must be non-empty"});
  EXPECT_FALSE(is_env_var_name("1A").empty());
  EXPECT_EQ(is_config_map_key("..x"), (std::vector<std::string>{"must not start with '..'"}));
  EXPECT_FALSE(is_config_map_key("a/b").empty());
}

TEST(ValidationHelpers, Paths) {
  api::FieldErrors errs;
  validate_local_non_reserved_path("a/../b", "p", errs);
  validate_local_non_reserved_path("..data", "q", errs);
  validate_local_non_reserved_path("/abs", "r", errs);
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0].message(), "p: Invalid value: \"a/../b\": must not contain '..'");
  EXPECT_EQ(errs[1].message(), "q: Invalid value: \"..data\": must not start with '..'");
  EXPECT_EQ(errs[2].message(), "r: Invalid value: \"/abs\": must be a relative path");
}

TEST(GoValue, Renderings) {
  EXPECT_EQ(go_string_map(nullptr), "map[string]string(nil)");
  const json::object m = obj(R"({"b":"2","a":"1"})");
  EXPECT_EQ(go_string_map(&m), "map[string]string{\"a\":\"1\", \"b\":\"2\"}");
  EXPECT_EQ(
      go_label_selector(json::parse(R"({"matchExpressions":[{"key":"k","operator":"Exists"}]})")),
      "v1.LabelSelector{MatchLabels:map[string]string(nil), "
      "MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:\"k\", "
      "Operator:\"Exists\", Values:[]string(nil)}}}");
  EXPECT_EQ(go_int_or_string(json::value(3)), "intstr.IntOrString{Type:0, IntVal:3, StrVal:\"\"}");
  EXPECT_EQ(go_int_or_string(json::value("25%")),
            "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"25%\"}");
  EXPECT_EQ(invalid_go("f", "x", "d").message(), "f: Invalid value: x: d");
  EXPECT_EQ(not_supported_go("f", "x", {"a"}).message(),
            "f: Unsupported value: x: supported values: \"a\"");
}

// As the decoded Go structs compare: zero values of plain fields and empty
// lists are absent, a pointer set to zero and a map entry are not.
TEST(SemanticEqual, ComparesAsTheGoStructs) {
  const api::schema::Type& spec = builtin_type("core/v1", "PodSpec");
  EXPECT_TRUE(semantic_equal(json::parse(R"({"volumes":[],"nodeSelector":null,"hostname":""})"),
                             json::parse("{}"), spec));
  EXPECT_TRUE(
      semantic_equal(json::parse(R"({"priority":1})"), json::parse(R"({"priority":1.0})"), spec));
  EXPECT_FALSE(semantic_equal(json::parse(R"({"priority":0})"), json::parse("{}"), spec));
  EXPECT_FALSE(
      semantic_equal(json::parse(R"({"nodeSelector":{"a":""}})"), json::parse("{}"), spec));
  EXPECT_FALSE(semantic_equal(json::parse(R"({"containers":[{"name":"x"}]})"),
                              json::parse(R"({"containers":[{"name":"y"}]})"), spec));
  const json::object a = json::parse(R"({"nodeSelector":{},"future":null})").as_object();
  const json::object b = json::parse("{}").as_object();
  EXPECT_TRUE(equal_member(a, b, "nodeSelector", spec));
  EXPECT_TRUE(equal_member(a, b, "future", spec));  // not in the definitions: as JSON
  EXPECT_FALSE(equal_member(json::parse(R"({"future":false})").as_object(), b, "future", spec));
  EXPECT_TRUE(equal_member(json::parse(R"({"future":[1]})").as_object(),
                           json::parse(R"({"future":[1.0]})").as_object(), "future", spec));
}

}  // namespace
}  // namespace kcm::local::registry
