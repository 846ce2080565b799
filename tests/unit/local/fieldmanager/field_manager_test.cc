#include "local/fieldmanager/field_manager.h"

#include <gtest/gtest.h>

#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "fieldmanager_test_util.h"

namespace kcm::local::fieldmanager {
namespace {

using testing::deployment_type;
using testing::fields;
using testing::parse;
using testing::text;

json::object canonical(std::string_view text) {
  json::value v = parse(text);
  api::schema::canonicalize(v, deployment_type());
  return v.get_object();
}

FieldSet status_path() {
  FieldSet s;
  s.insert({PathElement::field("status")});
  return s;
}

FieldManager main_resource() {
  return FieldManager(TypeRef::of(deployment_type()), canonical("{}"), "apps/v1", "",
                      status_path());
}

FieldManager status_subresource() {
  FieldSet spec;
  spec.insert({PathElement::field("spec")});
  return FieldManager(TypeRef::of(deployment_type()), canonical("{}"), "apps/v1", "status", spec);
}

std::vector<ManagerEntry> entries(const json::object& obj) {
  auto e = decode_managed_fields(obj);
  EXPECT_TRUE(e) << e.error();
  return e ? *e : std::vector<ManagerEntry>{};
}

// manager/operation/subresource=fieldsV1 per entry, in stored order.
std::vector<std::string> summary(const json::object& obj) {
  std::vector<std::string> out;
  for (const ManagerEntry& e : entries(obj)) {
    out.push_back(e.manager + "/" + e.operation + "/" + e.subresource + "=" + text(e.fields));
  }
  return out;
}

constexpr std::string_view kCreated = R"({"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
  "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}},
  "status":{"replicas":5}})";

json::object created(const FieldManager& m, std::string_view manager = "kubectl-create") {
  json::object obj = canonical(kCreated);
  auto r = m.update(m.zero(), obj, manager, "2026-12-04T00:00:00Z");
  EXPECT_TRUE(r) << r.error();
  api::ensure_object(obj, "metadata")["uid"] = "u1";  // stored objects have one
  return obj;
}

TEST(FieldManagerTest, CreateRecordsWhatTheCreatorSetButNotStatusOrIdentity) {
  const json::object obj = created(main_resource());
  EXPECT_EQ(
      summary(obj),
      (std::vector<std::string>{
          R"(kubectl-create/Update/={"f:metadata":{"f:labels":{".":{},"f:app":{}}},)"
          R"("f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{)"
          R"("f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{)"
          R"("k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},"f:resources":{}}}}}}})"}));
  const json::array& mf = obj.at("metadata").at("managedFields").as_array();
  EXPECT_EQ(api::to_json_string(mf[0].at("time")), R"("2026-12-04T00:00:00Z")");
  EXPECT_EQ(api::to_json_string(mf[0].at("apiVersion")), R"("apps/v1")");
}

TEST(FieldManagerTest, UpdatesMoveChangedFieldsAndKeepOthers) {
  const FieldManager m = main_resource();
  const json::object live = created(m);
  // A PUT without managedFields (as kcm sends, its caches drop them) keeps
  // the stored ones as the base.
  json::object updated = live;
  updated["spec"].as_object()["replicas"] = 3;
  updated["metadata"].as_object().erase("managedFields");
  ASSERT_TRUE(m.update(live, updated, "kubectl-scale", "2026-12-04T00:00:01Z"));
  const auto e = summary(updated);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[1], R"(kubectl-scale/Update/={"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(e[0].find("f:replicas"), std::string::npos) << e[0];

  // Status through the status subresource: its own entry, spec reset.
  json::object status = updated;
  status["status"].as_object()["readyReplicas"] = 3;
  status["spec"].as_object()["paused"] = true;
  ASSERT_TRUE(status_subresource().update(updated, status, "kube-controller-manager",
                                          "2026-12-04T00:00:02Z"));
  const auto s = summary(status);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2], R"(kube-controller-manager/Update/status={"f:status":{"f:readyReplicas":{}}})");
}

TEST(FieldManagerTest, ClientsMayRewriteOrClearManagedFields) {
  const FieldManager m = main_resource();
  const json::object live = created(m);
  json::object rewritten = live;
  const json::value sent = parse(
      R"([{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1",)"
      R"("fieldsV1":{"f:spec":{"f:replicas":{}}}}])");
  rewritten["metadata"].as_object()["managedFields"] = sent;
  ASSERT_TRUE(m.update(live, rewritten, "kubectl", "2026-12-04T00:00:01Z"));
  EXPECT_EQ(summary(rewritten),
            (std::vector<std::string>{R"(kubectl/Apply/={"f:spec":{"f:replicas":{}}})"}));

  // [] clears them, and an existing object without them is not tracked.
  json::object cleared = live;
  cleared["metadata"].as_object()["managedFields"] = json::array();
  cleared["spec"].as_object()["replicas"] = 4;
  ASSERT_TRUE(m.update(live, cleared, "kubectl", "2026-12-04T00:00:01Z"));
  EXPECT_FALSE(cleared["metadata"].as_object().contains("managedFields"));
  json::object again = cleared;
  again["spec"].as_object()["replicas"] = 5;
  ASSERT_TRUE(m.update(cleared, again, "kubectl", "2026-12-04T00:00:02Z"));
  EXPECT_FALSE(again["metadata"].as_object().contains("managedFields"));
}

