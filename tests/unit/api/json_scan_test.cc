#include "api/json_scan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/json.h"

namespace kcm::api {
namespace {

constexpr std::string_view kKind[] = {"kind"};
constexpr std::string_view kName[] = {"metadata", "name"};
constexpr std::string_view kLabel[] = {"metadata", "labels", "app"};

using Values = std::vector<std::optional<std::string>>;

// kind, metadata.name and metadata.labels.app of `text`.
Values scan(std::string_view text) {
  ScannedString members[] = {{kKind, {}}, {kName, {}}, {kLabel, {}}};
  std::string error;
  EXPECT_TRUE(scan_strings(text, members, &error)) << text << ": " << error;
  Values out;
  for (const ScannedString& m : members)
    out.push_back(m.value);
  return out;
}

// The same members read from the document parse_json builds.
Values from_document(std::string_view text) {
  std::string error;
  const auto doc = parse_json(text, &error);
  EXPECT_TRUE(doc.has_value()) << text << ": " << error;
  Values out;
  for (auto path :
       {std::span<const std::string_view>(kKind), std::span<const std::string_view>(kName),
        std::span<const std::string_view>(kLabel)}) {
    const json::value* v = doc ? &*doc : nullptr;
    for (std::string_view key : path) {
      v = v != nullptr && v->is_object() ? v->as_object().if_contains(key) : nullptr;
    }
    out.push_back(v != nullptr && v->is_string() ? std::optional<std::string>(v->get_string())
                                                 : std::nullopt);
  }
  return out;
}

TEST(JsonScanTest, ReadsTheMembersTheDocumentHolds) {
  const struct {
    std::string_view text;
    Values want;
  } cases[] = {
      {R"({"kind":"Pod","metadata":{"name":"web-1","labels":{"app":"web"}}})",
       {"Pod", "web-1", "web"}},
      {R"({"metadata":{"labels":{"app":"web"},"name":"web-1"},"kind":"Pod"})",
       {"Pod", "web-1", "web"}},
      // Absent, or not a string.
      {R"({})", {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"kind":1,"metadata":{"name":null,"labels":{"app":["web"]}}})",
       {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"kind":{"x":"Pod"},"metadata":"web"})", {std::nullopt, std::nullopt, std::nullopt}},
      // Not the root's members: nested objects and arrays with the same keys.
      {R"({"spec":{"kind":"Pod","metadata":{"name":"inner"}}})",
       {std::nullopt, std::nullopt, std::nullopt}},
      {R"([{"kind":"Pod"}])", {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"metadata":[{"name":"in-array"}],"items":[{"kind":"Pod"}]})",
       {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"metadata":{"spec":{"name":"deeper"}},"kind":"Pod"})",
       {"Pod", std::nullopt, std::nullopt}},
      // A key seen inside a nested object does not stand for the next member.
      {R"({"metadata":{"annotations":{"x":{"name":"no"}},"name":"yes"}})",
       {std::nullopt, "yes", std::nullopt}},
      {R"({"metadata":{"labels":{"app":{"name":"no"}}}})",
       {std::nullopt, std::nullopt, std::nullopt}},
      // Duplicate keys: the last one counts, whatever its type.
      {R"({"kind":"A","kind":"B"})", {"B", std::nullopt, std::nullopt}},
      {R"({"kind":"A","kind":{}})", {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"kind":"A","kind":[]})", {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"kind":"A","kind":2.5})", {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"metadata":{"name":"a"},"metadata":{"labels":{}}})",
       {std::nullopt, std::nullopt, std::nullopt}},
      {R"({"metadata":{"name":"a"},"metadata":{"name":"b"}})", {std::nullopt, "b", std::nullopt}},
      // Escapes are decoded; other roots have no members.
      {R"({"kind":"P\u006fd \"x\"\n","metadata":{"name":"\u00e9"}})",
       {"Pod \"x\"\n", "\xc3\xa9", std::nullopt}},
      {R"("Pod")", {std::nullopt, std::nullopt, std::nullopt}},
      {R"(  {"kind" : "Pod" }  )", {"Pod", std::nullopt, std::nullopt}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(scan(c.text), c.want) << c.text;
    EXPECT_EQ(from_document(c.text), c.want) << c.text;
  }
}

TEST(JsonScanTest, ReadsATypicalPodAsTheDocumentDoes) {
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/pod-typical.json");
  ASSERT_TRUE(in) << "tests/data/pod-typical.json";
  std::stringstream text;
  text << in.rdbuf();
  const Values got = scan(text.str());
  EXPECT_EQ(got, from_document(text.str()));
  EXPECT_EQ(got[0], "Pod");
  ASSERT_TRUE(got[1].has_value());
  EXPECT_FALSE(got[1]->empty());
}

TEST(JsonScanTest, RefusesMalformedJsonAsParseJsonDoes) {
  for (std::string_view text :
       {"", "{", R"({"kind":"Pod")", R"({"kind":"Pod"} x)", R"({"kind":"Pod",})", R"({"kind":"P)",
        "nul", R"({"a":1}{"b":2})", "{\"kind\":\"\xff\"}"}) {
    ScannedString members[] = {{kKind, std::string("stale")}, {kName, {}}};
    std::string error;
    EXPECT_FALSE(scan_strings(text, members, &error)) << text;
    std::string want;
    EXPECT_FALSE(parse_json(text, &want).has_value()) << text;
    EXPECT_EQ(error, want) << text;
    EXPECT_FALSE(members[0].value.has_value()) << text;
  }
}

TEST(JsonScanTest, RefusesNestingDeeperThanParseJson) {
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  std::string error;
  ScannedString members[] = {{kKind, {}}};
  EXPECT_FALSE(scan_strings(deep, members, &error));
  std::string want;
  EXPECT_FALSE(parse_json(deep, &want).has_value());
  EXPECT_EQ(error, want);
}

}  // namespace
}  // namespace kcm::api
