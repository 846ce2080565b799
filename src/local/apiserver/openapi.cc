#include "local/apiserver/openapi.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "api/schema/openapi.h"

namespace kcm::local::apiserver {
namespace {

std::string gv_path(const registry::ResourceInfo& r) {
  return r.gvr.group.empty() ? "api/" + r.gvr.version
                             : fmt::format("apis/{}/{}", r.gvr.group, r.gvr.version);
}

json::object query_param(std::string_view name, std::string_view description) {
  return {{"name", name},
          {"in", "query"},
          {"description", description},
          {"schema", json::object{{"type", "string"}, {"uniqueItems", true}}}};
}

json::object operation(const registry::ResourceInfo& r, std::string_view verb, bool write,
                       std::string_view response_ref) {
  json::object op;
  op["description"] = fmt::format("{} {}", verb, r.kind);
  op["operationId"] = fmt::format("{}{}", verb, r.kind);
  op["x-kubernetes-action"] = verb;
  op["x-kubernetes-group-version-kind"] =
      json::object{{"group", r.gvr.group}, {"version", r.gvr.version}, {"kind", r.kind}};
  json::array params;
  if (write) {
    params.push_back(query_param("dryRun", "When present, modifications are not persisted."));
    params.push_back(query_param("fieldManager", "A name for the actor making the change."));
    params.push_back(
        query_param("fieldValidation",
                    "How the server treats unknown or duplicate fields: Ignore, Warn or Strict."));
  }
  op["parameters"] = std::move(params);
  json::object ok{{"description", "OK"}};
  if (!response_ref.empty()) ok["content"] = api::schema::json_content(response_ref);
  op["responses"] = json::object{{"200", std::move(ok)}};
  return op;
}

json::object paths_for(const registry::ResourceInfo& r) {
  json::object paths;
  const std::string base =
      "/" + gv_path(r) + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.gvr.resource;
  const std::string object = api::schema::schema_ref(r.gvk());
  const std::string list = object.empty() ? "" : api::schema::list_schema_ref(r.gvk());
  const std::string status = api::schema::status_schema_ref();
  json::object collection;
  if (r.has_verb("list")) collection["get"] = operation(r, "list", false, list);
  if (r.has_verb("create")) collection["post"] = operation(r, "post", true, object);
  if (!collection.empty()) paths[base] = std::move(collection);
  // The PATCH operation carries no requestBody on purpose: with one, kubectl
  // would compute strategic merge patches from these documents instead of its
  // compiled-in types.
  json::object item;
  if (r.has_verb("get")) item["get"] = operation(r, "get", false, object);
  if (r.has_verb("update")) item["put"] = operation(r, "put", true, object);
  if (r.has_verb("patch")) item["patch"] = operation(r, "patch", true, object);
  if (r.has_verb("delete")) item["delete"] = operation(r, "delete", false, status);
  if (!item.empty()) paths[base + "/{name}"] = std::move(item);
  for (const auto& s : r.subresources) {
    if (std::find(s.verbs.begin(), s.verbs.end(), "patch") == s.verbs.end()) continue;
    const std::string sub_ref = api::schema::schema_ref(s.response_kind);
    paths[base + "/{name}/" + s.name] =
        json::object{{"patch", operation(r, "patch", true, sub_ref)}};
  }
  return paths;
}

std::vector<std::string> served_paths(const registry::ResourceTable& table) {
  std::vector<std::string> out;
  for (const auto& r : table.all()) {
    const std::string p = gv_path(*r);
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

std::string document_hash(const json::value& doc) {
  // FNV-1a 64 of the document: changes whenever the document does.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : json::serialize(doc)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016X}", h);
}

}  // namespace

json::value openapi_v3_document(const registry::ResourceTable& table, std::string_view path) {
  json::object paths;
  bool served = false;
  for (const auto& r : table.all()) {
    if (gv_path(*r) != path) continue;
    served = true;
    for (auto& [k, v] : paths_for(*r))
      paths[k] = v;
  }
  if (!served) return nullptr;
  json::object doc{{"openapi", "3.0.0"},
                   {"info", json::object{{"title", "Kubernetes"}, {"version", "v1.32.4"}}},
                   {"paths", std::move(paths)}};
  // "api/v1" or "apis/<group>/<version>"
  std::string group, version;
  if (path.starts_with("apis/")) {
    const auto rest = path.substr(5);
    group = std::string(rest.substr(0, rest.find('/')));
    version = std::string(rest.substr(rest.find('/') + 1));
  } else {
    version = std::string(path.substr(4));
  }
  api::schema::add_component_schemas(doc, group, version);
  return doc;
}

json::value openapi_v3_index(const registry::ResourceTable& table) {
  json::object paths;
  for (const auto& p : served_paths(table)) {
    paths[p] = json::object{
        {"serverRelativeURL",
         fmt::format("/openapi/v3/{}?hash={}", p, document_hash(openapi_v3_document(table, p)))}};
  }
  return json::object{{"paths", std::move(paths)}};
}

}  // namespace kcm::local::apiserver
