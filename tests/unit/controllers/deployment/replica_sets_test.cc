#include "controllers/deployment/replica_sets.h"

#include <gtest/gtest.h>

#include "controller/hash.h"
#include "controllers/deployment/annotations.h"
#include "controllers/deployment/progress.h"
#include "controllers/deployment/template_equality.h"
#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

json::value abbreviated_template(const json::object& c) {
  json::object meta;
  meta["name"] = c.at("name");
  meta["annotations"] = c.at("annotations");
  meta["labels"] = c.at("labels");
  json::object spec;
  spec["nodeName"] = c.at("nodeName");
  return json::object{{"metadata", std::move(meta)}, {"spec", std::move(spec)}};
}

// TestEqualIgnoreHash.
TEST(ReplicaSets, UpstreamEqualIgnoreHash) {
  const json::object file = load_upstream_cases("equal_ignore_hash.json");
  ASSERT_EQ(cases_of(file).size(), 10u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::value a = abbreviated_template(c.at("input").at("former").as_object());
    const json::value b = abbreviated_template(c.at("input").at("latter").as_object());
    const json::value a_before = a;
    const json::value b_before = b;
    const bool want = c.at("expected").at("equal").as_bool();
    EXPECT_EQ(equal_ignore_hash(a, b), want) << name;
    EXPECT_EQ(equal_ignore_hash(b, a), want) << name << " (reversed)";
    EXPECT_EQ(a, a_before) << name;
    EXPECT_EQ(b, b_before) << name;
  }
}

// EqualIgnoreHash as upstream writes it: the label deleted from copies of
// both templates, then Semantic.DeepEqual.
bool erase_hash_then_compare(json::value a, json::value b) {
  for (json::value* t : {&a, &b}) {
    json::object* meta = t->is_object() ? t->as_object().if_contains("metadata") != nullptr &&
                                                  t->as_object()["metadata"].is_object()
                                              ? &t->as_object()["metadata"].as_object()
                                              : nullptr
                                        : nullptr;
    if (meta != nullptr && meta->contains("labels") && (*meta)["labels"].is_object()) {
      (*meta)["labels"].as_object().erase(kPodTemplateHashLabel);
    }
  }
  return equal_pod_templates(a, b);
}

TEST(ReplicaSets, EqualIgnoreHashAgreesWithErasingTheLabelFromCopies) {
  const char* const templates[] = {
      R"({})",
      R"(null)",
      R"({"metadata":{}})",
      R"({"metadata":null})",
      R"({"metadata":"x"})",
      R"({"metadata":{"labels":{}}})",
      R"({"metadata":{"labels":"x"}})",
      R"({"metadata":{"labels":{"pod-template-hash":"abc"}}})",
      R"({"metadata":{"labels":{"pod-template-hash":"def"}}})",
      R"({"metadata":{"labels":{"pod-template-hash":""}}})",
      R"({"metadata":{"labels":{"app":"web"}}})",
      R"({"metadata":{"labels":{"app":"web","pod-template-hash":"abc"}}})",
      R"({"metadata":{"labels":{"app":"db","pod-template-hash":"abc"}}})",
      R"({"metadata":{"labels":{"app":"web"},"annotations":{"a":"1"}}})",
      R"({"metadata":{"pod-template-hash":"abc"}})",
      R"({"pod-template-hash":"abc"})",
      R"({"metadata":{"labels":{"pod-template-hash":"abc"}},"spec":{}})",
      R"({"metadata":{"labels":{"pod-template-hash":"abc"}},"spec":{"containers":[{"name":"a"}]}})",
      R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}}}]}})",
      R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1000m"}}}]}})",
      R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"2"}}}]}})",
  };
  for (const char* a : templates) {
    for (const char* b : templates) {
      const json::value va = json::parse(a);
      const json::value vb = json::parse(b);
      EXPECT_EQ(equal_ignore_hash(va, vb), erase_hash_then_compare(va, vb)) << a << " vs " << b;
    }
  }
}

