#include "local/registry/custom_resources.h"

#include <fmt/format.h>

#include <map>

#include "local/crd/defaulting.h"
#include "local/crd/pruning.h"
#include "local/crd/schema_validation.h"
#include "local/crd/structural_schema.h"
#include "local/registry/object_fields.h"

namespace kcm::local::registry {
namespace {

// Whether `a` and `b` agree on every member but metadata and, when given, `skip`.
bool content_equal(const json::object& a, const json::object& b, std::string_view skip) {
  auto counts = [&](const json::object& o) {
    std::size_t n = 0;
    for (const auto& [k, v] : o) {
      if (k != "metadata" && k != skip) ++n;
    }
    return n;
  };
  if (counts(a) != counts(b)) return false;
  for (const auto& [k, v] : a) {
    if (k == "metadata" || k == skip) continue;
    const json::value* other = b.if_contains(k);
    if (other == nullptr || !crd::json_equal(v, *other)) return false;
  }
  return true;
}

// upstream customresource strategy and statusStrategy for one version.
class CustomResourceStrategy final : public Strategy {
 public:
  CustomResourceStrategy(crd::SchemaPtr schema, bool status_subresource)
      : schema_(std::move(schema)), status_subresource_(status_subresource) {}

  // Decoding: unknown fields pruned, then the schema's defaults.
  void apply_defaults(json::object& obj) const override {
    json::value v(std::move(obj));
    crd::prune(v, schema_.get(), /*is_resource_root=*/true);
    crd::apply_defaults(v, *schema_);
    crd::prune_non_nullable_nulls(v, *schema_);
    obj = std::move(v.get_object());
  }

  std::optional<std::vector<std::string>> unknown_fields(const json::object& obj) const override {
    json::value copy(obj);
    return crd::prune(copy, schema_.get(), /*is_resource_root=*/true);
  }

  void prepare_for_create(json::object& obj) const override {
    if (status_subresource_) obj.erase("status");
    set_generation(obj, 1);
  }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    if (status_subresource_) {
      copy_member(obj, old, "status");
      if (!content_equal(obj, old, "status")) set_generation(obj, generation(old) + 1);
    } else if (!content_equal(obj, old, "")) {
      set_generation(obj, generation(old) + 1);
    }
  }
  // Only status changes through the status subresource.
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    json::object next;
    for (const auto& [k, v] : old) {
      if (k != "status" && k != "metadata") next[k] = v;
    }
    if (json::value* meta = obj.if_contains("metadata")) next["metadata"] = std::move(*meta);
    if (json::value* status = obj.if_contains("status")) next["status"] = std::move(*status);
    obj = std::move(next);
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return crd::validate_against_schema(*schema_, json::value(obj));
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& /*old*/) const override {
    return crd::validate_against_schema(*schema_, json::value(obj));
  }

 private:
  const crd::SchemaPtr schema_;
  const bool status_subresource_;
};

// Versions of one CRD share the storage; objects carry the storage version's
// apiVersion there (conversion strategy None only renames).
class ApiVersionConversion final : public Conversion {
 public:
  ApiVersionConversion(std::string storage, std::string served)
      : storage_(std::move(storage)), served_(std::move(served)) {}
  void to_storage(json::object& obj) const override { obj["apiVersion"] = storage_; }
  void from_storage(json::object& obj) const override { obj["apiVersion"] = served_; }

 private:
  const std::string storage_;
  const std::string served_;
};

std::vector<std::string> strings_at(const json::object* o, std::string_view key) {
  std::vector<std::string> out;
  if (o == nullptr) return out;
  if (const json::array* a = api::find_array(*o, key)) {
    for (const auto& v : *a) {
      if (v.is_string()) out.emplace_back(v.get_string());
    }
  }
  return out;
}

std::string string_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  return std::string(api::find_string(*o, key).value_or(""));
}

// upstream serveDefaultColumnsIfEmpty: AGE when the version declares none.
std::vector<PrinterColumn> printer_columns(const json::object& version) {
  std::vector<PrinterColumn> out;
  if (const json::array* columns = api::find_array(version, "additionalPrinterColumns")) {
    for (const auto& c : *columns) {
      const json::object* col = c.if_object();
      if (col == nullptr) continue;
      out.push_back({.name = string_at(col, "name"),
                     .type = string_at(col, "type"),
                     .format = string_at(col, "format"),
                     .description = string_at(col, "description"),
                     .priority = static_cast<int>(api::find_int(*col, "priority").value_or(0)),
                     .json_path = string_at(col, "jsonPath")});
    }
  }
  if (out.empty()) {
    out.push_back({.name = "Age",
                   .type = "date",
                   .description =
                       "CreationTimestamp is a timestamp representing the server time when this "
                       "object was created. It is not guaranteed to be set in happens-before order "
                       "across separate operations. Clients may not set this value. It is "
                       "represented in RFC3339 form and is in UTC.\n\nPopulated by the system. "
                       "Read-only. Null for lists. More info: "
                       "https://git.k8s.io/community/contributors/devel/sig-architecture/"
                       "api-conventions.md#metadata",
                   .json_path = ".metadata.creationTimestamp"});
  }
  return out;
}

}  // namespace

