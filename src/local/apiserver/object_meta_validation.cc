// Generic metadata validation shared by every kind (upstream's
// apimachinery/pkg/api/validation/objectmeta.go).
#include <fmt/format.h>

#include <algorithm>

#include "api/name_validation.h"
#include "local/apiserver/rest_store.h"
#include "local/fieldmanager/field_manager.h"

namespace kcm::local::apiserver {
namespace {

std::string meta_str(const json::object& meta, std::string_view key) {
  return std::string(api::find_string(meta, key).value_or(""));
}

void validate_owner_references(const json::array& refs, api::FieldErrors& errs) {
  std::vector<std::string> controllers;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::string path = api::index("metadata.ownerReferences", i);
    const json::object* ref = refs[i].if_object();
    if (ref == nullptr) {
      errs.push_back(api::invalid(path, refs[i], "must be an object"));
      continue;
    }
    const std::string api_version = meta_str(*ref, "apiVersion");
    const std::string kind = meta_str(*ref, "kind");
    if (api_version.empty()) {
      errs.push_back(api::invalid(api::child(path, "apiVersion"), json::value(api_version),
                                  "version must not be empty"));
    }
    if (kind.empty()) {
      errs.push_back(
          api::invalid(api::child(path, "kind"), json::value(kind), "kind must not be empty"));
    }
    if (meta_str(*ref, "name").empty()) {
      errs.push_back(
          api::invalid(api::child(path, "name"), json::value(""), "name must not be empty"));
    }
    if (meta_str(*ref, "uid").empty()) {
      errs.push_back(
          api::invalid(api::child(path, "uid"), json::value(""), "uid must not be empty"));
    }
    if (api::find_bool(*ref, "controller").value_or(false)) {
      controllers.push_back(
          fmt::format("{}/{}, Kind={}, Name={}", api_version, "", kind, meta_str(*ref, "name")));
    }
  }
  if (controllers.size() > 1) {
    errs.push_back(api::invalid(
        "metadata.ownerReferences", json::value(json::array()),
        fmt::format("Only one reference can have Controller set to true. Found \"true\" in "
                    "references for {}",
                    fmt::join(controllers, " and "))));
  }
}

void validate_finalizers(const json::array& finalizers, api::FieldErrors& errs) {
  bool orphan = false;
  bool foreground = false;
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    const std::string path = api::index("metadata.finalizers", i);
    if (!finalizers[i].is_string()) {
      errs.push_back(api::invalid(path, finalizers[i], "must be a string"));
      continue;
    }
    const std::string_view f = finalizers[i].get_string();
    for (const auto& msg : api::is_qualified_name(f)) {
      errs.push_back(api::invalid(path, json::value(f), msg));
    }
    orphan = orphan || f == "orphan";
    foreground = foreground || f == "foregroundDeletion";
  }
  if (orphan && foreground) {
    errs.push_back(api::invalid("metadata.finalizers", json::value(finalizers),
                                "finalizer orphan and foregroundDeletion cannot be both set"));
  }
}

std::vector<std::string> finalizer_list(const json::object& meta) {
  std::vector<std::string> out;
  if (const json::array* a = api::find_array(meta, "finalizers")) {
    for (const auto& v : *a) {
      if (v.is_string()) out.emplace_back(v.get_string());
    }
  }
  return out;
}

}  // namespace

