#include "api/fields.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace kcm::api::fields {
namespace {

TEST(FieldSelectorParseTest, CanonicalString) {
  struct Case {
    std::string input;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"", ""},
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"x!=a,y=b", "x!=a,y=b"},
      {R"(x=a||y\=b)", R"(x=a||y\=b)"},
      {R"(x=a\=\=b)", R"(x=a\=\=b)"},
      {"x=a,a=x", "a=x,x=a"},
      {"a==b", "a=b"},
      {"involvedObject.namespace=", "involvedObject.namespace="},
      {"spec.nodeName=,status.phase!=Running", "spec.nodeName=,status.phase!=Running"},
      {",a=b,", "a=b"},
      {",,,", ""},
      // A term with neither field nor value is dropped.
      {"=", ""},
      {"!=", ""},
      {"=,a=b", "a=b"},
      {"=x", "=x"},
      {"a!b=c", "a!b=c"},
      // "k2..." sorts before "k=..." ('2' < '=').
      {R"(k=\,,k2=v2)", R"(k2=v2,k=\,)"},
      {R"(k=\\,k2=v2)", R"(k2=v2,k=\\)"},
      {R"(k=\\\,,k2=v2)", R"(k2=v2,k=\\\,)"},
      // Terms are sorted by their bytes.
      {"함=수,목=록", "목=록,함=수"},
  };
  for (const auto& c : cases) {
    auto s = parse(c.input);
    ASSERT_TRUE(s.ok()) << c.input << ": " << s.error();
    EXPECT_EQ(to_string(*s), c.want) << c.input;
    auto again = parse(to_string(*s));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(*again, *s) << c.input;
  }
}

TEST(FieldSelectorParseTest, Requirements) {
  auto s = parse(R"(status.phase!=Running,metadata.name==web,spec.nodeName=,note=a\,b)");
  ASSERT_TRUE(s.ok()) << s.error();
  const std::vector<Requirement> want = {
      {"metadata.name", Operator::kEquals, "web"},
      {"note", Operator::kEquals, "a,b"},
      {"spec.nodeName", Operator::kEquals, ""},
      {"status.phase", Operator::kNotEquals, "Running"},
  };
  EXPECT_EQ(s->requirements(), want);
  EXPECT_FALSE(s->empty());
  EXPECT_TRUE(parse("").value().empty());
}

TEST(FieldSelectorParseTest, Errors) {
  struct Case {
    std::string input;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"x=a||y=b", "invalid field selector: unescaped character in value: 61"},
      {"x==a==b", "invalid field selector: unescaped character in value: 61"},
      {"x=a,b", "invalid selector: 'x=a,b'; can't understand 'b'"},
      {"x in (a)", "invalid selector: 'x in (a)'; can't understand 'x in (a)'"},
      {"x in (a,b,c)", "invalid selector: 'x in (a,b,c)'; can't understand 'b'"},
      {"x", "invalid selector: 'x'; can't understand 'x'"},
      {"a=b,!c", "invalid selector: 'a=b,!c'; can't understand '!c'"},
      {R"(k=\a)", R"(invalid field selector: invalid escape sequence: \a)"},
      {R"(k=\)", R"(invalid field selector: invalid escape sequence: \)"},
      {R"(k=\\\)", R"(invalid field selector: invalid escape sequence: \)"},
      {"k=\\\xc3\xa9", "invalid field selector: invalid escape sequence: \\\xc3\xa9"},
      // Upstream decodes runes: a stray byte reads as U+FFFD.
      {"k=\\\xff", "invalid field selector: invalid escape sequence: \\\xef\xbf\xbd"},
  };
  for (const auto& c : cases) {
    auto s = parse(c.input);
    ASSERT_FALSE(s.ok()) << c.input << " parsed as " << to_string(*s);
    EXPECT_EQ(s.error(), c.want) << c.input;
  }
}