// Semantic.DeepEqual of PodTemplateSpecs, as the decoded Go structs compare.
TEST(ReplicaSets, PodTemplatesCompareAsTheirGoStructs) {
  struct Case {
    const char* name;
    const char* a;
    const char* b;
    bool equal;
  };
  const Case cases[] = {
      // A plain (non-pointer) field set to its zero value decodes as if absent.
      {"bool zero", R"({"spec":{"containers":[{"name":"a","stdin":false}]}})",
       R"({"spec":{"containers":[{"name":"a"}]}})", true},
      {"string zero", R"({"spec":{"containers":[{"name":"a","image":""}]}})",
       R"({"spec":{"containers":[{"name":"a"}]}})", true},
      {"struct value zero", R"({"spec":{"containers":[{"name":"a","resources":{}}]}})",
       R"({"spec":{"containers":[{"name":"a"}]}})", true},
      {"null member", R"({"spec":{"nodeSelector":null,"hostname":null}})", R"({"spec":{}})", true},
      // A pointer set to a zero value is not nil.
      {"*bool false", R"({"spec":{"automountServiceAccountToken":false}})", R"({"spec":{}})",
       false},
      {"*int64 zero", R"({"spec":{"terminationGracePeriodSeconds":0}})", R"({"spec":{}})", false},
      {"pointer to an empty struct",
       R"({"spec":{"containers":[{"name":"a","securityContext":{}}]}})",
       R"({"spec":{"containers":[{"name":"a"}]}})", false},
      {"a *bool added to a set struct",
       R"({"spec":{"containers":[{"name":"a","securityContext":{"runAsNonRoot":true,"allowPrivilegeEscalation":false}}]}})",
       R"({"spec":{"containers":[{"name":"a","securityContext":{"runAsNonRoot":true}}]}})", false},
      {"*int64 zero inside a set struct", R"({"spec":{"securityContext":{"runAsUser":0}}})",
       R"({"spec":{"securityContext":{}}})", false},
      {"the same pointers", R"({"spec":{"terminationGracePeriodSeconds":30}})",
       R"({"spec":{"terminationGracePeriodSeconds":30.0}})", true},
      // Nil and empty lists and maps are alike; map entries are not.
      {"empty list", R"({"spec":{"volumes":[],"containers":[]}})", R"({"spec":{}})", true},
      {"empty map", R"({"metadata":{"labels":{}},"spec":{"nodeSelector":{}}})", R"({})", true},
      {"map entry with an empty value", R"({"metadata":{"labels":{"foo":""}}})", R"({})", false},
      {"map keys differ", R"({"metadata":{"labels":{"x":""}}})",
       R"({"metadata":{"labels":{"y":""}}})", false},
      {"list order", R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})",
       R"({"spec":{"containers":[{"name":"b"},{"name":"a"}]}})", false},
      // Quantities compare by value wherever the type has one, and nowhere else.
      {"resource limits",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1000m","memory":"1Gi"}}}]}})",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1024Mi"}}}]}})",
       true},
      {"different limits",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"2"}}}]}})",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}}}]}})", false},
      {"sizeLimit", R"({"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1Gi"}}]}})",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1024Mi"}}]}})", true},
      {"divisor",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"m","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"m","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1048576"}}}]}]}})",
       true},
      {"a string that looks like a quantity",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"x","value":"1000m"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"x","value":"1"}]}]}})", false},
      // An int-or-string keeps its kind.
      {"int-or-string kinds",
       R"({"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":80}}}]}})",
       R"({"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":"80"}}}]}})",
       false},
      // Members the definitions don't know compare as JSON.
      {"unknown member, same", R"({"spec":{"futureField":{"a":1}}})",
       R"({"spec":{"futureField":{"a":1.0}}})", true},
      {"unknown member set to a zero value", R"({"spec":{"futureField":false}})", R"({"spec":{}})",
       false},
      {"unknown member null", R"({"spec":{"futureField":null}})", R"({"spec":{}})", true},
  };
  for (const Case& c : cases) {
    const json::value a = json::parse(c.a);
    const json::value b = json::parse(c.b);
    EXPECT_EQ(equal_pod_templates(a, b), c.equal) << c.name;
    EXPECT_EQ(equal_pod_templates(b, a), c.equal) << c.name << " (reversed)";
  }
}

// Template identity in find_new_old_replica_sets.json.
json::value template_named(const json::object& deployment, const std::string& description) {
  json::value t = deployment.at("spec").at("template");
  if (description.starts_with("T(deployment) + pod-template-hash=")) {
    const std::string hash = description.substr(description.find('=') + 1);
    t.as_object()["metadata"].as_object()["labels"].as_object()["pod-template-hash"] = hash;
  } else {
    EXPECT_EQ(description, "T(old: container name changed)");
    t.as_object()["spec"].as_object()["containers"].as_array()[0].as_object()["name"] = "bar";
  }
  return t;
}

