// encoding/json's Marshal of JSON values (what a Go component's JSON
// endpoints write).
#include "api/go_json_marshal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kcm::api {
namespace {

std::string marshal(const json::value& v) {
  auto r = go_json_marshal(v);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : "";
}

TEST(GoJsonMarshalTest, StringsAreEscapedAsGoEscapesThem) {
  struct Case {
    std::string in, want;
  };
  const std::vector<Case> cases = {
      {"plain", R"("plain")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"\n\r\t", R"("\n\r\t")"},
      {std::string("\x01\x1f", 2), R"("\u0001\u001f")"},
      {"<a href=\"x\">&</a>", R"("\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e")"},
      {"Iñtërnâtiônàlizætiøn 🐹", "\"Iñtërnâtiônàlizætiøn 🐹\""},
      {"line\u2028para\u2029", R"("line\u2028para\u2029")"},
      {"bad\xff\xfe", R"("bad\ufffd\ufffd")"},
      {"\x7f", "\"\x7f\""},
  };
  for (const Case& c : cases)
    EXPECT_EQ(marshal(json::value(c.in)), c.want) << c.in;
}

TEST(GoJsonMarshalTest, NumbersAsGoFormatsFloat64) {
  struct Case {
    json::value in;
    std::string want;
  };
  const std::vector<Case> cases = {
      {0, "0"},
      {-7, "-7"},
      {std::uint64_t{18446744073709551615u}, "18446744073709551615"},
      {0.0, "0"},
      {20.0, "20"},
      {0.1, "0.1"},
      {0.55, "0.55"},
      {-2.5, "-2.5"},
      {1e20, "100000000000000000000"},
      {1e21, "1e+21"},
      {1.5e300, "1.5e+300"},
      {0.000001, "0.000001"},
      {1e-7, "1e-7"},
      {-1.25e-10, "-1.25e-10"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(marshal(c.in), c.want) << c.want;
}

TEST(GoJsonMarshalTest, Float32FieldsPrintAsGoPrintsFloat32) {
  EXPECT_EQ(marshal(float32_for_json(0.1f)), "0.1");
  EXPECT_EQ(marshal(float32_for_json(20.0f)), "20");
  EXPECT_EQ(marshal(float32_for_json(100000.0f)), "100000");
  EXPECT_EQ(marshal(float32_for_json(1.0f / 3)), "0.33333334");
  EXPECT_EQ(marshal(float32_for_json(3e-8f)), "3e-8");
  // Without it, the float's exact value shows.
  EXPECT_EQ(marshal(static_cast<double>(0.1f)), "0.10000000149011612");
}

TEST(GoJsonMarshalTest, NaNAndInfinitiesAreErrors) {
  EXPECT_EQ(go_json_marshal(std::nan("")).error(), "json: unsupported value: NaN");
  EXPECT_EQ(go_json_marshal(json::array{1, std::numeric_limits<double>::infinity()}).error(),
            "json: unsupported value: +Inf");
  EXPECT_EQ(go_json_marshal(json::object{{"a", -std::numeric_limits<double>::infinity()}}).error(),
            "json: unsupported value: -Inf");
}

TEST(GoJsonMarshalTest, CompactWithMembersInTheirOrder) {
  json::object o;
  o["Zeta"] = nullptr;
  o["Alpha"] = json::array{true, false, json::object{}, json::array{}};
  o["<key>"] = "v";
  EXPECT_EQ(marshal(o), R"({"Zeta":null,"Alpha":[true,false,{},[]],"\u003ckey\u003e":"v"})");
}

}  // namespace
}  // namespace kcm::api
