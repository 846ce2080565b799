#include "client/discovery.h"

#include <algorithm>
#include <set>
#include <utility>

namespace kcm::client {
namespace json = boost::json;
namespace {

const json::object* as_object(const json::value* v) {
  return v != nullptr && v->is_object() ? &v->as_object() : nullptr;
}

Result<std::string> string_field(const json::object& o, std::string_view field,
                                 std::string_view where) {
  const json::value* v = o.if_contains(field);
  if (v == nullptr || !v->is_string()) {
    return fail(std::string(where) + ": " + std::string(field) + " must be a string");
  }
  return std::string(v->as_string());
}

Result<const json::array*> array_field(const json::object& o, std::string_view field,
                                       std::string_view where, bool required) {
  const json::value* v = o.if_contains(field);
  if (v == nullptr || v->is_null()) {
    if (required) return fail(std::string(where) + ": " + std::string(field) + " is missing");
    return static_cast<const json::array*>(nullptr);
  }
  if (!v->is_array())
    return fail(std::string(where) + ": " + std::string(field) + " must be a list");
  return &v->as_array();
}

}  // namespace

bool ApiResource::supports_all(const std::vector<std::string_view>& wanted) const {
  return std::all_of(wanted.begin(), wanted.end(), [this](std::string_view verb) {
    return std::find(verbs.begin(), verbs.end(), verb) != verbs.end();
  });
}

Result<std::vector<std::string>> parse_api_versions(const json::value& doc) {
  const json::object* o = as_object(&doc);
  if (o == nullptr) return fail("APIVersions: not a JSON object");
  auto versions = array_field(*o, "versions", "APIVersions", true);
  if (!versions.ok()) return fail(versions.error());
  std::vector<std::string> out;
  for (const json::value& v : **versions) {
    if (!v.is_string()) return fail("APIVersions: versions must be strings");
    out.emplace_back(v.as_string());
  }
  return out;
}

Result<std::vector<ApiGroup>> parse_api_group_list(const json::value& doc) {
  const json::object* o = as_object(&doc);
  if (o == nullptr) return fail("APIGroupList: not a JSON object");
  auto groups = array_field(*o, "groups", "APIGroupList", true);
  if (!groups.ok()) return fail(groups.error());
  std::vector<ApiGroup> out;
  for (const json::value& g : **groups) {
    const json::object* group = as_object(&g);
    if (group == nullptr) return fail("APIGroupList: groups must be objects");
    auto name = string_field(*group, "name", "APIGroup");
    if (!name.ok()) return fail(name.error());
    const std::string where = "APIGroup " + *name;
    ApiGroup info{*name, {}, ""};
    auto versions = array_field(*group, "versions", where, true);
    if (!versions.ok()) return fail(versions.error());
    for (const json::value& v : **versions) {
      const json::object* version = as_object(&v);
      if (version == nullptr) return fail(where + ": versions must be objects");
      auto text = string_field(*version, "version", where);
      if (!text.ok()) return fail(text.error());
      info.versions.push_back(std::move(*text));
    }
    if (const json::object* preferred = as_object(group->if_contains("preferredVersion"))) {
      auto text = string_field(*preferred, "version", where + " preferredVersion");
      if (!text.ok()) return fail(text.error());
      info.preferred_version = std::move(*text);
    } else if (!info.versions.empty()) {
      info.preferred_version = info.versions.front();
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<std::vector<ApiResource>> parse_api_resource_list(const json::value& doc) {
  const json::object* o = as_object(&doc);
  if (o == nullptr) return fail("APIResourceList: not a JSON object");
  auto group_version = string_field(*o, "groupVersion", "APIResourceList");
  if (!group_version.ok()) return fail(group_version.error());
  const std::string where = "APIResourceList " + *group_version;
  auto resources = array_field(*o, "resources", where, false);
  if (!resources.ok()) return fail(resources.error());
  std::vector<ApiResource> out;
  if (*resources == nullptr) return out;
  for (const json::value& r : **resources) {
    const json::object* resource = as_object(&r);
    if (resource == nullptr) return fail(where + ": resources must be objects");
    ApiResource info;
    info.group_version = api::GroupVersion::parse(*group_version);
    auto name = string_field(*resource, "name", where);
    if (!name.ok()) return fail(name.error());
    info.name = std::move(*name);
    const std::string item = where + " resource " + info.name;
    auto kind = string_field(*resource, "kind", item);
    if (!kind.ok()) return fail(kind.error());
    info.kind = std::move(*kind);
    const json::value* namespaced = resource->if_contains("namespaced");
    if (namespaced == nullptr || !namespaced->is_bool()) {
      return fail(item + ": namespaced must be a boolean");
    }
    info.namespaced = namespaced->as_bool();
    auto verbs = array_field(*resource, "verbs", item, false);
    if (!verbs.ok()) return fail(verbs.error());
    if (*verbs != nullptr) {
      for (const json::value& verb : **verbs) {
        if (!verb.is_string()) return fail(item + ": verbs must be strings");
        info.verbs.emplace_back(verb.as_string());
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<std::vector<ApiGroup>, api::Status> DiscoveryClient::server_groups() const {
  Request core_request;
  core_request.abs_path = "/api";
  auto core = rest_->send_json(core_request);
  if (!core.ok()) return fail(std::move(core).error());
  auto core_versions = parse_api_versions(*core);
  if (!core_versions.ok()) return fail(api::internal_error(core_versions.error()));
  std::vector<ApiGroup> groups;
  if (!core_versions->empty()) {
    groups.push_back(ApiGroup{"", *core_versions, core_versions->front()});
  }

  Request groups_request;
  groups_request.abs_path = "/apis";
  auto named = rest_->send_json(groups_request);
  if (!named.ok()) return fail(std::move(named).error());
  auto parsed = parse_api_group_list(*named);
  if (!parsed.ok()) return fail(api::internal_error(parsed.error()));
  for (ApiGroup& g : *parsed)
    groups.push_back(std::move(g));
  return groups;
}

Result<std::vector<ApiResource>, api::Status> DiscoveryClient::server_resources_for_group_version(
    const api::GroupVersion& group_version) const {
  Request request;
  request.abs_path = group_version.group.empty() ? "/api/" + group_version.version
                                                 : "/apis/" + group_version.api_version();
  auto doc = rest_->send_json(request);
  if (!doc.ok()) return fail(std::move(doc).error());
  auto parsed = parse_api_resource_list(*doc);
  if (!parsed.ok()) return fail(api::internal_error(parsed.error()));
  return std::move(parsed).value();
}

Result<PreferredResources, api::Status> DiscoveryClient::server_preferred_resources() const {
  auto groups = server_groups();
  if (!groups.ok()) return fail(std::move(groups).error());
  PreferredResources out;
  for (const ApiGroup& group : *groups) {
    // The preferred version first, so that its resources win.
    std::vector<std::string> versions{group.preferred_version};
    for (const std::string& v : group.versions)
      if (v != group.preferred_version) versions.push_back(v);
    std::set<std::string, std::less<>> seen;
    for (const std::string& version : versions) {
      const api::GroupVersion gv{group.name, version};
      auto resources = server_resources_for_group_version(gv);
      if (!resources.ok()) {
        out.failed.emplace(gv.api_version(), resources.error().message);
        continue;
      }
      for (ApiResource& r : *resources) {
        if (r.is_subresource() || !seen.insert(r.name).second) continue;
        out.resources.push_back(std::move(r));
      }
    }
  }
  return out;
}

}  // namespace kcm::client
