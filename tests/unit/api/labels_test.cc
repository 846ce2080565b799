#include "api/labels.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

// Under AddressSanitizer the sanitizer's malloc hooks count heap allocations (also
// those of operator new), which checks that matching allocates nothing. Other
// builds skip that test rather than replace operator new for the whole binary.
#if defined(__SANITIZE_ADDRESS__)
#define KCM_TEST_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KCM_TEST_HAS_ASAN 1
#endif
#endif

#ifdef KCM_TEST_HAS_ASAN
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             std::size_t),
                                                         void (*free_hook)(const volatile void*));
#endif

namespace {

std::atomic<bool> g_count_allocations{false};
std::atomic<long> g_allocations{0};
std::unique_ptr<std::string> g_sink;  // keeps the control allocation observable

// Installs the counting hook once; false when allocations cannot be observed.
bool allocation_counting_available() {
#ifdef KCM_TEST_HAS_ASAN
  static const bool installed = __sanitizer_install_malloc_and_free_hooks(
                                    [](const volatile void*, std::size_t) {
                                      if (g_count_allocations.load()) ++g_allocations;
                                    },
                                    [](const volatile void*) {}) != 0;
  return installed;
#else
  return false;
#endif
}

}  // namespace

namespace kcm::api::labels {
namespace {

const std::string kNamePartMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kQualifiedNameMsg =
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
    "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
    "subdomain prefix and '/' (e.g. 'example.com/MyName')";
const std::string kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

Requirement req(std::string key, Operator op, std::vector<std::string> values = {}) {
  auto r = Requirement::create(std::move(key), op, std::move(values));
  EXPECT_TRUE(r.ok()) << r.error();
  return std::move(r).value();
}

TEST(LabelsParseTest, CanonicalString) {
  struct Case {
    std::string input;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"", ""},
      {"   ", ""},
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"x!=a,y=b", "x!=a,y=b"},
      {"x=", "x="},
      {"x= ", "x="},
      {"x=,z= ", "x=,z="},
      {"x= ,z= ", "x=,z="},
      {"!x", "!x"},
      {"x>1", "x>1"},
      {"x>1,z<5", "x>1,z<5"},
      {"\rx", "x"},
      {"a ", "a"},
      {"x==a", "x==a"},
      {"x=a,a=x", "a=x,x=a"},
      {"this-is-another-dns.domain.com/key-with-dash in (so,what)",
       "this-is-another-dns.domain.com/key-with-dash in (so,what)"},
      {"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
       "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)"},
      {"foo  in\t (abc)", "foo in (abc)"},
      {"x notin\n (abc)", "x notin (abc)"},
      {"x in (def,abc,def)", "x in (abc,def)"},
      {"x in (abc,)", "x in (,abc)"},
      {"x in ()", "x in ()"},
      {"x notin ( )", "x notin ()"},
      {"x notin (, a)", "x notin (,a)"},
      {"x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z in ()"},
      {"a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"},
      {"notin=in", "notin=in"},
      {"in in (in)", "in in (in)"},
      // Requirements on one key keep their order (the sort is stable).
      {"a=b,a!=c", "a=b,a!=c"},
      {"a!=c,a=b", "a!=c,a=b"},
      {"k=v,!k,k", "k=v,!k,k"},
      {"a=b,c!=d,e in (x,y),f notin (z),!g,h,i==j,k>3,l<5",
       "a=b,c!=d,e in (x,y),f notin (z),!g,h,i==j,k>3,l<5"},
      // Upstream's lexer reads a NUL byte as the end of input.
      {std::string("\0a=b", 4), ""},
      {std::string("a\0", 2), "a"},
  };
  for (const auto& c : cases) {
    auto s = parse(c.input);
    ASSERT_TRUE(s.ok()) << c.input << ": " << s.error();
    EXPECT_EQ(to_string(*s), c.want) << c.input;
    // The canonical form parses back to the same selector.
    auto again = parse(to_string(*s));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(*again, *s) << c.input;
  }
}

