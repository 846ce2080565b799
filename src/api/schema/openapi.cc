#include "api/schema/openapi.h"

#include <algorithm>
#include <map>
#include <set>

#include "api/schema/openapi_common.h"

namespace kcm::api::schema {
namespace {

constexpr std::string_view kRefPrefix = "#/components/schemas/";

std::string ref_to(std::string_view name) {
  return std::string(kRefPrefix) + std::string(name);
}

json::object builtin_schema(Kind k) {
  switch (k) {
    // No top-level "type": kubectl explain then names the type (<IntOrString>,
    // <Quantity>) instead of a primitive, as it does with upstream's documents.
    case Kind::kIntOrString:
      return {{"description", "An int32 or a string, written as either in JSON."},
              {"format", "int-or-string"},
              {"oneOf",
               json::array{json::object{{"type", "integer"}}, json::object{{"type", "string"}}}}};
    case Kind::kQuantity:
      return {{"description",
               "A fixed-point number with an optional suffix: 100m, 1.5Gi, 2e3. Written as a "
               "string."},
              {"oneOf",
               json::array{json::object{{"type", "string"}}, json::object{{"type", "number"}}}}};
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
json::object value_schema(const TypeExpr& t) {
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
      return {{"$ref", ref_to(builtin_openapi_name(t.kind))}};
    case Kind::kObject:
      return {{"$ref", ref_to(t.object->openapi_name)}};
    case Kind::kList:
      return {{"items", value_schema(*t.elem)}, {"type", "array"}};
    case Kind::kMap:
      return {{"additionalProperties", value_schema(*t.elem)}, {"type", "object"}};
  }
  return {};
}

json::object field_schema(const Field& f) {
  json::object s = value_schema(*f.type);
  const std::string& description = f.description;
  if (s.contains("$ref")) {
    // A $ref cannot have siblings in OpenAPI 3.0: upstream wraps it in allOf.
    json::object wrapped{{"allOf", json::array{json::object{{"$ref", s.at("$ref")}}}}};
    if (!description.empty()) wrapped["description"] = description;
    s = std::move(wrapped);
  } else if (!description.empty()) {
    s["description"] = description;
  }
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

json::object list_schema(const Type& item, const GroupVersionKind& gvk) {
  return {
      {"description", "A list of " + gvk.kind + " objects."},
      {"properties",
       json::object{
           {"apiVersion",
            json::object{{"description", "Versioned schema of this list."}, {"type", "string"}}},
           {"items", json::object{{"description", "The items of the list."},
                                  {"items", json::object{{"$ref", ref_to(item.openapi_name)}}},
                                  {"type", "array"}}},
           {"kind", json::object{{"description", "Kind of this list."}, {"type", "string"}}},
           {"metadata",
            json::object{
                {"allOf", json::array{json::object{
                              {"$ref", ref_to("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")}}}},
                {"description", "Standard list metadata."}}}}},
      {"required", json::array{"items"}},
      {"type", "object"},
      {"x-kubernetes-group-version-kind",
       gvk_list_extension({{gvk.group, gvk.version, gvk.kind + "List"}})},
  };
}

}  // namespace

json::object type_schema(const Type& type) {
  json::object s;
  if (!type.description.empty()) s["description"] = type.description;
  std::vector<const Field*> fields = type.json_fields();
  json::array required;
  for (const Field* f : fields) {
    if (f->required) required.emplace_back(f->name);
  }
  std::sort(fields.begin(), fields.end(),
            [](const Field* a, const Field* b) { return a->name < b->name; });
  json::object properties;
  for (const Field* f : fields)
    properties[f->name] = field_schema(*f);
  s["properties"] = std::move(properties);
  if (!required.empty()) s["required"] = std::move(required);
  s["type"] = "object";
  if (!type.gvks.empty()) s["x-kubernetes-group-version-kind"] = gvk_list_extension(type.gvks);
  if (type.struct_type == MapType::kAtomic) s["x-kubernetes-map-type"] = "atomic";
  if (type.struct_type == MapType::kGranular) s["x-kubernetes-map-type"] = "granular";
  return s;
}

json::object component_schemas(std::string_view group, std::string_view version,
                               const Registry& registry) {
  std::vector<std::pair<const Type*, GroupVersionKind>> kinds;
  std::vector<GroupVersionKind> served;  // every group-version of the registry
  for (const auto& t : registry.types()) {
    for (const auto& g : t.gvks) {
      if (t.package != "meta/v1" &&
          std::find_if(served.begin(), served.end(), [&](const GroupVersionKind& s) {
            return s.group == g.group && s.version == g.version;
          }) == served.end()) {
        served.push_back({g.group, g.version, "DeleteOptions"});
      }
      if (g.group == group && g.version == version && t.package != "meta/v1") {
        kinds.emplace_back(&t, g);
      }
    }
  }
  json::object out;
  if (kinds.empty()) return out;
  // apps/v1 serves autoscaling/v1 Scale through the scale subresource.
  if (group == "apps") {
    if (const Type* scale = registry.root({"autoscaling", "v1", "Scale"})) {
      kinds.emplace_back(scale, GroupVersionKind{"autoscaling", "v1", "Scale"});
    }
  }
  std::set<const Type*> seen;
  std::set<Kind> builtins;
  for (const auto& [t, g] : kinds)
    collect_openapi_types(*t, seen, builtins);
  const Type* status = registry.find("meta/v1", "Status");
  const Type* delete_options = registry.find("meta/v1", "DeleteOptions");
  const Type* list_meta = registry.find("meta/v1", "ListMeta");
  for (const Type* t : {status, delete_options, list_meta}) {
    if (t != nullptr) collect_openapi_types(*t, seen, builtins);
  }

  std::map<std::string, json::object> sorted;
  for (const Type* t : seen)
    sorted[t->openapi_name] = type_schema(*t);
  for (Kind k : builtins)
    sorted[std::string(builtin_openapi_name(k))] = builtin_schema(k);
  for (const auto& [t, g] : kinds) {
    if (has_list_schema(*t)) sorted[t->openapi_name + "List"] = list_schema(*t, g);
  }
  if (delete_options != nullptr) {
    // Upstream lists every group-version that accepts DeleteOptions.
    sorted[delete_options->openapi_name]["x-kubernetes-group-version-kind"] =
        gvk_list_extension(served);
  }
  for (auto& [name, schema] : sorted)
    out[name] = std::move(schema);
  return out;
}

void add_component_schemas(json::object& document, std::string_view group, std::string_view version,
                           const Registry& registry) {
  json::object& components = ensure_object(document, "components");
  components["schemas"] = component_schemas(group, version, registry);
}

json::value openapi_v3_document(std::string_view group, std::string_view version,
                                const Registry& registry) {
  json::object schemas = component_schemas(group, version, registry);
  if (schemas.empty()) return nullptr;
  return json::object{{"components", json::object{{"schemas", std::move(schemas)}}},
                      {"info", json::object{{"title", "Kubernetes"}, {"version", "v1.32.4"}}},
                      {"openapi", "3.0.0"},
                      {"paths", json::object{}}};
}

std::string schema_ref(const GroupVersionKind& gvk, const Registry& registry) {
  const Type* t = registry.root(gvk);
  return t == nullptr ? std::string() : ref_to(t->openapi_name);
}

std::string list_schema_ref(const GroupVersionKind& gvk, const Registry& registry) {
  const Type* t = registry.root(gvk);
  return t == nullptr || !has_list_schema(*t) ? std::string() : ref_to(t->openapi_name + "List");
}

std::string status_schema_ref() {
  return ref_to("io.k8s.apimachinery.pkg.apis.meta.v1.Status");
}

json::object json_content(std::string_view ref) {
  return {{"application/json", json::object{{"schema", json::object{{"$ref", ref}}}}}};
}

}  // namespace kcm::api::schema
