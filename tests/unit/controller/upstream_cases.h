// Helpers for the table tests that load tests/data/upstream-cases/*.json
// (transcribed from upstream's Go unit tests; see that folder's README in
// shared/spec). Header-only: the controllers' suites include it too.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/time.h"
#include "controller/cached_pod.h"

namespace kcm::testing {

namespace json = api::json;

inline json::object load_upstream_cases(const std::string& file) {
  const std::string path = std::string(KCM_TEST_DATA_DIR) + "/upstream-cases/" + file;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream buf;
  buf << in.rdbuf();
  std::string error;
  auto v = api::parse_json(buf.str(), &error);
  EXPECT_TRUE(v.has_value()) << path << ": " << error;
  if (!v || !v->is_object()) return {};
  return v->as_object();
}

inline const json::array& cases_of(const json::object& file) {
  static const json::array kEmpty;
  const json::value* c = file.if_contains("cases");
  return c != nullptr && c->is_array() ? c->as_array() : kEmpty;
}

inline std::string str(const json::value& v) {
  return v.is_string() ? std::string(v.get_string()) : std::string();
}

// An RFC 3339 string, or the zero time for null / absent / Go's zero time.
inline api::Time time_of(const json::value* v) {
  if (v == nullptr || v->is_null()) return {};
  auto t = api::Time::parse(str(*v));
  EXPECT_TRUE(t.ok()) << json::serialize(*v);
  return t.ok() ? *t : api::Time{};
}

// The compact pod of the case files as a real Pod object:
// {"name","namespace","nodeName","phase","ready","readySince","created",
//  "restarts":[...],"annotations","uid","labels"}.
inline json::object pod_from_compact(const json::object& c) {
  json::object meta;
  meta["name"] = c.contains("name") ? c.at("name") : json::value("");
  meta["namespace"] = c.contains("namespace") ? c.at("namespace") : json::value("default");
  if (c.contains("uid")) meta["uid"] = c.at("uid");
  if (const json::value* created = c.if_contains("created"); created && !created->is_null()) {
    meta["creationTimestamp"] = *created;
  }
  if (const json::value* a = c.if_contains("annotations"); a && a->is_object()) {
    meta["annotations"] = *a;
  }
  if (const json::value* l = c.if_contains("labels"); l && l->is_object()) meta["labels"] = *l;
  json::object spec;
  if (const json::value* n = c.if_contains("nodeName"); n && n->is_string()) {
    spec["nodeName"] = *n;
  }
  json::object status;
  if (const json::value* p = c.if_contains("phase"); p && p->is_string()) status["phase"] = *p;
  if (const json::value* r = c.if_contains("ready"); r && r->is_bool() && r->get_bool()) {
    json::object cond;
    cond["type"] = "Ready";
    cond["status"] = "True";
    const json::value* since = c.if_contains("readySince");
    cond["lastTransitionTime"] = since != nullptr ? *since : json::value(nullptr);
    status["conditions"] = json::array{std::move(cond)};
  }
  if (const json::value* r = c.if_contains("restarts"); r && r->is_array()) {
    json::array statuses;
    int i = 0;
    for (const json::value& n : r->as_array()) {
      json::object s;
      s["name"] = "c" + std::to_string(i++);
      s["restartCount"] = n;
      statuses.emplace_back(std::move(s));
    }
    status["containerStatuses"] = std::move(statuses);
  }
  json::object pod;
  pod["apiVersion"] = "v1";
  pod["kind"] = "Pod";
  pod["metadata"] = std::move(meta);
  pod["spec"] = std::move(spec);
  pod["status"] = std::move(status);
  return pod;
}

inline std::string pod_name(const json::object* pod) {
  return str(pod->at("metadata").as_object().at("name"));
}

// A pod as an informer that keeps pod summaries caches it.
inline controller::CachedPod cached_pod(const json::object& pod) {
  return controller::CachedPod::from_json(json::value(pod)).value();
}

// The pod `text` (a JSON object) as the controllers' caches hold it.
inline controller::CachedPod parse_cached_pod(std::string_view text) {
  return cached_pod(json::parse(text).as_object());
}

inline std::vector<controller::CachedPod> cached_pods(const std::vector<json::object>& pods) {
  std::vector<controller::CachedPod> out;
  for (const json::object& p : pods)
    out.push_back(cached_pod(p));
  return out;
}

inline std::string pod_name(const controller::CachedPod* pod) {
  return std::string(pod->object().name());
}

}  // namespace kcm::testing