TEST(FieldManagerTest, ManagedFieldsThatDoNotDecodeAreReplacedByTheStoredOnes) {
  const FieldManager m = main_resource();
  const json::object live = created(m);
  // Each fails upstream's DecodeManagedFields, so the stored entries count, as upstream.
  for (
      std::string_view entry :
      {R"({"manager":"x","operation":"Patch","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{}})",
       R"({"manager":"x","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{}})",
       R"({"manager":"x","operation":"Update","apiVersion":"apps/v1","fieldsV1":{}})",
       R"({"manager":"x","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV2"})"}) {
    json::object sent = live;
    json::array list;
    list.push_back(parse(entry));
    sent["metadata"].as_object()["managedFields"] = std::move(list);
    ASSERT_TRUE(m.update(live, sent, "kubectl", "2026-12-04T00:00:01Z"));
    EXPECT_EQ(summary(sent), summary(live)) << entry;
  }
  json::object one;
  one["metadata"] = json::object{
      {"managedFields",
       json::array{parse(
           R"({"manager":"x","operation":"Patch","apiVersion":"apps/v1","fieldsType":"FieldsV1"})")}}};
  auto decoded = decode_managed_fields(one);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error(), "operation must be `Apply` or `Update`");
  one["metadata"] = json::object{
      {"managedFields",
       json::array{parse(
           R"({"manager":"x","operation":"Apply","apiVersion":"apps/v1","fieldsType":"F"})")}}};
  decoded = decode_managed_fields(one);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error(), "invalid fieldsType \"F\" in managed fields entry 0");
}

TEST(FieldManagerTest, ManagedFieldsAreValidatedAsObjectMetadata) {
  const json::array entries = parse(R"([
    {"manager":"ok","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1"},
    {"manager":")" + std::string(129, 'm') +
                                    R"(","operation":"Merge","fieldsType":"FieldsV2",
     "subresource":")" + std::string(257, 's') +
                                    R"("},
    {"manager":"bell\u0007","operation":"Update"}])")
                                  .as_array();
  std::vector<std::string> messages;
  for (const api::FieldError& e : validate_managed_fields(entries))
    messages.push_back(e.message());
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                "metadata.managedFields[1].operation: Invalid value: \"Merge\": must be `Apply` "
                "or `Update`",
                "metadata.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be "
                "`FieldsV1`",
                "metadata.managedFields[1].manager: Too long: may not be more than 128 bytes",
                "metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
                "metadata.managedFields[2].manager: Invalid value: \"bell\\a\": invalid character "
                "U+0007 (at position 4)"}));
}

TEST(FieldManagerTest, ApplyConflictsUnlessForced) {
  const FieldManager m = main_resource();
  json::object live = created(m);
  const json::object config = parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web"},"spec":{"replicas":2,"template":{"spec":{"containers":[
    {"name":"nginx","image":"nginx:1.27"}]}}}})")
                                  .as_object();
  auto refused = m.apply(live, config, "kubectl", false, "2026-12-04T00:00:01Z");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ApplyFailure::kConflict);
  EXPECT_EQ(conflict_message(refused.error().conflicts),
            "Apply failed with 2 conflicts: conflicts with \"kubectl-create\" using apps/v1:\n"
            "- .spec.replicas\n"
            "- .spec.template.spec.containers[name=\"nginx\"].image");

  auto forced = m.apply(live, config, "kubectl", true, "2026-12-04T00:00:01Z");
  ASSERT_TRUE(forced) << forced.error().message;
  EXPECT_EQ(api::to_json_string(forced->at("spec").at("replicas")), "2");
  const auto e = summary(*forced);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0],
            R"(kubectl/Apply/={"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{)"
            R"("k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}}})");
  EXPECT_EQ(e[1].find("f:replicas"), std::string::npos) << e[1];
  EXPECT_EQ(e[1].find("f:image"), std::string::npos) << e[1];
}

