// The naming and establishing controllers' status of a CRD.
#include "local/crd/crd_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "crd_test_util.h"

namespace kcm::local::crd {
namespace {

using testing::parse;

constexpr const char* kNow = "2024-05-01T00:00:00Z";

json::object crd_with_names(const char* names, const char* status = "{}") {
  json::object crd;
  crd["spec"] = json::object{{"group", "example.com"}, {"names", parse(names)}};
  crd["status"] = parse(status);
  return crd;
}

constexpr const char* kNames =
    R"({"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
        "shortNames": ["wd"], "categories": ["all"]})";

TEST(CrdStatus, FreshNamesAreAcceptedAndEstablished) {
  const json::object status =
      crd_status(crd_with_names(kNames, R"({"storedVersions": ["v1"]})"), {}, kNow);
  EXPECT_EQ(json::value(status), parse(R"({
    "storedVersions": ["v1"],
    "acceptedNames": {"plural": "widgets", "singular": "widget", "shortNames": ["wd"],
                      "kind": "Widget", "listKind": "WidgetList", "categories": ["all"]},
    "conditions": [
      {"type": "NamesAccepted", "status": "True", "lastTransitionTime": "2024-05-01T00:00:00Z",
       "reason": "NoConflicts", "message": "no conflicts found"},
      {"type": "Established", "status": "True", "lastTransitionTime": "2024-05-01T00:00:00Z",
       "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"}]
  })"))
      << json::serialize(status);
}

TEST(CrdStatus, InstallingBeforeEstablishing) {
  const json::object status = crd_status(crd_with_names(kNames), {}, kNow, false);
  const json::value& established = status.at("conditions").at(1);
  EXPECT_EQ(established.at("status"), json::value("False"));
  EXPECT_EQ(established.at("reason"), json::value("Installing"));
  EXPECT_EQ(established.at("message"), json::value("the initial names have been accepted"));
}

struct ConflictCase {
  const char* name;
  TakenNames taken;
  const char* reason;
  const char* message;
  const char* accepted;
};

class CrdStatusConflicts : public ::testing::TestWithParam<ConflictCase> {};

TEST_P(CrdStatusConflicts, ReportsTheConflict) {
  const ConflictCase& c = GetParam();
  const json::object status = crd_status(crd_with_names(kNames), c.taken, kNow);
  const json::value& names = status.at("conditions").at(0);
  EXPECT_EQ(names.at("type"), json::value("NamesAccepted"));
  EXPECT_EQ(names.at("status"), json::value("False"));
  EXPECT_EQ(names.at("reason"), json::value(c.reason));
  EXPECT_EQ(names.at("message"), json::value(c.message));
  EXPECT_EQ(status.at("acceptedNames"), parse(c.accepted)) << json::serialize(status);
  const json::value& established = status.at("conditions").at(1);
  EXPECT_EQ(established.at("status"), json::value("False"));
  EXPECT_EQ(established.at("reason"), json::value("NotAccepted"));
  EXPECT_EQ(established.at("message"), json::value("not all names are accepted"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdStatusConflicts,
    ::testing::Values(ConflictCase{"Plural",
                                   {{"widgets"}, {}},
                                   "PluralConflict",
                                   R"("widgets" is already in use)",
                                   R"({"singular": "widget", "shortNames": ["wd"], "kind": "Widget",
                         "listKind": "WidgetList", "categories": ["all"]})"},
                      ConflictCase{"Singular",
                                   {{"widget"}, {}},
                                   "SingularConflict",
                                   R"("widget" is already in use)",
                                   R"({"plural": "widgets", "shortNames": ["wd"], "kind": "Widget",
                         "listKind": "WidgetList", "categories": ["all"]})"},
                      ConflictCase{"ShortName",
                                   {{"wd"}, {}},
                                   "ShortNamesConflict",
                                   R"("wd" is already in use)",
                                   R"({"plural": "widgets", "singular": "widget", "kind": "Widget",
                         "listKind": "WidgetList", "categories": ["all"]})"},
                      ConflictCase{
                          "Kind",
                          {{}, {"Widget"}},
                          "KindConflict",
                          R"("Widget" is already in use)",
                          R"({"plural": "widgets", "singular": "widget", "shortNames": ["wd"],
                         "listKind": "WidgetList", "categories": ["all"]})"},
                      // The last conflict found names the reason.
                      ConflictCase{"PluralAndListKind",
                                   {{"widgets"}, {"WidgetList"}},
                                   "ListKindConflict",
                                   R"("WidgetList" is already in use)",
                                   R"({"singular": "widget", "shortNames": ["wd"], "kind": "Widget",
                         "categories": ["all"]})"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdStatus, SeveralShortNameConflictsAreAggregated) {
  const json::object status =
      crd_status(crd_with_names(R"({"plural": "widgets", "singular": "widget", "kind": "Widget",
                         "listKind": "WidgetList", "shortNames": ["a", "b", "c"]})"),
                 TakenNames{{"a", "c"}, {}}, kNow);
  EXPECT_EQ(status.at("conditions").at(0).at("message"),
            json::value(R"(["a" is already in use, "c" is already in use])"));
}

TEST(CrdStatus, OwnAcceptedNamesDoNotConflict) {
  // The names are taken by this very CRD (they are its accepted names).
  const json::object crd = crd_with_names(
      kNames, R"({"acceptedNames": {"plural": "widgets", "singular": "widget", "kind": "Widget",
                                    "listKind": "WidgetList", "shortNames": ["wd"]}})");
  TakenNames taken;
  add_accepted_names(crd, taken);
  EXPECT_EQ(taken.resources, (std::set<std::string>{"widgets", "widget", "wd"}));
  EXPECT_EQ(taken.kinds, (std::set<std::string>{"Widget", "WidgetList"}));
  const json::object status = crd_status(crd, taken, kNow);
  EXPECT_EQ(status.at("conditions").at(0).at("status"), json::value("True"));
}

TEST(CrdStatus, TransitionTimesOnlyChangeWithStatus) {
  json::object crd = crd_with_names(kNames);
  crd["status"] = crd_status(crd, {}, "t1");
  // Same result later: times kept.
  json::object again = crd_status(crd, {}, "t2");
  EXPECT_EQ(again.at("conditions").at(0).at("lastTransitionTime"), json::value("t1"));
  EXPECT_EQ(again.at("conditions").at(1).at("lastTransitionTime"), json::value("t1"));
  // A rename to a taken plural: NamesAccepted flips, Established stays True.
  crd["status"] = again;
  crd["spec"].get_object()["names"].get_object()["plural"] = "gadgets";
  json::object conflicted = crd_status(crd, TakenNames{{"gadgets"}, {}}, "t3");
  EXPECT_EQ(conflicted.at("conditions").at(0).at("status"), json::value("False"));
  EXPECT_EQ(conflicted.at("conditions").at(0).at("lastTransitionTime"), json::value("t3"));
  EXPECT_EQ(conflicted.at("conditions").at(1).at("status"), json::value("True"));
  EXPECT_EQ(conflicted.at("conditions").at(1).at("lastTransitionTime"), json::value("t1"));
  EXPECT_EQ(conflicted.at("acceptedNames").at("plural"), json::value("widgets"));
  EXPECT_TRUE(crd_condition_true(crd, "Established"));
  EXPECT_FALSE(crd_condition_true(crd, "Terminating"));
}

}  // namespace
}  // namespace kcm::local::crd