// TestFindNewReplicaSet and TestFindOldReplicaSets.
TEST(ReplicaSets, UpstreamFindNewAndOldReplicaSets) {
  const json::object file = load_upstream_cases("find_new_old_replica_sets.json");
  ASSERT_EQ(cases_of(file).size(), 7u);
  const json::object deployment = deployment_from_compact(json::object{{"replicas", 1}});
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    ReplicaSets rss;
    ReplicaSetList list;
    for (const json::value& r : c.at("input").at("rsList").as_array()) {
      json::object rs = replica_set_from_compact(r.as_object());
      rs["spec"].as_object()["template"] = template_named(deployment, str(r.at("template")));
      list.push_back(rss.add(std::move(rs)));
    }
    const json::object& want = c.at("expected").as_object();
    if (str(c.at("op")) == "findNew") {
      const ReplicaSetInfo* got = find_new_replica_set(template_of(deployment), list);
      if (want.at("new").is_null()) {
        EXPECT_EQ(got, nullptr) << name;
      } else {
        ASSERT_NE(got, nullptr) << name;
        EXPECT_EQ(got->name, str(want.at("new"))) << name;
      }
    } else {
      const OldReplicaSets got = find_old_replica_sets(template_of(deployment), list);
      EXPECT_EQ(names_of(got.all), strings_of(want.at("allOld"))) << name;
      EXPECT_EQ(names_of(got.required), strings_of(want.at("requiredOld"))) << name;
    }
  }
}

TEST(ReplicaSets, Orderings) {
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* created, const char* rev) {
    json::object c{{"name", n}, {"specReplicas", spec}, {"created", created}};
    if (rev != nullptr) c["annotations"] = json::object{{"deployment.kubernetes.io/revision", rev}};
    return rss.add_compact(c);
  };
  const ReplicaSetInfo* a = rs("a", 2, "2024-01-01T00:00:00Z", "3");
  const ReplicaSetInfo* b = rs("b", 2, "2024-01-02T00:00:00Z", "x");
  const ReplicaSetInfo* c = rs("c", 5, "2024-01-02T00:00:00Z", "1");
  const ReplicaSetInfo* d = rs("d", 2, "2024-01-01T00:00:00Z", nullptr);
  ReplicaSetList list = {c, b, a, d};
  sort_by_creation_timestamp(list);
  EXPECT_EQ(names_of(list), (std::vector<std::string>{"a", "d", "b", "c"}));
  sort_by_size_newer(list);
  EXPECT_EQ(names_of(list), (std::vector<std::string>{"c", "b", "d", "a"}));
  sort_by_size_older(list);
  EXPECT_EQ(names_of(list), (std::vector<std::string>{"c", "a", "d", "b"}));
  list = {a, c, d};
  sort_by_revision(list);
  EXPECT_EQ(names_of(list), (std::vector<std::string>{"d", "c", "a"}));
}

TEST(ReplicaSets, FindActiveOrLatest) {
  ReplicaSets rss;
  const auto rs = [&](const char* n, std::int64_t spec, const char* created) {
    return rss.add_compact(json::object{{"name", n}, {"specReplicas", spec}, {"created", created}});
  };
  const ReplicaSetInfo* old1 = rs("o1", 0, "2024-01-01T00:00:00Z");
  const ReplicaSetInfo* old2 = rs("o2", 0, "2024-01-02T00:00:00Z");
  const ReplicaSetInfo* fresh = rs("n", 0, "2024-01-03T00:00:00Z");
  const ReplicaSetInfo* active = rs("act", 3, "2024-01-01T12:00:00Z");
  const auto find = [](const ReplicaSetInfo* new_rs, ReplicaSetList old_rss) {
    return find_active_or_latest(new_rs, old_rss);
  };
  EXPECT_EQ(find(nullptr, {}), nullptr);
  EXPECT_EQ(find(fresh, {old1, old2}), fresh);
  EXPECT_EQ(find(nullptr, {old1, old2}), old2);  // the newest old
  EXPECT_EQ(find(fresh, {old1, active}), active);
  const ReplicaSetInfo* active2 = rs("act2", 1, "2024-01-04T00:00:00Z");
  EXPECT_EQ(find(active2, {active}), nullptr);
  // The caller's list comes back newest first, as upstream's does.
  ReplicaSetList old_rss = {old1, active, old2};
  find_active_or_latest(fresh, old_rss);
  EXPECT_EQ(names_of(old_rss), (std::vector<std::string>{"o2", "act", "o1"}));
}

