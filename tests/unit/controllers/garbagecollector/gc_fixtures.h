// Objects and events for the garbage collector's unit tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/json.h"
#include "controllers/garbagecollector/graph_builder.h"

namespace kcm::controllers::garbagecollector::fixtures {

struct Ref {
  std::string api_version = "v1";
  std::string kind = "ConfigMap";
  std::string name;
  std::string uid;
  std::optional<bool> block;
};

struct Obj {
  std::string api_version = "v1";
  std::string kind = "ConfigMap";
  std::string ns = "default";
  std::string name;
  std::string uid;
  std::vector<Ref> owners;
  std::vector<std::string> finalizers;
  bool deleting = false;
  std::string resource_version = "1";
};

inline api::json::value to_json(const Obj& o) {
  api::json::object meta;
  if (!o.ns.empty()) meta["namespace"] = o.ns;
  meta["name"] = o.name;
  meta["uid"] = o.uid;
  meta["resourceVersion"] = o.resource_version;
  if (!o.owners.empty()) {
    api::json::array refs;
    for (const Ref& r : o.owners) {
      api::json::object ref{
          {"apiVersion", r.api_version}, {"kind", r.kind}, {"name", r.name}, {"uid", r.uid}};
      if (r.block) ref["blockOwnerDeletion"] = *r.block;
      refs.push_back(std::move(ref));
    }
    meta["ownerReferences"] = std::move(refs);
  }
  if (!o.finalizers.empty()) {
    api::json::array f;
    for (const auto& s : o.finalizers)
      f.push_back(api::json::string(s));
    meta["finalizers"] = std::move(f);
  }
  if (o.deleting) meta["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  return api::json::object{{"apiVersion", o.api_version}, {"kind", o.kind}, {"metadata", meta}};
}

inline Event event_of(EventType type, const Obj& o, std::optional<Obj> old = std::nullopt) {
  Event e;
  e.type = type;
  e.api_version = o.api_version;
  e.kind = o.kind;
  e.object = object_meta_of(to_json(o));
  if (old) e.old_object = object_meta_of(to_json(*old));
  return e;
}

inline Event add(const Obj& o) {
  return event_of(EventType::kAdd, o);
}
inline Event update(const Obj& old, const Obj& now) {
  return event_of(EventType::kUpdate, now, old);
}
inline Event remove(const Obj& o) {
  return event_of(EventType::kDelete, o);
}

}  // namespace kcm::controllers::garbagecollector::fixtures