api::FieldErrors validate_object_meta(const ResourceInfo& info, const json::object& obj) {
  api::FieldErrors errs;
  static const json::object kEmpty;
  const json::object* meta_ptr = api::find_object(obj, "metadata");
  const json::object& meta = meta_ptr != nullptr ? *meta_ptr : kEmpty;
  // Namespaces are DNS labels, Services DNS-1035 labels (a name that is also
  // a DNS name of the cluster), the rest DNS subdomains.
  const bool core = info.gvr.group.empty();
  const api::NameValidator validator = core && info.kind == "Namespace" ? api::name_is_dns_label
                                       : core && info.kind == "Service"
                                           ? api::name_is_dns1035_label
                                           : api::name_is_dns_subdomain;
  errs =
      api::validate_object_name(meta_str(meta, "name"), meta_str(meta, "generateName"), validator);
  const std::string ns = meta_str(meta, "namespace");
  if (info.namespaced) {
    if (ns.empty()) {
      errs.push_back(api::required("metadata.namespace"));
    } else {
      for (const auto& msg : api::is_dns1123_label(ns)) {
        errs.push_back(api::invalid("metadata.namespace", json::value(ns), msg));
      }
    }
  } else if (!ns.empty()) {
    errs.push_back(api::forbidden("metadata.namespace", "not allowed on this type"));
  }
  if (auto g = api::find_int(meta, "generation"); g && *g < 0) {
    errs.push_back(
        api::invalid("metadata.generation", json::value(*g), "must be greater than or equal to 0"));
  }
  if (const json::value* labels = meta.if_contains("labels"); labels && !labels->is_null()) {
    if (const json::object* l = labels->if_object()) {
      auto e = api::validate_labels(*l, "metadata.labels");
      errs.insert(errs.end(), e.begin(), e.end());
    }
  }
  if (const json::value* ann = meta.if_contains("annotations"); ann && !ann->is_null()) {
    if (const json::object* a = ann->if_object()) {
      auto e = api::validate_annotations(*a, "metadata.annotations");
      errs.insert(errs.end(), e.begin(), e.end());
    }
  }
  if (const json::array* refs = api::find_array(meta, "ownerReferences")) {
    validate_owner_references(*refs, errs);
  }
  if (const json::array* f = api::find_array(meta, "finalizers")) validate_finalizers(*f, errs);
  if (const json::array* m = api::find_array(meta, "managedFields")) {
    auto e = fieldmanager::validate_managed_fields(*m);
    errs.insert(errs.end(), e.begin(), e.end());
  }
  if (errs.empty()) {
    // Names also become path segments.
    for (const auto& msg : api::validate_path_segment_name(meta_str(meta, "name"), false)) {
      errs.push_back(api::invalid("metadata.name", json::value(meta_str(meta, "name")), msg));
    }
  }
  return errs;
}

api::FieldErrors validate_object_meta_update(const json::object& obj, const json::object& old) {
  api::FieldErrors errs;
  static const json::object kEmpty;
  const json::object* m = api::find_object(obj, "metadata");
  const json::object* o = api::find_object(old, "metadata");
  const json::object& meta = m != nullptr ? *m : kEmpty;
  const json::object& old_meta = o != nullptr ? *o : kEmpty;
  if (const json::value* dt = old_meta.if_contains("deletionTimestamp"); dt && !dt->is_null()) {
    const auto before = finalizer_list(old_meta);
    std::vector<std::string> added;
    for (const auto& f : finalizer_list(meta)) {
      if (std::find(before.begin(), before.end(), f) == before.end()) added.push_back(f);
    }
    if (!added.empty()) {
      std::vector<std::string> quoted;
      for (const auto& f : added)
        quoted.push_back(api::go_quote(f));
      errs.push_back(api::forbidden(
          "metadata.finalizers",
          fmt::format("no new finalizers can be added if the object is being deleted, found new "
                      "finalizers []string{{{}}}",
                      fmt::join(quoted, ", "))));
    }
  }
  if (meta_str(meta, "resourceVersion").empty()) {
    errs.push_back(api::invalid("metadata.resourceVersion", json::value(""),
                                "must be specified for an update"));
  }
  for (const char* field : {"name", "namespace", "uid", "creationTimestamp"}) {
    const json::value* a = meta.if_contains(field);
    const json::value* b = old_meta.if_contains(field);
    const bool same = (a == nullptr || a->is_null()) ? (b == nullptr || b->is_null())
                                                     : (b != nullptr && *a == *b);
    if (!same) {
      errs.push_back(api::invalid(std::string("metadata.") + field,
                                  a != nullptr ? *a : json::value(""), "field is immutable"));
    }
  }
  return errs;
}

}  // namespace kcm::local::apiserver