TEST(ReplicaSets, NewReplicaSetForTemplate) {
  json::object compact{
      {"name", "web"},
      {"replicas", 4},
      {"minReadySeconds", 5},
      {"strategy",
       json::object{{"type", "RollingUpdate"}, {"maxSurge", "25%"}, {"maxUnavailable", "25%"}}},
      {"annotations", json::object{{"kubernetes.io/change-cause", "v2"}}},
      {"status", json::object{{"collisionCount", 1}}}};
  const json::object deployment = deployment_from_compact(compact);
  const DeploymentView d = view_of(deployment);
  ReplicaSets rss;
  const ReplicaSetInfo* old = rss.add_compact(
      json::object{{"name", "web-old"},
                   {"specReplicas", 3},
                   {"annotations", json::object{{"deployment.kubernetes.io/revision", "4"}}}});
  const std::string revision_text = new_revision({old});
  EXPECT_EQ(revision_text, "5");
  auto rs = new_replica_set(deployment, d, {old}, revision_text);
  ASSERT_TRUE(rs.ok()) << rs.error();
  const std::string hash = controller::compute_hash(template_of(deployment), 1);
  EXPECT_NE(hash, controller::compute_hash(template_of(deployment), std::nullopt));
  const json::object& meta = rs->at("metadata").as_object();
  EXPECT_EQ(meta.at("name").as_string(), "web-" + hash);
  EXPECT_EQ(meta.at("namespace").as_string(), "default");
  EXPECT_EQ(meta.at("labels"), (json::object{{"foo", "bar"}, {"pod-template-hash", hash}}));
  const json::object& ref = meta.at("ownerReferences").as_array()[0].as_object();
  EXPECT_EQ(ref.at("kind").as_string(), "Deployment");
  EXPECT_EQ(ref.at("apiVersion").as_string(), "apps/v1");
  EXPECT_EQ(ref.at("uid").as_string(), "uid-deployment");
  EXPECT_TRUE(ref.at("controller").as_bool());
  EXPECT_TRUE(ref.at("blockOwnerDeletion").as_bool());
  const json::object& spec = rs->at("spec").as_object();
  EXPECT_EQ(spec.at("replicas").as_int64(), 2);  // min(4 + 1 - 3, 4)
  EXPECT_EQ(spec.at("minReadySeconds").as_int64(), 5);
  EXPECT_EQ(spec.at("selector").at("matchLabels"),
            (json::object{{"foo", "bar"}, {"pod-template-hash", hash}}));
  EXPECT_EQ(spec.at("template").at("metadata").at("labels").at("pod-template-hash").as_string(),
            hash);
  EXPECT_TRUE(equal_ignore_hash(spec.at("template"), template_of(deployment)));
  EXPECT_EQ(annotations_of(*rs), (Annotations{{"deployment.kubernetes.io/desired-replicas", "4"},
                                              {"deployment.kubernetes.io/max-replicas", "5"},
                                              {"deployment.kubernetes.io/revision", "5"},
                                              {"kubernetes.io/change-cause", "v2"}}));
  // The Deployment's own template is untouched.
  EXPECT_FALSE(template_of(deployment)
                   .at("metadata")
                   .at("labels")
                   .as_object()
                   .contains("pod-template-hash"));
}

// TestSyncDeploymentCreatesReplicaSet's RS: maxSurge 0 but no pods yet, so
// the new RS starts at the full size; revision 1.
TEST(ReplicaSets, UpstreamSyncDeploymentCreatesReplicaSet) {
  const json::object file = load_upstream_cases("deployment_sync_scenarios.json");
  const json::value* scenario = nullptr;
  for (const json::value& c : cases_of(file)) {
    if (str(c.at("name")) == "TestSyncDeploymentCreatesReplicaSet") scenario = &c;
  }
  ASSERT_NE(scenario, nullptr);
  const json::object deployment =
      deployment_from_compact(scenario->at("input").at("deployment").as_object());
  const DeploymentView d = view_of(deployment);
  EXPECT_FALSE(d.progress_deadline_seconds.has_value());
  auto rs = new_replica_set(deployment, d, {}, new_revision({}));
  ASSERT_TRUE(rs.ok()) << rs.error();
  EXPECT_EQ(rs->at("spec").at("replicas").as_int64(), 1);
  EXPECT_EQ(annotations_of(*rs).at(std::string(kRevisionAnnotation)), "1");
  // The first status write carries the revision; no Progressing condition
  // without a deadline.
  json::object updated = deployment;
  EXPECT_TRUE(sync_deployment_with_created_replica_set(
      updated, d, "1", str(rs->at("metadata").at("name")), true, at("2026-01-01T00:00:00Z")));
  EXPECT_EQ(annotations_of(updated).at(std::string(kRevisionAnnotation)), "1");
  EXPECT_FALSE(updated.contains("status"));
}

