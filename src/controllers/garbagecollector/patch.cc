#include "controllers/garbagecollector/patch.h"

#include <algorithm>

namespace kcm::controllers::garbagecollector {

namespace json = api::json;

namespace {

json::array owner_refs(const json::value& obj) {
  if (const json::value* v = api::find_path(obj, {"metadata", "ownerReferences"});
      v && v->is_array()) {
    return v->get_array();
  }
  return {};
}

// {"metadata":{"resourceVersion":<rv>, key: list or null}}: an empty list is
// null, which removes the field (as upstream's nil slice).
std::string metadata_patch(const json::value& latest, std::string_view key, json::array list) {
  json::object meta;
  meta["resourceVersion"] =
      std::string(api::as_string_view(api::find_path(latest, {"metadata", "resourceVersion"})));
  if (list.empty()) {
    meta[key] = nullptr;
  } else {
    meta[key] = std::move(list);
  }
  json::object patch;
  patch["metadata"] = std::move(meta);
  return json::serialize(patch);
}

}  // namespace

std::string delete_owner_refs_patch(const json::value& latest,
                                    const std::vector<std::string>& owner_uids) {
  json::array kept;
  for (json::value& ref : owner_refs(latest)) {
    const std::string_view uid =
        ref.is_object() ? api::find_string(ref.get_object(), "uid").value_or("") : "";
    if (std::find(owner_uids.begin(), owner_uids.end(), uid) == owner_uids.end())
      kept.push_back(std::move(ref));
  }
  return metadata_patch(latest, "ownerReferences", std::move(kept));
}

std::string unblock_owner_refs_patch(const json::value& latest) {
  json::array refs = owner_refs(latest);
  for (json::value& ref : refs) {
    if (!ref.is_object()) continue;
    json::object& o = ref.get_object();
    if (api::find_bool(o, "blockOwnerDeletion").value_or(false)) o["blockOwnerDeletion"] = false;
  }
  return metadata_patch(latest, "ownerReferences", std::move(refs));
}

std::string remove_finalizer_patch(const json::value& latest, std::string_view finalizer) {
  json::array kept;
  if (const json::value* f = api::find_path(latest, {"metadata", "finalizers"});
      f && f->is_array()) {
    for (const json::value& v : f->get_array()) {
      if (!(v.is_string() && v.get_string() == finalizer)) kept.push_back(v);
    }
  }
  return metadata_patch(latest, "finalizers", std::move(kept));
}

}  // namespace kcm::controllers::garbagecollector
