#include "controllers/deployment/annotations.h"

#include <gtest/gtest.h>

#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

Annotations annotations_from(const json::value& v) {
  Annotations out;
  if (!v.is_object()) return out;
  for (const auto& kv : v.as_object())
    out.emplace(kv.key(), str(kv.value()));
  return out;
}

std::string annotation(const json::object& obj, std::string_view key) {
  const Annotations a = annotations_of(obj);
  const auto it = a.find(key);
  return it != a.end() ? it->second : "<absent>";
}

// TestGetNonNegativeInt32FromAnnotation.
TEST(Annotations, UpstreamNonNegativeInt32Annotation) {
  const json::object file = load_upstream_cases("non_negative_int32_annotation.json");
  ASSERT_EQ(cases_of(file).size(), 8u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const json::object& want = c.at("expected").as_object();
    auto got =
        non_negative_int32_annotation(annotations_from(in.at("annotations")), str(in.at("key")));
    if (want.at("errorContains").is_null()) {
      ASSERT_TRUE(got.ok()) << name;
      EXPECT_EQ(got->has_value(), want.at("valid").as_bool()) << name;
      EXPECT_EQ(got->value_or(0), want.at("value").as_int64()) << name;
    } else {
      ASSERT_FALSE(got.ok()) << name;
      EXPECT_NE(got.error().find(str(want.at("errorContains"))), std::string::npos)
          << name << ": " << got.error();
    }
  }
}

TEST(Annotations, NonNegativeInt32Messages) {
  const auto err = [](const char* v) {
    auto r = non_negative_int32_annotation(Annotations{{"k", v}}, "k");
    return r.ok() ? std::string("ok") : r.error();
  };
  EXPECT_EQ(err("-1"), "strconv.ParseUint: parsing \"-1\": invalid syntax");
  EXPECT_EQ(err("+1"), "strconv.ParseUint: parsing \"+1\": invalid syntax");
  EXPECT_EQ(err(""), "strconv.ParseUint: parsing \"\": invalid syntax");
  EXPECT_EQ(err("2147483648"), "value 2147483648 is out of range (higher than 2147483647)");
  EXPECT_EQ(err("4294967296"), "strconv.ParseUint: parsing \"4294967296\": value out of range");
  EXPECT_EQ(err("99999999999999999999x"),
            "strconv.ParseUint: parsing \"99999999999999999999x\": invalid syntax");
  EXPECT_EQ(err("007"), "ok");
}

// TestReplicasAnnotationsNeedUpdate.
TEST(Annotations, UpstreamReplicasAnnotationsNeedUpdate) {
  const json::object file = load_upstream_cases("replicas_annotations_need_update.json");
  ASSERT_EQ(cases_of(file).size(), 4u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    EXPECT_EQ(replicas_annotations_need_update(
                  annotations_from(in.at("annotations")),
                  static_cast<std::int32_t>(in.at("desiredReplicas").as_int64()),
                  static_cast<std::int32_t>(in.at("maxReplicas").as_int64())),
              c.at("expected").at("needsUpdate").as_bool())
        << name;
  }
}