TEST(ReplicaSets, RefreshExistingNewReplicaSet) {
  const json::object deployment = deployment_from_compact(
      json::object{{"replicas", 2},
                   {"minReadySeconds", 3},
                   {"annotations", json::object{{"kubernetes.io/change-cause", "v3"}}}});
  const DeploymentView d = view_of(deployment);
  json::object rs = replica_set_from_compact(json::object{
      {"name", "rs"}, {"annotations", json::object{{"deployment.kubernetes.io/revision", "1"}}}});
  auto written_first = refresh_new_replica_set(d, rs, "3");
  ASSERT_TRUE(written_first.has_value());
  EXPECT_TRUE(written_first->write);
  const json::object* refreshed = &written_first->rs;
  EXPECT_EQ(refreshed->at("spec").at("minReadySeconds").as_int64(), 3);
  EXPECT_EQ(annotations_of(*refreshed),
            (Annotations{{"deployment.kubernetes.io/revision", "3"},
                         {"deployment.kubernetes.io/revision-history", "1"},
                         {"kubernetes.io/change-cause", "v3"}}));
  // Up to date: nothing to do.
  EXPECT_FALSE(refresh_new_replica_set(d, *refreshed, "3").has_value());
  // Everything but the annotations and minReadySeconds is the ReplicaSet's own.
  json::object expected = rs;
  expected["metadata"].as_object()["annotations"] = refreshed->at("metadata").at("annotations");
  expected["spec"].as_object()["minReadySeconds"] = 3;
  EXPECT_EQ(*refreshed, expected);
  // Only minReadySeconds differs.
  json::object stale = *refreshed;
  stale["spec"].as_object()["minReadySeconds"] = 9;
  auto min_ready_only = refresh_new_replica_set(d, stale, "3");
  ASSERT_TRUE(min_ready_only.has_value());
  EXPECT_TRUE(min_ready_only->write);
  EXPECT_EQ(min_ready_only->rs, *refreshed);

  // A revision that is not a number: upstream gives up on the annotations
  // (no change counted), but when minReadySeconds is written the copied
  // annotations travel along, as in upstream's copy.
  json::object odd = replica_set_from_compact(json::object{
      {"name", "rs"}, {"annotations", json::object{{"deployment.kubernetes.io/revision", "x"}}}});
  auto written = refresh_new_replica_set(d, odd, "3");
  ASSERT_TRUE(written.has_value());
  EXPECT_TRUE(written->write);
  const Annotations copied = {{"deployment.kubernetes.io/revision", "x"},
                              {"kubernetes.io/change-cause", "v3"}};
  EXPECT_EQ(annotations_of(written->rs), copied);
  EXPECT_EQ(written->rs.at("spec").at("minReadySeconds").as_int64(), 3);
  // With minReadySeconds right, nothing is written, but upstream goes on
  // with its copy, the Deployment's annotations in it.
  odd["spec"].as_object()["minReadySeconds"] = 3;
  auto unwritten = refresh_new_replica_set(d, odd, "3");
  ASSERT_TRUE(unwritten.has_value());
  EXPECT_FALSE(unwritten->write);
  EXPECT_EQ(annotations_of(unwritten->rs), copied);
  EXPECT_EQ(unwritten->rs.at("spec").at("minReadySeconds").as_int64(), 3);
  // Once they are there, it is up to date.
  EXPECT_FALSE(refresh_new_replica_set(d, unwritten->rs, "3").has_value());
}

