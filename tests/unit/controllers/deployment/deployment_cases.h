// Converters from the compact Deployment / ReplicaSet encodings of the
// upstream case files (see shared/spec/upstream-cases/README.md) to real
// apps/v1 objects and the controller's views. Header-only, for this suite.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>

#include "../../controller/upstream_cases.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment::testing {

using kcm::testing::cases_of;
using kcm::testing::load_upstream_cases;
using kcm::testing::str;

inline api::Time at(std::string_view s) {
  auto t = api::Time::parse(s);
  EXPECT_TRUE(t.ok()) << s;
  return t.ok() ? *t : api::Time{};
}

inline const json::value* member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && !v->is_null() ? v : nullptr;
}

inline std::int64_t int_of(const json::object& o, std::string_view key, std::int64_t def = 0) {
  const json::value* v = member(o, key);
  return v != nullptr ? v->to_number<std::int64_t>() : def;
}

// The compact Deployment as an apps/v1 Deployment. A missing "replicas" is
// Go's zero (0); null leaves spec.replicas unset.
inline json::object deployment_from_compact(const json::object& c) {
  json::object meta;
  meta["name"] = c.contains("name") ? c.at("name") : json::value("foo");
  meta["namespace"] = "default";
  meta["uid"] = "uid-deployment";
  if (const json::value* g = member(c, "generation")) meta["generation"] = *g;
  if (const json::value* a = member(c, "annotations")) meta["annotations"] = *a;
  json::object spec;
  if (!c.contains("replicas")) {
    spec["replicas"] = 0;
  } else if (const json::value* r = member(c, "replicas")) {
    spec["replicas"] = *r;
  }
  json::object selector;
  selector["matchLabels"] = json::object{{"foo", "bar"}};
  spec["selector"] = std::move(selector);
  if (const json::value* s = member(c, "strategy")) {
    const json::object& so = s->as_object();
    json::object strategy;
    strategy["type"] = so.contains("type") ? so.at("type") : json::value("");
    if (so.contains("maxSurge") || so.contains("maxUnavailable")) {
      json::object ru;
      if (const json::value* v = member(so, "maxSurge")) ru["maxSurge"] = *v;
      if (const json::value* v = member(so, "maxUnavailable")) ru["maxUnavailable"] = *v;
      strategy["rollingUpdate"] = std::move(ru);
    }
    spec["strategy"] = std::move(strategy);
  }
  for (const char* key :
       {"minReadySeconds", "progressDeadlineSeconds", "revisionHistoryLimit", "paused"}) {
    if (const json::value* v = member(c, key)) spec[key] = *v;
  }
  json::object tmpl;
  tmpl["metadata"] = json::object{{"labels", json::object{{"foo", "bar"}}}};
  tmpl["spec"] =
      json::object{{"containers", json::array{json::object{{"name", "foo"}, {"image", "nginx"}}}}};
  spec["template"] = std::move(tmpl);
  json::object d;
  d["apiVersion"] = "apps/v1";
  d["kind"] = "Deployment";
  d["metadata"] = std::move(meta);
  d["spec"] = std::move(spec);
  if (const json::value* s = member(c, "status")) d["status"] = *s;
  return d;
}

inline DeploymentView view_of(const json::object& deployment) {
  auto v = DeploymentView::from_json(deployment);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error());
  return v.ok() ? *v : DeploymentView{};
}

inline DeploymentView deployment_view(const json::object& compact) {
  return view_of(deployment_from_compact(compact));
}

// The compact ReplicaSet as an apps/v1 ReplicaSet (uid defaults to
// "uid-<name>", spec.replicas to 0).
inline json::object replica_set_from_compact(const json::object& c) {
  json::object meta;
  const std::string name = c.contains("name") ? str(c.at("name")) : "rs";
  meta["name"] = name;
  meta["namespace"] = "default";
  meta["uid"] = c.contains("uid") ? c.at("uid") : json::value("uid-" + name);
  if (const json::value* t = member(c, "created")) meta["creationTimestamp"] = *t;
  if (const json::value* a = member(c, "annotations")) meta["annotations"] = *a;
  if (const json::value* g = member(c, "generation")) meta["generation"] = *g;
  if (const json::value* t = member(c, "deletionTimestamp")) meta["deletionTimestamp"] = *t;
  json::object spec;
  spec["replicas"] = int_of(c, "specReplicas");
  json::object rs;
  rs["apiVersion"] = "apps/v1";
  rs["kind"] = "ReplicaSet";
  rs["metadata"] = std::move(meta);
  rs["spec"] = std::move(spec);
  if (const json::value* s = member(c, "status")) rs["status"] = *s;
  return rs;
}

// Owns the RS objects and their views; views point into it, so it never moves.
class ReplicaSets {
 public:
  const ReplicaSetInfo* add(json::object rs) {
    objects_.push_back(std::move(rs));
    infos_.push_back(ReplicaSetInfo::from_json(objects_.back()));
    by_name_[infos_.back().name] = &infos_.back();
    return &infos_.back();
  }
  const ReplicaSetInfo* add_compact(const json::value& c) {
    if (c.is_null()) return nullptr;
    return add(replica_set_from_compact(c.as_object()));
  }
  ReplicaSetList add_all(const json::value* list) {
    ReplicaSetList out;
    if (list == nullptr || !list->is_array()) return out;
    for (const json::value& c : list->as_array())
      out.push_back(add_compact(c));
    return out;
  }
  const ReplicaSetInfo* named(const std::string& name) const {
    const auto it = by_name_.find(name);
    return it != by_name_.end() ? it->second : nullptr;
  }

 private:
  std::deque<json::object> objects_;
  std::deque<ReplicaSetInfo> infos_;
  std::map<std::string, const ReplicaSetInfo*> by_name_;
};

inline std::vector<std::string> names_of(const ReplicaSetList& list) {
  std::vector<std::string> out;
  for (const ReplicaSetInfo* rs : list)
    out.push_back(rs != nullptr ? rs->name : "<null>");
  return out;
}

inline std::vector<std::string> strings_of(const json::value& v) {
  std::vector<std::string> out;
  for (const json::value& s : v.as_array())
    out.push_back(str(s));
  return out;
}

}  // namespace kcm::controllers::deployment::testing