// TestAnnotationUtils: revision history with a 5-character limit, then
// SetReplicasAnnotations.
TEST(Annotations, UpstreamAnnotationUtils) {
  const json::object file = load_upstream_cases("annotation_utils.json");
  ASSERT_EQ(cases_of(file).size(), 2u);
  const json::object& history = cases_of(file)[0].at("input").as_object();
  json::object d_compact{
      {"replicas", 1},
      {"strategy", json::object{{"type", "RollingUpdate"}, {"maxSurge", 1}, {"maxUnavailable", 0}}},
      {"annotations", history.at("deploymentAnnotations")}};
  const DeploymentView d = deployment_view(d_compact);
  json::object rs = replica_set_from_compact(json::object{{"name", "rs"}});
  const auto limit = static_cast<std::size_t>(history.at("revHistoryLimitInChars").as_int64());
  int step = 0;
  for (const json::value& s : history.at("steps").as_array()) {
    ++step;
    const std::string revision_text = str(s.at("newRevision"));
    EXPECT_TRUE(set_new_replica_set_annotations(d, rs, revision_text, true, limit)) << step;
    const json::object& after = s.at("expectedAfter").as_object();
    EXPECT_EQ(annotation(rs, kRevisionAnnotation), str(after.at("revision"))) << step;
    if (const json::value* h = after.if_contains("revisionHistory")) {
      EXPECT_EQ(annotation(rs, kRevisionHistoryAnnotation), str(*h)) << step;
    }
    // The Deployment's own revision is never copied.
    EXPECT_NE(annotation(rs, kRevisionAnnotation), "1");
  }

  const json::object& replicas_case = cases_of(file)[1].as_object();
  const json::object& in = replicas_case.at("input").at("setReplicasAnnotations").as_object();
  json::object rs2 = replica_set_from_compact(json::object{{"name", "rs2"}});
  EXPECT_EQ(set_replicas_annotations(rs2, static_cast<std::int32_t>(in.at("desired").as_int64()),
                                     static_cast<std::int32_t>(in.at("max").as_int64())),
            replicas_case.at("expected").at("updated").as_bool());
  for (const auto& kv : replicas_case.at("expected").at("annotations").as_object()) {
    EXPECT_EQ(annotation(rs2, kv.key()), str(kv.value())) << kv.key();
  }
  EXPECT_FALSE(set_replicas_annotations(rs2, 10, 11));  // unchanged now
}

TEST(Annotations, NewReplicaSetAnnotationsOnCreation) {
  json::object d_compact{
      {"replicas", 4},
      {"strategy",
       json::object{{"type", "RollingUpdate"}, {"maxSurge", "25%"}, {"maxUnavailable", "25%"}}},
      {"annotations", json::object{{"kubernetes.io/change-cause", "v2"},
                                   {"kubectl.kubernetes.io/last-applied-configuration", "{}"},
                                   {"deployment.kubernetes.io/revision", "7"},
                                   {"deprecated.deployment.rollback.to", "3"},
                                   {"empty", ""}}}};
  const DeploymentView d = deployment_view(d_compact);
  json::object rs = replica_set_from_compact(json::object{{"name", "rs"}});
  EXPECT_TRUE(set_new_replica_set_annotations(d, rs, "3", false));
  EXPECT_EQ(annotation(rs, kRevisionAnnotation), "3");
  EXPECT_EQ(annotation(rs, kRevisionHistoryAnnotation), "<absent>");
  EXPECT_EQ(annotation(rs, kDesiredReplicasAnnotation), "4");
  EXPECT_EQ(annotation(rs, kMaxReplicasAnnotation), "5");
  EXPECT_EQ(annotation(rs, kChangeCauseAnnotation), "v2");
  EXPECT_EQ(annotation(rs, "empty"), "");  // key presence counts (newer upstream)
  EXPECT_EQ(annotation(rs, kLastAppliedConfigAnnotation), "<absent>");
  EXPECT_EQ(annotation(rs, kDeprecatedRollbackTo), "<absent>");
  // Nothing left to change.
  EXPECT_FALSE(set_new_replica_set_annotations(d, rs, "3", false));
  // A lower revision is not applied; an unparseable one changes nothing.
  EXPECT_FALSE(set_new_replica_set_annotations(d, rs, "2", true));
  EXPECT_EQ(annotation(rs, kRevisionAnnotation), "3");
  EXPECT_FALSE(set_new_replica_set_annotations(d, rs, "x", true));
  ensure_annotations(rs)[kRevisionAnnotation] = "bad";
  EXPECT_FALSE(set_new_replica_set_annotations(d, rs, "9", true));
  EXPECT_EQ(annotation(rs, kRevisionAnnotation), "bad");
}

