#include "api/schema/openapi_v2.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "api/schema/openapi_common.h"

namespace kcm::api::schema {
namespace {

constexpr std::string_view kV2RefPrefix = "#/definitions/";
constexpr std::string_view kStatusName = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
constexpr std::string_view kDeleteOptionsName =
    "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
constexpr std::string_view kListMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
constexpr std::string_view kPatchName = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

std::string v2_ref_to(std::string_view name) {
  return std::string(kV2RefPrefix) + std::string(name);
}

// The v2 shapes of the well-known types: upstream's OpenAPISchemaType and
// OpenAPISchemaFormat. kubectl's client-side validation accepts any scalar
// for a string, so IntOrString and Quantity validate as both forms.
json::object v2_builtin_schema(Kind k) {
  switch (k) {
    case Kind::kIntOrString:
      return {{"description", "An int32 or a string, written as either in JSON."},
              {"format", "int-or-string"},
              {"type", "string"}};
    case Kind::kQuantity:
      return {{"description",
               "A fixed-point number with an optional suffix: 100m, 1.5Gi, 2e3. Written as a "
               "string."},
              {"type", "string"}};
    case Kind::kTime:
      return {{"description", "An RFC 3339 timestamp with second precision."},
              {"format", "date-time"},
              {"type", "string"}};
    case Kind::kMicroTime:
      return {{"description", "An RFC 3339 timestamp with microsecond precision."},
              {"format", "date-time"},
              {"type", "string"}};
    case Kind::kRaw:
      return {{"description", "An embedded object of any kind, kept as written."},
              {"type", "object"}};
    case Kind::kFieldsV1:
      return {{"description", "A set of fields in the FieldsV1 trie format."}, {"type", "object"}};
    default:
      return {};
  }
}

// The schema of a value of type `t` (no description).
json::object v2_value_schema(const TypeExpr& t) {
  switch (t.kind) {
    case Kind::kString: {
      json::object s{{"type", "string"}};
      if (!t.enum_values.empty()) {
        json::array values;
        for (const auto& v : t.enum_values)
          values.emplace_back(v);
        s["enum"] = std::move(values);
      }
      return s;
    }
    case Kind::kInt32:
      return {{"format", "int32"}, {"type", "integer"}};
    case Kind::kInt64:
      return {{"format", "int64"}, {"type", "integer"}};
    case Kind::kBool:
      return {{"type", "boolean"}};
    case Kind::kDouble:
      return {{"format", "double"}, {"type", "number"}};
    case Kind::kBytes:
      return {{"format", "byte"}, {"type", "string"}};
    case Kind::kDuration:
      return {{"type", "string"}};
    case Kind::kIntOrString:
    case Kind::kQuantity:
    case Kind::kTime:
    case Kind::kMicroTime:
    case Kind::kRaw:
    case Kind::kFieldsV1:
      return {{"$ref", v2_ref_to(builtin_openapi_name(t.kind))}};
    case Kind::kObject:
      return {{"$ref", v2_ref_to(t.object->openapi_name)}};
    case Kind::kList:
      return {{"items", v2_value_schema(*t.elem)}, {"type", "array"}};
    case Kind::kMap:
      return {{"additionalProperties", v2_value_schema(*t.elem)}, {"type", "object"}};
  }
  return {};
}

json::object v2_field_schema(const Field& f) {
  json::object s = v2_value_schema(*f.type);
  if (!f.description.empty()) s["description"] = f.description;
  if (!f.list_map_keys.empty()) {
    json::array keys;
    for (const auto& k : f.list_map_keys)
      keys.emplace_back(k);
    s["x-kubernetes-list-map-keys"] = std::move(keys);
  }
  if (f.list_type != ListType::kNone) s["x-kubernetes-list-type"] = to_string(f.list_type);
  if (f.map_type == MapType::kAtomic) s["x-kubernetes-map-type"] = "atomic";
  if (f.map_type == MapType::kGranular) s["x-kubernetes-map-type"] = "granular";
  if (!f.patch_merge_key.empty()) s["x-kubernetes-patch-merge-key"] = f.patch_merge_key;
  if (f.patch_strategy != PatchStrategy::kNone) {
    s["x-kubernetes-patch-strategy"] = to_string(f.patch_strategy);
  }
  return s;
}

json::object v2_list_schema(const Type& item, const GroupVersionKind& gvk) {
  return {
      {"description", "A list of " + gvk.kind + " objects."},
      {"properties",
       json::object{
           {"apiVersion",
            json::object{{"description", "Versioned schema of this list."}, {"type", "string"}}},
           {"items", json::object{{"description", "The items of the list."},
                                  {"items", json::object{{"$ref", v2_ref_to(item.openapi_name)}}},
                                  {"type", "array"}}},
           {"kind", json::object{{"description", "Kind of this list."}, {"type", "string"}}},
           {"metadata", json::object{{"$ref", v2_ref_to(kListMetaName)},
                                     {"description", "Standard list metadata."}}}}},
      {"required", json::array{"items"}},
      {"type", "object"},
      {"x-kubernetes-group-version-kind",
       gvk_list_extension({{gvk.group, gvk.version, gvk.kind + "List"}})},
  };
}

}  // namespace

json::object openapi_v2_type_schema(const Type& type) {
  json::object s;
  if (!type.description.empty()) s["description"] = type.description;
  std::vector<const Field*> fields = type.json_fields();
  json::array required;  // in declaration order, as upstream lists them
  for (const Field* f : fields) {
    if (f->required) required.emplace_back(f->name);
  }
  std::sort(fields.begin(), fields.end(),
            [](const Field* a, const Field* b) { return a->name < b->name; });
  // A struct with no fields has no "properties" upstream: kubectl then takes
  // it as a free-form object.
  if (!fields.empty()) {
    json::object properties;
    for (const Field* f : fields)
      properties[f->name] = v2_field_schema(*f);
    s["properties"] = std::move(properties);
  }
  if (!required.empty()) s["required"] = std::move(required);
  s["type"] = "object";
  if (!type.gvks.empty()) s["x-kubernetes-group-version-kind"] = gvk_list_extension(type.gvks);
  if (type.struct_type == MapType::kAtomic) s["x-kubernetes-map-type"] = "atomic";
  if (type.struct_type == MapType::kGranular) s["x-kubernetes-map-type"] = "granular";
  return s;
}

json::object openapi_v2_definitions(const std::vector<GroupVersionKind>& kinds,
                                    const Registry& registry) {
  std::vector<std::pair<const Type*, GroupVersionKind>> roots;
  std::vector<GroupVersionKind> served;  // group-versions that accept DeleteOptions
  for (const auto& g : kinds) {
    const Type* t = registry.root(g);
    if (t == nullptr) continue;
    roots.emplace_back(t, g);
    if (!has_list_schema(*t)) continue;
    const GroupVersionKind delete_options{g.group, g.version, "DeleteOptions"};
    if (std::find(served.begin(), served.end(), delete_options) == served.end()) {
      served.push_back(delete_options);
    }
  }
  std::sort(served.begin(), served.end(), [](const auto& a, const auto& b) {
    return std::tie(a.group, a.version) < std::tie(b.group, b.version);
  });

  std::set<const Type*> seen;
  std::set<Kind> builtins;
  for (const auto& [t, g] : roots)
    collect_openapi_types(*t, seen, builtins);
  for (std::string_view name : {"Status", "DeleteOptions", "ListMeta"}) {
    if (const Type* t = registry.find("meta/v1", name)) collect_openapi_types(*t, seen, builtins);
  }

  std::map<std::string, json::object> sorted;
  for (const Type* t : seen)
    sorted[t->openapi_name] = openapi_v2_type_schema(*t);
  for (Kind k : builtins)
    sorted[std::string(builtin_openapi_name(k))] = v2_builtin_schema(k);
  sorted[std::string(kPatchName)] = {
      {"description", "The body of a PATCH request, in the format its Content-Type names."},
      {"type", "object"}};
  for (const auto& [t, g] : roots) {
    if (has_list_schema(*t)) sorted[t->openapi_name + "List"] = v2_list_schema(*t, g);
  }
  if (auto it = sorted.find(std::string(kDeleteOptionsName)); it != sorted.end()) {
    it->second["x-kubernetes-group-version-kind"] = gvk_list_extension(served);
  }
  json::object out;
  for (auto& [name, schema] : sorted) {
    json::value v = std::move(schema);
    sort_object_keys(v);
    out[name] = std::move(v);
  }
  return out;
}

std::string openapi_v2_ref(const GroupVersionKind& gvk, const Registry& registry) {
  const Type* t = registry.root(gvk);
  return t == nullptr ? std::string() : v2_ref_to(t->openapi_name);
}

std::string openapi_v2_list_ref(const GroupVersionKind& gvk, const Registry& registry) {
  const Type* t = registry.root(gvk);
  return t == nullptr || !has_list_schema(*t) ? std::string() : v2_ref_to(t->openapi_name + "List");
}

std::string openapi_v2_status_ref() {
  return v2_ref_to(kStatusName);
}

std::string openapi_v2_delete_options_ref() {
  return v2_ref_to(kDeleteOptionsName);
}

std::string openapi_v2_patch_ref() {
  return v2_ref_to(kPatchName);
}

void sort_object_keys(json::value& v) {
  if (auto* a = v.if_array()) {
    for (auto& e : *a)
      sort_object_keys(e);
    return;
  }
  auto* o = v.if_object();
  if (o == nullptr) return;
  std::vector<std::pair<std::string, json::value>> members;
  members.reserve(o->size());
  for (auto& [k, e] : *o)
    members.emplace_back(std::string(k), std::move(e));
  std::sort(members.begin(), members.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  o->clear();
  for (auto& [k, e] : members) {
    sort_object_keys(e);
    o->emplace(k, std::move(e));
  }
}

}  // namespace kcm::api::schema