TEST(FieldSelectorEscapeTest, RoundTrips) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},       {"a", "a"},        {"=", R"(\=)"},
      {",", R"(\,)"}, {R"(\)", R"(\\)"}, {R"(\=\,\)", R"(\\\=\\\,\\)"},
  };
  for (const auto& [raw, escaped] : cases) {
    EXPECT_EQ(escape_value(raw), escaped);
    auto back = unescape_value(escaped);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, raw);
  }
  // Without special characters the value is kept byte for byte; with them, runes
  // are re-encoded and a stray byte becomes U+FFFD, as upstream does.
  EXPECT_EQ(unescape_value("\xff").value(), "\xff");
  EXPECT_EQ(unescape_value("\\,\xff").value(), ",\xef\xbf\xbd");
  EXPECT_EQ(unescape_value("\\,\xf0\x9f\x98\x80").value(), ",\xf0\x9f\x98\x80");
  for (const std::string bad : {R"(\)", R"(\\\)", R"(\a)"}) {
    auto r = unescape_value(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("invalid escape sequence"), std::string::npos);
  }
}

TEST(FieldSelectorMatchTest, UpstreamCases) {
  using Set = std::vector<std::pair<std::string, std::string>>;
  struct Case {
    std::string selector;
    Set fields;
    bool want;
  };
  const Set fieldset = {{"foo", "bar"}, {"baz", "blah"}, {"complex", R"(=value\,\)"}};
  const std::vector<Case> cases = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"foo=bar", fieldset, true},
      {"baz=blah", fieldset, true},
      {"foo=bar,baz=blah", fieldset, true},
      {R"(foo=bar,baz=blah,complex=\=value\\\,\\)", fieldset, true},
      {"foo=blah", fieldset, false},
      {"baz=bar", fieldset, false},
      {"foo=bar,foobar=bar,baz=blah", fieldset, false},
      // A missing field reads as "".
      {"spec.nodeName=", {}, true},
      {"spec.nodeName!=", {}, false},
      {"spec.nodeName=", {{"spec.nodeName", "n1"}}, false},
  };
  for (const auto& c : cases) {
    auto s = parse(c.selector);
    ASSERT_TRUE(s.ok()) << c.selector << ": " << s.error();
    EXPECT_EQ(matches(*s, c.fields), c.want) << c.selector;
    const std::map<std::string, std::string, std::less<>> m(c.fields.begin(), c.fields.end());
    const FieldGetter get = [&m](std::string_view field) -> std::string_view {
      const auto it = m.find(field);
      return it == m.end() ? std::string_view() : std::string_view(it->second);
    };
    EXPECT_EQ(matches(*s, get), c.want) << c.selector << " (getter)";
  }
}

TEST(FieldSelectorTest, OneTermAndExactMatch) {
  const Selector one = Selector::one_term_equal("metadata.name", "web");
  EXPECT_EQ(to_string(one), "metadata.name=web");
  const std::vector<std::pair<std::string, std::string>> web = {{"metadata.name", "web"}};
  const std::vector<std::pair<std::string, std::string>> api = {{"metadata.name", "api"}};
  EXPECT_TRUE(matches(one, web));
  EXPECT_FALSE(matches(one, api));

  auto s = parse("a=b,c!=d,e=");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->requires_exact_match("a"), "b");
  EXPECT_EQ(s->requires_exact_match("c"), std::nullopt);
  EXPECT_EQ(s->requires_exact_match("e"), "");
  EXPECT_EQ(s->requires_exact_match("zz"), std::nullopt);
  EXPECT_TRUE(Selector::everything().empty());
  EXPECT_EQ(Selector::everything().requires_exact_match("a"), std::nullopt);
}

TEST(FieldSelectorTest, SupportedFields) {
  const std::vector<std::string_view> pod_fields = {"metadata.name", "metadata.namespace",
                                                    "spec.nodeName", "status.phase"};
  auto ok = parse("spec.nodeName=n1,status.phase!=Running");
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(check_supported_fields(*ok, pod_fields).ok());

  auto bad = parse("metadata.name=a,spec.foo=b,spec.zzz=c");
  ASSERT_TRUE(bad.ok());
  auto r = check_supported_fields(*bad, pod_fields);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "field label not supported: spec.foo");

  EXPECT_TRUE(check_metadata_fields(parse("metadata.name=a,metadata.namespace=b").value()).ok());
  auto meta = check_metadata_fields(*bad);
  ASSERT_FALSE(meta.ok());
  EXPECT_EQ(meta.error(),
            "\"spec.foo\" is not a known field selector: only \"metadata.name\", "
            "\"metadata.namespace\"");
}

}  // namespace
}  // namespace kcm::api::fields