TEST(FieldManagerTest, ApplyRemovesWhatItStopsApplyingUnlessOthersOwnIt) {
  const FieldManager m = main_resource();
  json::object live = m.zero();
  live["metadata"].as_object()["name"] = "web";
  const json::object first = parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","labels":{"a":"1","b":"2"}},"spec":{"paused":true}})")
                                 .as_object();
  auto applied = m.apply(live, first, "ci", false, "2026-12-04T00:00:01Z");
  ASSERT_TRUE(applied) << applied.error().message;
  api::ensure_object(*applied, "metadata")["uid"] = "u1";
  // Another manager co-owns label b by setting it to the same value.
  json::object shared = *applied;
  ASSERT_TRUE(m.update(*applied, shared, "other", "2026-12-04T00:00:02Z"));
  auto co = m.apply(*applied,
                    parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","labels":{"b":"2"}}})")
                        .as_object(),
                    "other-applier", false, "2026-12-04T00:00:03Z");
  ASSERT_TRUE(co) << co.error().message;
  const json::object second = parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web"}})")
                                  .as_object();
  auto pruned = m.apply(*co, second, "ci", false, "2026-12-04T00:00:04Z");
  ASSERT_TRUE(pruned) << pruned.error().message;
  EXPECT_EQ(api::to_json_string(pruned->at("metadata").at("labels")), R"({"b":"2"})");
  // No one owns anything in spec any more: upstream's prune takes spec whole
  // (the strategy's defaults then fill it again).
  const json::value* spec = pruned->if_contains("spec");
  EXPECT_TRUE(spec == nullptr || spec->is_null() || !spec->as_object().contains("paused"));
}

TEST(FieldManagerTest, FirstApplyToAnUntrackedObjectGivesItsFieldsToBeforeFirstApply) {
  const FieldManager m = main_resource();
  json::object live = canonical(kCreated);
  live["metadata"].as_object()["uid"] = "u1";
  auto r = m.apply(live,
                   parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web"},"spec":{"replicas":4}})")
                       .as_object(),
                   "kubectl", false, "2026-12-04T00:00:01Z");
  ASSERT_FALSE(r);
  EXPECT_EQ(conflict_message(r.error().conflicts),
            "Apply failed with 1 conflict: conflict with \"before-first-apply\" using apps/v1: "
            ".spec.replicas");
}

TEST(FieldManagerTest, ApplyRefusesManagedFieldsAndUndeclaredFields) {
  const FieldManager m = main_resource();
  auto with_mf = m.apply(m.zero(),
                         parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","managedFields":[]}})")
                             .as_object(),
                         "kubectl", false, "t");
  ASSERT_FALSE(with_mf);
  EXPECT_EQ(with_mf.error().code, ApplyFailure::kBadRequest);
  EXPECT_EQ(with_mf.error().message, "metadata.managedFields must be nil");
  auto unknown = m.apply(m.zero(),
                         parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web"},"spec":{"replica":1}})")
                             .as_object(),
                         "kubectl", false, "t");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ApplyFailure::kTypedPatch);
  EXPECT_EQ(unknown.error().message, ".spec.replica: field not declared in schema");
}

TEST(FieldManagerTest, KubectlAppliesKeepTheLastAppliedAnnotation) {
  const FieldManager m = main_resource();
  json::object live = created(m);
  live["metadata"].as_object()["annotations"] =
      json::object{{"kubectl.kubernetes.io/last-applied-configuration", "{}"}};
  const json::object config = parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web"},"spec":{"paused":true}})")
                                  .as_object();
  auto r = m.apply(live, config, "kubectl", false, "t");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(
      api::to_json_string(r->at("metadata")
                              .at("annotations")
                              .at("kubectl.kubernetes.io/last-applied-configuration")),
      R"("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},)"
      R"(\"spec\":{\"paused\":true}}\n")");
}

TEST(FieldManagerTest, UpdateManagersAreCappedIntoAncientChanges) {
  std::vector<ManagerEntry> e;
  for (int i = 0; i < 12; ++i) {
    FieldSet s;
    s.insert({PathElement::field("f" + std::to_string(i))});
    e.push_back({"m" + std::to_string(i), std::string(kUpdate), "apps/v1", "",
                 fmt::format("2026-12-04T00:00:{:02}Z", i), s});
  }
  e.push_back(
      {"applier", std::string(kApply), "apps/v1", "", std::nullopt, fields(R"({"f:x":{}})")});
  cap_update_managers(e);
  ASSERT_EQ(e.size(), 11u);  // 10 updaters and the applier
  const auto bucket = std::find_if(
      e.begin(), e.end(), [](const ManagerEntry& x) { return x.manager == kAncientChanges; });
  ASSERT_NE(bucket, e.end());
  EXPECT_EQ(text(bucket->fields), R"({"f:f0":{},"f:f1":{},"f:f2":{}})");
  EXPECT_EQ(bucket->time, "2026-12-04T00:00:02Z");
}

TEST(FieldManagerTest, ManagerNamesFromUserAgents) {
  EXPECT_EQ(manager_from_user_agent("kubectl/v1.33.0 (linux/amd64) kubernetes/abc"), "kubectl");
  EXPECT_EQ(manager_from_user_agent("kcm\x01x/1"), "kcmx");
  EXPECT_EQ(manager_from_user_agent(std::string(200, 'a')), std::string(128, 'a'));
  EXPECT_EQ(manager_from_user_agent(""), "");
}

}  // namespace
}  // namespace kcm::local::fieldmanager