std::vector<std::shared_ptr<const ResourceInfo>> served_resources(
    const json::object& crd, std::vector<std::string>* problems) {
  std::vector<std::shared_ptr<const ResourceInfo>> out;
  const json::object* spec = api::find_object(crd, "spec");
  if (spec == nullptr) return out;
  const std::string group = string_at(spec, "group");
  const json::object* status = api::find_object(crd, "status");
  // Served under the accepted names (the spec's until the CRD is named).
  const json::object* names = status ? api::find_object(*status, "acceptedNames") : nullptr;
  if (names == nullptr || string_at(names, "plural").empty()) {
    names = api::find_object(*spec, "names");
  }
  const std::string plural = string_at(names, "plural");
  const std::string kind = string_at(names, "kind");
  if (plural.empty() || kind.empty()) return out;
  const bool namespaced = string_at(spec, "scope") != "Cluster";
  const json::array* versions = api::find_array(*spec, "versions");
  if (versions == nullptr) return out;

  std::string storage_version;
  for (const auto& v : *versions) {
    if (const json::object* version = v.if_object();
        version && api::find_bool(*version, "storage").value_or(false)) {
      storage_version = string_at(version, "name");
    }
  }
  const std::string storage_api_version = group + "/" + storage_version;
  std::map<std::string, std::string> spec_replicas_paths;
  for (const auto& v : *versions) {
    const json::object* version = v.if_object();
    if (version == nullptr) continue;
    const json::object* subresources = api::find_object(*version, "subresources");
    const json::object* scale = subresources ? api::find_object(*subresources, "scale") : nullptr;
    spec_replicas_paths[group + "/" + string_at(version, "name")] =
        scale ? string_at(scale, "specReplicasPath") : "";
  }

  for (std::size_t i = 0; i < versions->size(); ++i) {
    const json::object* version = (*versions)[i].if_object();
    if (version == nullptr || !api::find_bool(*version, "served").value_or(false)) continue;
    const std::string name = string_at(version, "name");
    const json::object* subresources = api::find_object(*version, "subresources");
    const bool has_status = subresources != nullptr && subresources->contains("status");
    const json::object* scale = subresources ? api::find_object(*subresources, "scale") : nullptr;

    const json::object* schema_holder = api::find_object(*version, "schema");
    const json::value* openapi =
        schema_holder ? schema_holder->if_contains("openAPIV3Schema") : nullptr;
    if (openapi == nullptr) {
      if (problems) problems->push_back(fmt::format("version {} has no schema", name));
      continue;
    }
    crd::SchemaParseOptions parse_options;
    parse_options.field_path = fmt::format("spec.versions[{}].schema.openAPIV3Schema", i);
    parse_options.status_subresource_enabled = has_status;
    auto schema = crd::parse_structural_schema(*openapi, parse_options);
    if (!schema) {
      if (problems) {
        for (const auto& e : schema.error())
          problems->push_back(fmt::format("version {}: {}", name, e.message()));
      }
      continue;
    }

    ResourceInfo info;
    info.gvr = {group, name, plural};
    info.kind = kind;
    info.singular = string_at(names, "singular");
    info.namespaced = namespaced;
    info.short_names = strings_at(names, "shortNames");
    info.categories = strings_at(names, "categories");
    info.verbs = kAllVerbs;
    const api::GroupVersionKind gvk{group, name, kind};
    if (has_status) info.subresources.push_back({"status", gvk, {"get", "patch", "update"}});
    if (scale != nullptr) {
      info.subresources.push_back(
          {"scale", {"autoscaling", "v1", "Scale"}, {"get", "patch", "update"}});
      info.scale_paths =
          ScalePaths{string_at(scale, "specReplicasPath"), string_at(scale, "statusReplicasPath"),
                     string_at(scale, "labelSelectorPath")};
    }
    info.spec_replicas_paths = spec_replicas_paths;
    info.selectable_fields = {"metadata.name", "metadata.namespace"};
    info.delete_returns_object = false;
    if (versions->size() > 1) {
      info.conversion =
          std::make_shared<ApiVersionConversion>(storage_api_version, group + "/" + name);
    }
    info.structural_schema = *schema;
    info.strategy = std::make_shared<CustomResourceStrategy>(std::move(*schema), has_status);
    info.printer_columns = printer_columns(*version);
    out.push_back(std::make_shared<const ResourceInfo>(std::move(info)));
  }
  return out;
}

const ResourceInfo& custom_storage_info() {
  static const ResourceInfo info{.selectable_fields = {"metadata.name", "metadata.namespace"},
                                 .strategy = std::make_shared<Strategy>()};
  return info;
}

}  // namespace kcm::local::registry
