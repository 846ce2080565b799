#include "local/fieldmanager/scale_fields.h"

#include <algorithm>

namespace kcm::local::fieldmanager {

namespace {

const Path& replicas_in_scale() {
  static const Path path{PathElement::field("spec"), PathElement::field("replicas")};
  return path;
}

FieldSet only(const Path& path) {
  FieldSet set;
  set.insert(path);
  return set;
}

}  // namespace

std::vector<ManagerEntry> scale_entries(const std::vector<ManagerEntry>& parent,
                                        const ReplicasPaths& paths) {
  std::vector<ManagerEntry> out;
  for (const ManagerEntry& p : parent) {
    const auto path = paths.find(p.api_version);
    if (path == paths.end() || !path->second) continue;
    ManagerEntry e = p;
    load_fields(e);
    if (!e.fields.has(*path->second)) continue;
    e.api_version = std::string(kScaleApiVersion);
    e.fields = only(replicas_in_scale());
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<ManagerEntry> parent_entries(const std::vector<ManagerEntry>& parent,
                                         const std::vector<ManagerEntry>& scale,
                                         std::string_view api_version, const ReplicasPaths& paths) {
  std::vector<ManagerEntry> out;
  std::vector<bool> kept_by_parent(scale.size(), false);
  for (const ManagerEntry& p : parent) {
    const auto path = paths.find(p.api_version);
    if (path == paths.end()) continue;
    ManagerEntry e = p;
    load_fields(e);
    if (!path->second || !e.fields.has(*path->second)) {
      out.push_back(std::move(e));
      continue;
    }
    const auto same = std::find_if(scale.begin(), scale.end(),
                                   [&](const ManagerEntry& s) { return s.same_manager(e); });
    if (same != scale.end()) {
      kept_by_parent[static_cast<std::size_t>(same - scale.begin())] = true;
      out.push_back(std::move(e));
      continue;
    }
    e.fields = e.fields.difference(only(*path->second));
    if (!e.fields.empty()) out.push_back(std::move(e));
  }
  const auto target = paths.find(api_version);
  if (target == paths.end() || !target->second) return out;
  for (std::size_t i = 0; i < scale.size(); ++i) {
    if (kept_by_parent[i]) continue;
    ManagerEntry s = scale[i];
    load_fields(s);
    if (!s.fields.has(replicas_in_scale())) continue;
    // The time of the parent entry with the Scale entry's identity.
    std::optional<std::string> time;
    for (const ManagerEntry& p : parent) {
      if (p.same_manager(s)) time = p.time;
    }
    s.api_version = std::string(api_version);
    s.time = std::move(time);
    s.fields = only(*target->second);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace kcm::local::fieldmanager