TEST(ReplicaSets, DeploymentBookkeepingForTheNewReplicaSet) {
  const api::Time now = at("2026-11-30T12:00:00Z");
  json::object deployment =
      deployment_from_compact(json::object{{"replicas", 1}, {"progressDeadlineSeconds", 600}});
  const DeploymentView d = view_of(deployment);
  ReplicaSets rss;
  const ReplicaSetInfo* rs = rss.add_compact(
      json::object{{"name", "web-abc"},
                   {"annotations", json::object{{"deployment.kubernetes.io/revision", "4"}}}});
  EXPECT_TRUE(sync_deployment_with_new_replica_set(deployment, d, *rs, now));
  EXPECT_EQ(annotations_of(deployment).at(std::string(kRevisionAnnotation)), "4");
  DeploymentStatus s = DeploymentStatus::from_json(deployment.if_contains("status"));
  const DeploymentCondition* p = get_deployment_condition(s, kProgressing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->reason, kFoundNewRSReason);
  EXPECT_EQ(p->message, "Found new replica set \"web-abc\"");
  // Synced: nothing more to write.
  EXPECT_FALSE(sync_deployment_with_new_replica_set(deployment, view_of(deployment), *rs, now));

  json::object created =
      deployment_from_compact(json::object{{"replicas", 1}, {"progressDeadlineSeconds", 600}});
  EXPECT_TRUE(
      sync_deployment_with_created_replica_set(created, view_of(created), "1", "web-x", true, now));
  s = DeploymentStatus::from_json(created.if_contains("status"));
  ASSERT_NE(get_deployment_condition(s, kProgressing), nullptr);
  EXPECT_EQ(get_deployment_condition(s, kProgressing)->message,
            "Created new replica set \"web-x\"");
  EXPECT_EQ(get_deployment_condition(s, kProgressing)->reason, kNewReplicaSetReason);
  // Found the RS we had created already: only the revision.
  json::object again = deployment_from_compact(json::object{{"replicas", 1}});
  EXPECT_TRUE(
      sync_deployment_with_created_replica_set(again, view_of(again), "2", "web-x", false, now));
  EXPECT_FALSE(again.contains("status"));

  json::object failing =
      deployment_from_compact(json::object{{"replicas", 1}, {"progressDeadlineSeconds", 600}});
  set_replica_set_create_error(failing, view_of(failing),
                               "Failed to create new replica set \"web-x\": quota", now);
  s = DeploymentStatus::from_json(failing.if_contains("status"));
  ASSERT_NE(get_deployment_condition(s, kProgressing), nullptr);
  EXPECT_EQ(get_deployment_condition(s, kProgressing)->status, "False");
  EXPECT_EQ(get_deployment_condition(s, kProgressing)->reason, kFailedRSCreateReason);
}

TEST(ReplicaSets, HashCollision) {
  const json::object deployment = deployment_from_compact(json::object{{"replicas", 1}});
  const DeploymentView d = view_of(deployment);
  json::object ours = replica_set_from_compact(json::object{{"name", "web-h"}});
  ours["spec"].as_object()["template"] = template_of(deployment);
  ours["metadata"].as_object()["ownerReferences"] =
      json::array{json::object{{"apiVersion", "apps/v1"},
                               {"kind", "Deployment"},
                               {"name", "foo"},
                               {"uid", "uid-deployment"},
                               {"controller", true}}};
  ReplicaSets rss;
  EXPECT_TRUE(is_own_replica_set(d, deployment, *rss.add(ours)));
  json::object other = ours;
  other["metadata"].as_object()["ownerReferences"].as_array()[0].as_object()["uid"] = "x";
  EXPECT_FALSE(is_own_replica_set(d, deployment, *rss.add(other)));
  json::object changed = ours;
  changed["spec"].as_object()["template"].as_object()["spec"].as_object()["containers"] =
      json::array{json::object{{"name", "foo"}, {"image", "httpd"}}};
  EXPECT_FALSE(is_own_replica_set(d, deployment, *rss.add(changed)));
  EXPECT_EQ(next_collision_count(std::nullopt), 1);
  EXPECT_EQ(next_collision_count(3), 4);
}

TEST(ReplicaSets, SetFromReplicaSetTemplateDropsTheHashLabel) {
  json::object deployment = deployment_from_compact(json::object{});
  json::value t = template_of(deployment);
  t.as_object()["metadata"].as_object()["labels"].as_object()["pod-template-hash"] = "abc";
  t.as_object()["metadata"].as_object()["labels"].as_object()["v"] = "1";
  set_from_replica_set_template(deployment, t);
  EXPECT_EQ(template_of(deployment).at("metadata").at("labels"),
            (json::object{{"foo", "bar"}, {"v", "1"}}));
}

}  // namespace
}  // namespace kcm::controllers::deployment
