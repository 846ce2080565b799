#include "local/apiserver/discovery.h"

#include <algorithm>
#include <vector>

namespace kcm::local::apiserver {
namespace {

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v)
    a.emplace_back(s);
  return a;
}

json::object gvk_json(const api::GroupVersionKind& gvk) {
  return {{"group", gvk.group}, {"version", gvk.version}, {"kind", gvk.kind}};
}

// Named groups in the order they are listed (upstream lists by priority).
std::vector<std::string> named_groups(const registry::ResourceTable& table) {
  std::vector<std::string> groups;
  for (const auto& r : table.all()) {
    if (!r->gvr.group.empty() &&
        std::find(groups.begin(), groups.end(), r->gvr.group) == groups.end()) {
      groups.push_back(r->gvr.group);
    }
  }
  return groups;
}

std::vector<std::string> versions_of(const registry::ResourceTable& table, std::string_view group) {
  std::vector<std::string> versions;
  for (const auto& r : table.all()) {
    if (r->gvr.group == group &&
        std::find(versions.begin(), versions.end(), r->gvr.version) == versions.end()) {
      versions.push_back(r->gvr.version);
    }
  }
  return versions;
}

json::object aggregated_resource(const registry::ResourceInfo& r) {
  json::object o;
  o["resource"] = r.gvr.resource;
  o["responseKind"] = gvk_json(r.gvk());
  o["scope"] = r.namespaced ? "Namespaced" : "Cluster";
  o["singularResource"] = r.singular;
  o["verbs"] = strings(r.verbs);
  if (!r.short_names.empty()) o["shortNames"] = strings(r.short_names);
  if (!r.categories.empty()) o["categories"] = strings(r.categories);
  if (!r.subresources.empty()) {
    json::array subs;
    for (const auto& s : r.subresources) {
      subs.push_back(json::object{{"subresource", s.name},
                                  {"responseKind", gvk_json(s.response_kind)},
                                  {"verbs", strings(s.verbs)}});
    }
    o["subresources"] = std::move(subs);
  }
  return o;
}

}  // namespace

json::value aggregated_discovery(const registry::ResourceTable& table, bool core,
                                 std::string_view api_version) {
  json::array items;
  std::vector<std::string> groups = core ? std::vector<std::string>{""} : named_groups(table);
  for (const auto& group : groups) {
    json::array versions;
    for (const auto& version : versions_of(table, group)) {
      json::array resources;
      for (const auto& r : table.all()) {
        if (r->gvr.group == group && r->gvr.version == version) {
          resources.push_back(aggregated_resource(*r));
        }
      }
      versions.push_back(json::object{
          {"version", version}, {"resources", std::move(resources)}, {"freshness", "Current"}});
    }
    json::object metadata{{"creationTimestamp", nullptr}};
    if (!group.empty()) metadata["name"] = group;
    items.push_back(
        json::object{{"metadata", std::move(metadata)}, {"versions", std::move(versions)}});
  }
  return json::object{{"kind", "APIGroupDiscoveryList"},
                      {"apiVersion", api_version},
                      {"metadata", json::object()},
                      {"items", std::move(items)}};
}

json::value api_versions(std::string_view server_address) {
  return json::object{
      {"kind", "APIVersions"},
      {"versions", json::array{"v1"}},
      {"serverAddressByClientCIDRs",
       json::array{json::object{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}};
}

json::value api_group(const registry::ResourceTable& table, std::string_view group) {
  const auto versions = versions_of(table, group);
  if (versions.empty()) return nullptr;
  json::array vs;
  for (const auto& v : versions) {
    vs.push_back(json::object{{"groupVersion", std::string(group) + "/" + v}, {"version", v}});
  }
  json::value preferred = vs.front();
  return json::object{{"kind", "APIGroup"},
                      {"apiVersion", "v1"},
                      {"name", group},
                      {"versions", std::move(vs)},
                      {"preferredVersion", std::move(preferred)}};
}

json::value api_group_list(const registry::ResourceTable& table) {
  json::array groups;
  for (const auto& g : named_groups(table)) {
    json::object group = api_group(table, g).as_object();
    group.erase("kind");
    group.erase("apiVersion");
    groups.push_back(std::move(group));
  }
  return json::object{
      {"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", std::move(groups)}};
}

json::value api_resource_list(const registry::ResourceTable& table, std::string_view group,
                              std::string_view version) {
  json::array resources;
  bool served = false;
  for (const auto& r : table.all()) {
    if (r->gvr.group != group || r->gvr.version != version) continue;
    served = true;
    json::object o;
    o["name"] = r->gvr.resource;
    o["singularName"] = r->singular;
    o["namespaced"] = r->namespaced;
    o["kind"] = r->kind;
    o["verbs"] = strings(r->verbs);
    if (!r->short_names.empty()) o["shortNames"] = strings(r->short_names);
    if (!r->categories.empty()) o["categories"] = strings(r->categories);
    resources.push_back(std::move(o));
    for (const auto& s : r->subresources) {
      json::object so;
      so["name"] = r->gvr.resource + "/" + s.name;
      so["singularName"] = "";
      so["namespaced"] = r->namespaced;
      if (s.response_kind.group != group || s.response_kind.version != version) {
        so["group"] = s.response_kind.group;
        so["version"] = s.response_kind.version;
      }
      so["kind"] = s.response_kind.kind;
      so["verbs"] = strings(s.verbs);
      resources.push_back(std::move(so));
    }
  }
  if (!served) return nullptr;
  const std::string gv =
      group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  return json::object{{"kind", "APIResourceList"},
                      {"apiVersion", "v1"},
                      {"groupVersion", gv},
                      {"resources", std::move(resources)}};
}

std::string aggregated_discovery_version(std::string_view accept) {
  // Accept lists media types by preference; take the first aggregated one
  // we serve. Parameter order inside a media type does not matter.
  std::size_t start = 0;
  while (start <= accept.size()) {
    std::size_t end = accept.find(',', start);
    if (end == std::string_view::npos) end = accept.size();
    const std::string_view media = accept.substr(start, end - start);
    const bool is_discovery = media.find("as=APIGroupDiscoveryList") != std::string_view::npos &&
                              media.find("g=apidiscovery.k8s.io") != std::string_view::npos;
    if (is_discovery) {
      if (media.find("v=v2beta1") != std::string_view::npos) return "v2beta1";
      if (media.find("v=v2") != std::string_view::npos) return "v2";
    }
    start = end + 1;
  }
  return "";
}

}  // namespace kcm::local::apiserver