TEST(LabelsParseTest, Requirements) {
  auto s = parse("x notin (b,a),!y,z,w>10,v in ()");
  ASSERT_TRUE(s.ok()) << s.error();
  const std::vector<Requirement> want = {
      req("v", Operator::kIn, {""}),
      req("w", Operator::kGreaterThan, {"10"}),
      req("x", Operator::kNotIn, {"a", "b"}),
      req("y", Operator::kDoesNotExist),
      req("z", Operator::kExists),
  };
  EXPECT_EQ(s->requirements(), want);
  EXPECT_FALSE(s->empty());
  EXPECT_EQ(operator_name(s->requirements()[1].op()), "gt");
}

TEST(LabelsParseTest, Errors) {
  struct Case {
    std::string input;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"x=a||y=b",
       "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": " + kLabelValueMsg},
      {"x==a==b", "found '==', expected: ',' or 'end of string'"},
      {"!x=a", "found '=', expected: ',' or 'end of string'"},
      {"x<a",
       "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, "
       "the value must be an integer"},
      {"x,,y", "found ',', expected: identifier after ','"},
      {",x,y", "found ',', expected: !, identifier, or 'end of string'"},
      {"x nott in (y)",
       "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"},
      {"a in (xyz),", "found '', expected: identifier after ','"},
      {"a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'"},
      {"a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"},
      {"a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
      {"a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
      {"a in (b,=)", "unable to parse requirement: found '=', expected: ',', or identifier"},
      {"a (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"},
      {"(", "found '(', expected: !, identifier, or 'end of string'"},
      {"a in b", "unable to parse requirement: found 'b' expected: '('"},
      {"a in", "unable to parse requirement: found '' expected: '('"},
      {"a in (b", "unable to parse requirement: found '', expected: ',' or ')'"},
      {"!", "unable to parse requirement: found '', expected: identifier"},
      {"!!a", "unable to parse requirement: found '!', expected: identifier"},
      {"x=(", "unable to parse requirement: found '(', expected: identifier"},
      {"a=b c", "found 'c', expected: ',' or 'end of string'"},
      {std::string("a=b\0c", 5), "found 'c', expected: ',' or 'end of string'"},
      {"app:monolith",
       "unable to parse requirement: <nil>: Invalid value: \"app:monolith\": " + kNamePartMsg},
      {"a/b/c ?=? def",
       "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": " + kQualifiedNameMsg},
      {"app.kubernetes_io/name=vault",
       "unable to parse requirement: <nil>: Invalid value: \"app.kubernetes_io/name\": prefix "
       "part " +
           kSubdomainMsg},
      {"/x",
       "unable to parse requirement: <nil>: Invalid value: \"/x\": prefix part must be non-empty"},
      {"a/=b",
       "unable to parse requirement: <nil>: Invalid value: \"a/\": name part must be non-empty; " +
           kNamePartMsg},
      {"x=" + std::string(64, 'z'), "unable to parse requirement: values[0][x]: Invalid value: \"" +
                                        std::string(64, 'z') +
                                        "\": must be no more than 63 characters"},
      {"x>-1",
       "unable to parse requirement: values[0][x]: Invalid value: \"-1\": " + kLabelValueMsg},
      {"x>",
       "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the "
       "value must be an integer"},
      {"x>a_",
       "unable to parse requirement: [values[0]: Invalid value: \"a_\": for 'Gt', 'Lt' operators, "
       "the value must be an integer, values[0][x]: Invalid value: \"a_\": " +
           kLabelValueMsg + "]"},
      {"x in (ok,-bad)",
       "unable to parse requirement: values[0][x]: Invalid value: \"-bad\": " + kLabelValueMsg},
  };
  for (const auto& c : cases) {
    auto s = parse(c.input);
    ASSERT_FALSE(s.ok()) << c.input << " parsed as " << to_string(*s);
    EXPECT_EQ(s.error(), c.want) << c.input;
  }
}

TEST(LabelsParseTest, ErrorsWithPath) {
  auto bad_key = parse("a:b", "labelSelector");
  ASSERT_FALSE(bad_key.ok());
  EXPECT_EQ(bad_key.error(),
            "unable to parse requirement: labelSelector: Invalid value: \"a:b\": " + kNamePartMsg);
  auto bad_value = parse("x=-a", "labelSelector");
  ASSERT_FALSE(bad_value.ok());
  EXPECT_EQ(bad_value.error(),
            "unable to parse requirement: labelSelector.values[0][x]: Invalid value: \"-a\": " +
                kLabelValueMsg);
}

TEST(LabelsRequirementTest, Create) {
  struct Case {
    std::string key;
    Operator op;
    std::vector<std::string> values;
    std::string want_error;  // empty: valid
  };
  const std::vector<Case> cases = {
      {"x", Operator::kIn, {"foo"}, ""},
      {"x", Operator::kNotIn, {"foo"}, ""},
      {"x", Operator::kExists, {}, ""},
      {"x", Operator::kDoesNotExist, {}, ""},
      {"1foo", Operator::kIn, {"bar"}, ""},
      {"1234", Operator::kIn, {"bar"}, ""},
      {"y", Operator::kGreaterThan, {"1"}, ""},
      {"z", Operator::kLessThan, {"6"}, ""},
      {"x",
       Operator::kIn,
       {},
       "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
       "empty"},
      {"x",
       Operator::kNotIn,
       {},
       "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
       "empty"},
      {"x",
       Operator::kExists,
       {"a"},
       "values: Invalid value: []string{\"a\"}: values set must be empty for exists and does not "
       "exist"},
      {"x",
       Operator::kEquals,
       {"a", "b"},
       "values: Invalid value: []string{\"a\", \"b\"}: exact-match compatibility requires one "
       "single value"},
      {"foo",
       Operator::kGreaterThan,
       {"bar"},
       "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"x",
       Operator::kLessThan,
       {"1", "2"},
       "values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one value "
       "is required"},
      {std::string(254, 'a'),
       Operator::kExists,
       {},
       "key: Invalid value: \"" + std::string(254, 'a') +
           "\": name part must be no more than 63 characters"},
      {"bad key",
       Operator::kEquals,
       {"good-value"},
       "key: Invalid value: \"bad key\": " + kNamePartMsg},
      {"good-key",
       Operator::kEquals,
       {std::string(64, 'z')},
       "values[0][good-key]: Invalid value: \"" + std::string(64, 'z') +
           "\": must be no more than 63 characters"},
      {"",
       Operator::kIn,
       {},
       "[key: Invalid value: \"\": name part must be non-empty; " + kNamePartMsg +
           ", values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't "
           "be empty]"},
  };
  for (const auto& c : cases) {
    auto r = Requirement::create(c.key, c.op, c.values);
    if (c.want_error.empty()) {
      EXPECT_TRUE(r.ok()) << c.key << ": " << r.error();
    } else {
      ASSERT_FALSE(r.ok()) << c.key;
      EXPECT_EQ(r.error(), c.want_error) << c.key;
    }
  }
}

TEST(LabelsRequirementTest, ToStringSortsWithoutChangingValues) {
  const Requirement r = Requirement::make_unchecked("x", Operator::kIn, {"b", "a", "b"});
  EXPECT_EQ(r.to_string(), "x in (a,b,b)");
  EXPECT_EQ(r.values(), (std::vector<std::string>{"b", "a", "b"}));
  const std::vector<std::pair<Requirement, std::string>> cases = {
      {req("x", Operator::kNotIn, {"def", "abc"}), "x notin (abc,def)"},
      {req("y", Operator::kNotEquals, {"jkl"}), "y!=jkl"},
      {req("z", Operator::kDoesNotExist), "!z"},
      {req("z", Operator::kExists), "z"},
      {req("z", Operator::kNotIn, {""}), "z notin ()"},
      {req("y", Operator::kDoubleEquals, {"jkl"}), "y==jkl"},
      {req("x", Operator::kGreaterThan, {"2"}), "x>2"},
      {req("y", Operator::kLessThan, {"8"}), "y<8"},
  };
  for (const auto& [r2, want] : cases)
    EXPECT_EQ(r2.to_string(), want);
}

struct MatchCase {
  std::string selector;
  LabelSet labels;  // sorted
  bool want;
};

TEST(LabelsMatchTest, UpstreamCases) {
  const LabelSet foo_baz = {{"baz", "blah"}, {"foo", "bar"}};
  const std::vector<MatchCase> cases = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x", {{"x", "z"}}, true},
      {"!x", {{"y", "z"}}, true},
      {"x>1", {{"x", "2"}}, true},
      {"x<1", {{"x", "0"}}, true},
      {"x=z", {}, false},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x", {{"y", "z"}}, false},
      {"!x", {{"x", "z"}}, false},
      {"x>1", {{"x", "0"}}, false},
      {"x<1", {{"x", "2"}}, false},
      {"foo=bar", foo_baz, true},
      {"baz=blah", foo_baz, true},
      {"foo=bar,baz=blah", foo_baz, true},
      {"foo=blah", foo_baz, false},
      {"baz=bar", foo_baz, false},
      {"foo=bar,foobar=bar,baz=blah", foo_baz, false},
      // Set-based requirements.
      {"x in (foo),y notin (alpha)", {{"x", "foo"}, {"y", "baz"}}, true},
      {"x in (foo),y in (alpha)", {{"x", "foo"}, {"y", "baz"}}, false},
      {"x notin (),y", {{"y", ""}}, true},
      {"!x,y", {{"y", ""}}, true},
      {"x notin (),!y", {{"y", ""}}, false},
      {"x in ()", {{"y", "baz"}}, false},
      {"x in ()", {{"x", ""}}, true},
      {"x=", {{"x", ""}}, true},
      {"x=", {}, false},
      {"x!=", {}, true},
      {"z>1", {{"z", "2"}}, true},
      {"z>1", {{"z", "v2"}}, false},
      {"z>1", {}, false},
      // Label values are read with Go's ParseInt: a sign is allowed, overflow is not.
      {"z>2", {{"z", "+3"}}, true},
      {"z<0", {{"z", "-5"}}, true},
      {"z>9223372036854775806", {{"z", "9223372036854775807"}}, true},
      {"z>1", {{"z", "9223372036854775808"}}, false},
      {"z<0", {{"z", "-9223372036854775808"}}, true},
      {"z<0", {{"z", "-9223372036854775809"}}, false},
      {"z>1", {{"z", "1 "}}, false},
  };
  for (const auto& c : cases) {
    auto s = parse(c.selector);
    ASSERT_TRUE(s.ok()) << c.selector << ": " << s.error();
    EXPECT_EQ(matches(*s, c.labels), c.want) << c.selector;
    json::object obj;
    for (const auto& [k, v] : c.labels)
      obj[k] = v;
    EXPECT_EQ(matches(*s, obj), c.want) << c.selector << " (json)";
  }
}

TEST(LabelsMatchTest, JsonNonStringValueCountsAsAbsent) {
  auto s = parse("x,!y");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(matches(*s, json::object{{"x", 1}}));
  EXPECT_TRUE(matches(*s, json::object{{"x", "1"}, {"y", nullptr}}));
}

TEST(LabelsSelectorTest, EverythingAndNothing) {
  const Selector everything;
  EXPECT_TRUE(everything.empty());
  EXPECT_FALSE(everything.matches_nothing());
  EXPECT_TRUE(matches(everything, LabelSet{{"x", "y"}}));
  EXPECT_TRUE(matches(everything, json::object{}));
  EXPECT_EQ(to_string(everything), "");

  Selector nothing = Selector::nothing();
  EXPECT_FALSE(nothing.empty());
  EXPECT_TRUE(nothing.matches_nothing());
  EXPECT_FALSE(matches(nothing, LabelSet{}));
  EXPECT_FALSE(matches(nothing, json::object{{"x", "y"}}));
  EXPECT_EQ(to_string(nothing), "");
  nothing.add(req("x", Operator::kExists));
  EXPECT_TRUE(nothing.requirements().empty());
  EXPECT_NE(nothing, everything);
}

TEST(LabelsSelectorTest, AddKeepsKeyOrder) {
  Selector s;
  s.add(req("key2", Operator::kEquals, {"value2"}));
  s.add(req("key", Operator::kIn, {"value"}));
  s.add(req("key", Operator::kExists));
  EXPECT_EQ(to_string(s), "key in (value),key,key2=value2");
}

TEST(LabelsSelectorTest, RequiresExactMatch) {
  auto s = parse("a=b,c in (d),e in (f,g),h!=i,j==k,l");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->requires_exact_match("a"), "b");
  EXPECT_EQ(s->requires_exact_match("c"), "d");
  EXPECT_EQ(s->requires_exact_match("j"), "k");
  EXPECT_EQ(s->requires_exact_match("e"), std::nullopt);
  EXPECT_EQ(s->requires_exact_match("h"), std::nullopt);
  EXPECT_EQ(s->requires_exact_match("l"), std::nullopt);
  EXPECT_EQ(s->requires_exact_match("zz"), std::nullopt);
}

TEST(LabelsSelectorTest, FromSet) {
  const Selector s = Selector::from_set({{"b", "2"}, {"a", "1"}});
  EXPECT_EQ(to_string(s), "a=1,b=2");
  EXPECT_TRUE(matches(s, LabelSet{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_FALSE(matches(s, LabelSet{{"a", "1"}}));
  EXPECT_TRUE(Selector::from_set({}).empty());

  auto checked = Selector::from_set_checked({{"a b", "1"}});
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error(), "key: Invalid value: \"a b\": " + kNamePartMsg);
  EXPECT_TRUE(Selector::from_set_checked({{"a", "1"}}).ok());
}

TEST(LabelsSelectorTest, ToLabelSetSortsAndSkipsNonStrings) {
  const json::object obj = {{"b", "2"}, {"a", "1"}, {"n", 3}};
  EXPECT_EQ(to_label_set(obj), (LabelSet{{"a", "1"}, {"b", "2"}}));
}

TEST(LabelsMatchTest, MatchingDoesNotAllocate) {
  auto s = parse("app=web,tier in (a,b,frontend),!legacy,version>2,zone notin (x)");
  ASSERT_TRUE(s.ok());
  const LabelSet set = {{"app", "web"}, {"tier", "frontend"}, {"version", "10"}, {"zone", "y"}};
  const json::object obj = {{"app", "web"}, {"tier", "frontend"}, {"version", "10"}, {"zone", "y"}};
  if (!allocation_counting_available()) GTEST_SKIP() << "needs AddressSanitizer's malloc hooks";
  // Control: the hook does see an allocation.
  g_allocations = 0;
  g_count_allocations = true;
  g_sink = std::make_unique<std::string>(100, 'x');
  g_count_allocations = false;
  ASSERT_GT(g_allocations.load(), 0);

  g_allocations = 0;
  g_count_allocations = true;
  bool all = true;
  for (int i = 0; i < 100; ++i)
    all = all && matches(*s, set) && matches(*s, obj);
  g_count_allocations = false;
  EXPECT_TRUE(all);
  EXPECT_EQ(g_allocations.load(), 0);
}

}  // namespace
}  // namespace kcm::api::labels