TEST(Annotations, RevisionHistoryThatCannotFit) {
  const DeploymentView d = deployment_view(json::object{{"replicas", 1}});
  json::object rs = replica_set_from_compact(json::object{
      {"name", "rs"},
      {"annotations", json::object{{"deployment.kubernetes.io/revision", "123456"},
                                   {"deployment.kubernetes.io/revision-history", "1,2"}}}});
  // "123456" (6) + 1 does not fit in 5 even with an empty history: left as is.
  EXPECT_TRUE(set_new_replica_set_annotations(d, rs, "123457", true, 5));
  EXPECT_EQ(annotation(rs, kRevisionAnnotation), "123457");
  EXPECT_EQ(annotation(rs, kRevisionHistoryAnnotation), "1,2");
}

TEST(Annotations, RevisionParsing) {
  EXPECT_EQ(*revision(Annotations{}), 0);
  EXPECT_EQ(*revision(Annotations{{std::string(kRevisionAnnotation), "12"}}), 12);
  auto bad = revision(Annotations{{std::string(kRevisionAnnotation), "1x"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "strconv.ParseInt: parsing \"1x\": invalid syntax");
}

TEST(Annotations, MaxAndLastRevision) {
  ReplicaSets rss;
  const auto rs = [&](const char* name, const char* rev) {
    json::object c{{"name", name}};
    if (rev != nullptr) c["annotations"] = json::object{{"deployment.kubernetes.io/revision", rev}};
    return rss.add_compact(c);
  };
  const ReplicaSetList list = {rs("a", "3"),     rs("b", "x"), rs("c", "5"),
                               rs("d", nullptr), rs("e", "4"), nullptr};
  EXPECT_EQ(max_revision(list), 5);
  EXPECT_EQ(last_revision(list), 4);
  // Equal maxima: the tie counts as the second highest too (upstream's >=).
  EXPECT_EQ(last_revision({rs("f", "5"), rs("g", "5")}), 5);
  EXPECT_EQ(last_revision({rs("h", "2")}), 0);
}

TEST(Annotations, SetDeploymentRevision) {
  json::object d = deployment_from_compact(json::object{});
  EXPECT_FALSE(set_deployment_revision(d, ""));  // absent reads as ""
  EXPECT_TRUE(set_deployment_revision(d, "2"));
  EXPECT_FALSE(set_deployment_revision(d, "2"));
  EXPECT_EQ(annotation(d, kRevisionAnnotation), "2");
}

TEST(Annotations, SetDeploymentAnnotationsToForRollback) {
  json::object d = deployment_from_compact(json::object{
      {"annotations", json::object{{"deployment.kubernetes.io/revision", "5"},
                                   {"kubectl.kubernetes.io/last-applied-configuration", "{}"},
                                   {"kubernetes.io/change-cause", "v5"},
                                   {"team", "a"}}}});
  set_deployment_annotations_to(d, Annotations{{"kubernetes.io/change-cause", "v2"},
                                               {std::string(kRevisionAnnotation), "2"},
                                               {std::string(kDesiredReplicasAnnotation), "3"}});
  EXPECT_EQ(annotations_of(d),
            (Annotations{{"deployment.kubernetes.io/revision", "5"},
                         {"kubectl.kubernetes.io/last-applied-configuration", "{}"},
                         {"kubernetes.io/change-cause", "v2"}}));
}

TEST(Annotations, SkipSet) {
  for (std::string_view k :
       {kLastAppliedConfigAnnotation, kRevisionAnnotation, kRevisionHistoryAnnotation,
        kDesiredReplicasAnnotation, kMaxReplicasAnnotation, kDeprecatedRollbackTo}) {
    EXPECT_TRUE(skip_copy_annotation(k)) << k;
  }
  EXPECT_FALSE(skip_copy_annotation(kChangeCauseAnnotation));
}

}  // namespace
}  // namespace kcm::controllers::deployment
