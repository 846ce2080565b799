#include "local/crd/crd_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "api/name_validation.h"
#include "local/crd/crd_status.h"
#include "local/crd/json_fields.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::crd {

namespace {

using api::FieldErrors;

const json::object& empty_object() {
  static const json::object kEmpty;
  return kEmpty;
}
const json::object& object_at(const json::object& o, std::string_view key) {
  const json::object* p = api::find_object(o, key);
  return p != nullptr ? *p : empty_object();
}
bool flag(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_bool() && v->get_bool();
}
const json::array& versions_of(const json::object& spec) {
  static const json::array kEmpty;
  const json::array* a = api::find_array(spec, "versions");
  return a != nullptr ? *a : kEmpty;
}

std::string join(const std::vector<std::string>& msgs, std::string_view sep) {
  std::string out;
  for (const std::string& m : msgs) {
    if (!out.empty()) out += sep;
    out += m;
  }
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void validate_names(const json::object& names, const std::string& path, FieldErrors& errs) {
  auto dns1035 = [&](std::string_view field, const std::string& value, bool mixed_case) {
    if (value.empty()) return;
    const std::vector<std::string> msgs = api::is_dns1035_label(mixed_case ? lower(value) : value);
    if (msgs.empty()) return;
    errs.push_back(api::invalid(
        api::child(path, field), json::value(value),
        mixed_case ? "may have mixed case, but should otherwise match: " + join(msgs, ",")
                   : join(msgs, ",")));
  };
  dns1035("plural", string_at(names, "plural"), false);
  dns1035("singular", string_at(names, "singular"), false);
  dns1035("kind", string_at(names, "kind"), true);
  dns1035("listKind", string_at(names, "listKind"), true);
  const std::vector<std::string> short_names = strings_at(names, "shortNames");
  for (std::size_t i = 0; i < short_names.size(); ++i) {
    const std::vector<std::string> msgs = api::is_dns1035_label(short_names[i]);
    if (!msgs.empty()) {
      errs.push_back(api::invalid(api::index(api::child(path, "shortNames"), i),
                                  json::value(short_names[i]), join(msgs, ",")));
    }
  }
  const std::string kind = string_at(names, "kind");
  if (!kind.empty() && kind == string_at(names, "listKind")) {
    errs.push_back(api::invalid(api::child(path, "listKind"), json::value(kind),
                                "kind and listKind may not be the same"));
  }
  const std::vector<std::string> categories = strings_at(names, "categories");
  for (std::size_t i = 0; i < categories.size(); ++i) {
    const std::vector<std::string> msgs = api::is_dns1035_label(categories[i]);
    if (!msgs.empty()) {
      errs.push_back(api::invalid(api::index(api::child(path, "categories"), i),
                                  json::value(categories[i]), join(msgs, ",")));
    }
  }
}

bool validate_simple_json_path(const std::string& s, const std::string& path, FieldErrors& errs) {
  if (s.empty()) {
    errs.push_back(api::invalid(path, json::value(s), "must not be empty"));
    return false;
  }
  if (s[0] != '.') {
    errs.push_back(
        api::invalid(path, json::value(s), "must be a simple json path starting with ."));
    return false;
  }
  return true;
}

void validate_subresources(const json::object* sub, const std::string& path, FieldErrors& errs) {
  if (sub == nullptr) return;
  const json::object* scale = api::find_object(*sub, "scale");
  if (scale == nullptr) return;
  struct Path {
    const char* key;
    const char* prefix;
    const char* detail;
  };
  for (const Path& p :
       {Path{"specReplicasPath", ".spec.", "should be a json path under .spec"},
        Path{"statusReplicasPath", ".status.", "should be a json path under .status"}}) {
    const std::string field = api::child(path, std::string("scale.") + p.key);
    const std::string value = string_at(*scale, p.key);
    if (value.empty()) {
      errs.push_back(api::required(field));
    } else if (validate_simple_json_path(value, field, errs) && value.rfind(p.prefix, 0) != 0) {
      errs.push_back(api::invalid(field, json::value(value), p.detail));
    }
  }
  const std::string selector = string_at(*scale, "labelSelectorPath");
  if (!selector.empty()) {
    const std::string field = api::child(path, "scale.labelSelectorPath");
    if (validate_simple_json_path(selector, field, errs) && selector.rfind(".spec.", 0) != 0 &&
        selector.rfind(".status.", 0) != 0) {
      errs.push_back(api::invalid(field, json::value(selector),
                                  "should be a json path under either .spec or .status"));
    }
  }
}

void validate_column(const json::object& col, const std::string& path, FieldErrors& errs) {
  static const std::set<std::string> kTypes = {"boolean", "date", "integer", "number", "string"};
  static const std::set<std::string> kFormats = {"byte",  "date",  "date-time", "double",
                                                 "float", "int32", "int64",     "password"};
  auto one_of = [](const std::set<std::string>& s) {
    return "must be one of " + join(std::vector<std::string>(s.begin(), s.end()), ",");
  };
  if (string_at(col, "name").empty()) errs.push_back(api::required(api::child(path, "name")));
  const std::string type = string_at(col, "type");
  if (type.empty()) {
    errs.push_back(api::required(api::child(path, "type"), one_of(kTypes)));
  } else if (kTypes.count(type) == 0) {
    errs.push_back(api::invalid(api::child(path, "type"), json::value(type), one_of(kTypes)));
  }
  const std::string format = string_at(col, "format");
  if (!format.empty() && kFormats.count(format) == 0) {
    errs.push_back(api::invalid(api::child(path, "format"), json::value(format), one_of(kFormats)));
  }
  const std::string json_path = string_at(col, "jsonPath");
  if (json_path.empty()) {
    errs.push_back(api::required(api::child(path, "JSONPath")));
  } else {
    validate_simple_json_path(json_path, api::child(path, "JSONPath"), errs);
  }
}

void validate_version(const json::object& version, const std::string& path, FieldErrors& errs) {
  const json::value* warning = version.if_contains("deprecationWarning");
  if (warning != nullptr && warning->is_string()) {
    const std::string_view w = warning->get_string();
    if (w.size() > 256) {
      errs.push_back(api::too_long(api::child(path, "deprecationWarning"), 256));
    }
    if (std::any_of(w.begin(), w.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
      errs.push_back(api::invalid(api::child(path, "deprecationWarning"), *warning,
                                  "must only contain printable UTF-8 characters"));
    }
  }
  const json::object* sub = api::find_object(version, "subresources");
  const bool status_enabled =
      sub != nullptr && sub->contains("status") && !sub->at("status").is_null();
  const json::object* schema_holder = api::find_object(version, "schema");
  const json::value* schema =
      schema_holder != nullptr ? schema_holder->if_contains("openAPIV3Schema") : nullptr;
  const std::string schema_path = api::child(api::child(path, "schema"), "openAPIV3Schema");
  if (schema == nullptr || schema->is_null()) {
    errs.push_back(api::required(schema_path, "schemas are required"));
  } else {
    SchemaParseOptions options;
    options.field_path = schema_path;
    options.status_subresource_enabled = status_enabled;
    auto parsed = parse_structural_schema(*schema, options);
    if (!parsed.ok()) errs.insert(errs.end(), parsed.error().begin(), parsed.error().end());
  }
  validate_subresources(sub, api::child(path, "subresources"), errs);
  if (const json::array* cols = api::find_array(version, "additionalPrinterColumns")) {
    for (std::size_t i = 0; i < cols->size(); ++i) {
      const json::object* col = (*cols)[i].if_object();
      validate_column(col != nullptr ? *col : empty_object(),
                      api::index(api::child(path, "additionalPrinterColumns"), i), errs);
    }
  }
}

void validate_conversion(const json::object* conversion, bool require_recognized_version,
                         FieldErrors& errs) {
  if (conversion == nullptr) return;
  const std::string path = "spec.conversion";
  const std::string strategy = string_at(*conversion, "strategy");
  if (strategy.empty()) {
    errs.push_back(api::required(api::child(path, "strategy")));
  } else if (strategy != "None" && strategy != "Webhook") {
    errs.push_back(api::not_supported(api::child(path, "strategy"), json::value(strategy),
                                      {"None", "Webhook"}));
  }
  const json::object* webhook = api::find_object(*conversion, "webhook");
  const json::object* client_config =
      webhook != nullptr ? api::find_object(*webhook, "clientConfig") : nullptr;
  const std::vector<std::string> review_versions =
      webhook != nullptr ? strings_at(*webhook, "conversionReviewVersions")
                         : std::vector<std::string>{};
  if (strategy == "Webhook") {
    if (client_config == nullptr) {
      errs.push_back(api::required(api::child(path, "webhookClientConfig"),
                                   "required when strategy is set to Webhook"));
    } else {
      const bool has_url = client_config->contains("url");
      const bool has_service = client_config->contains("service");
      if (has_url == has_service) {
        errs.push_back(api::required(api::child(path, "webhookClientConfig"),
                                     "exactly one of url or service is required"));
      }
    }
    const std::string rv_path = api::child(path, "conversionReviewVersions");
    if (review_versions.empty()) {
      errs.push_back(api::required(rv_path));
    } else {
      std::set<std::string> seen;
      bool accepted = false;
      for (std::size_t i = 0; i < review_versions.size(); ++i) {
        const std::string& v = review_versions[i];
        if (!seen.insert(v).second) {
          errs.push_back(api::invalid(api::index(rv_path, i), json::value(v), "duplicate version"));
          continue;
        }
        for (const std::string& m : api::is_dns1035_label(v)) {
          errs.push_back(api::invalid(api::index(rv_path, i), json::value(v), m));
        }
        if (v == "v1" || v == "v1beta1") accepted = true;
      }
      if (require_recognized_version && !accepted) {
        json::array bad;
        for (const std::string& v : review_versions)
          bad.emplace_back(v);
        errs.push_back(api::invalid(
            rv_path, bad,
            "none of the versions accepted by this server. accepted version(s) are v1, v1beta1"));
      }
    }
  } else {
    if (client_config != nullptr) {
      errs.push_back(api::forbidden(api::child(path, "webhookClientConfig"),
                                    "should not be set when strategy is not set to Webhook"));
    }
    if (!review_versions.empty()) {
      errs.push_back(api::forbidden(api::child(path, "conversionReviewVersions"),
                                    "should not be set when strategy is not set to Webhook"));
    }
  }
}

struct SpecOptions {
  bool require_recognized_conversion_review_version = true;
  bool require_preserve_unknown_fields_false = true;
};

void validate_spec(const json::object& spec, const SpecOptions& opts, FieldErrors& errs) {
  const std::string group = string_at(spec, "group");
  if (group.empty()) {
    errs.push_back(api::required("spec.group"));
  } else if (auto msgs = api::is_dns1123_subdomain(group); !msgs.empty()) {
    errs.push_back(api::invalid("spec.group", json::value(group), join(msgs, ",")));
  } else if (group.find('.') == std::string::npos) {
    errs.push_back(
        api::invalid("spec.group", json::value(group), "should be a domain with at least one dot"));
  }

  const std::string scope = string_at(spec, "scope");
  if (scope.empty()) {
    errs.push_back(api::required("spec.scope"));
  } else if (scope != "Cluster" && scope != "Namespaced") {
    errs.push_back(api::not_supported("spec.scope", json::value(scope), {"Cluster", "Namespaced"}));
  }

  const json::array& versions = versions_of(spec);
  int storage_count = 0;
  std::set<std::string> seen;
  bool unique = true;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    const json::object& version =
        versions[i].is_object() ? versions[i].get_object() : empty_object();
    const std::string path = api::index("spec.versions", i);
    if (flag(version, "storage")) ++storage_count;
    const std::string name = string_at(version, "name");
    if (!seen.insert(name).second) unique = false;
    if (auto msgs = api::is_dns1035_label(name); !msgs.empty()) {
      errs.push_back(api::invalid(api::child(path, "name"), json::value(name), join(msgs, ",")));
    }
    validate_version(version, path, errs);
  }
  if (!unique) {
    errs.push_back(api::invalid("spec.versions", versions, "must contain unique version names"));
  }
  if (storage_count != 1) {
    errs.push_back(api::invalid("spec.versions", versions,
                                "must have exactly one version marked as storage version"));
  }

  const json::object& names = object_at(spec, "names");
  for (std::string_view n : {"plural", "singular", "kind", "listKind"}) {
    if (string_at(names, n).empty()) errs.push_back(api::required(api::child("spec.names", n)));
  }
  validate_names(names, "spec.names", errs);

  validate_conversion(api::find_object(spec, "conversion"),
                      opts.require_recognized_conversion_review_version, errs);

  if (opts.require_preserve_unknown_fields_false && flag(spec, "preserveUnknownFields")) {
    errs.push_back(api::invalid("spec.preserveUnknownFields", true,
                                "cannot set to true, set x-kubernetes-preserve-unknown-fields to "
                                "true in spec.versions[*].schema instead"));
  }
}

void validate_status(const json::object& crd, FieldErrors& errs) {
  const json::object& status = object_at(crd, "status");
  validate_names(object_at(status, "acceptedNames"), "status.acceptedNames", errs);
}

void validate_stored_versions(const json::object& crd, FieldErrors& errs) {
  const std::string path = "status.storedVersions";
  const json::array* stored_array = api::find_array(object_at(crd, "status"), "storedVersions");
  if (stored_array == nullptr || stored_array->empty()) {
    errs.push_back(api::invalid(path, json::array(), "must have at least one stored version"));
    return;
  }
  std::map<std::string, std::size_t> stored;
  for (std::size_t i = 0; i < stored_array->size(); ++i) {
    stored[std::string(api::as_string_view(&(*stored_array)[i]))] = i;
  }
  for (const json::value& v : versions_of(object_at(crd, "spec"))) {
    const json::object& version = v.is_object() ? v.get_object() : empty_object();
    const std::string name = string_at(version, "name");
    const auto it = stored.find(name);
    if (flag(version, "storage") && it == stored.end()) {
      errs.push_back(api::invalid(path, v, "must have the storage version " + name));
    }
    if (it != stored.end()) stored.erase(it);
  }
  std::vector<std::pair<std::size_t, std::string>> missing;
  for (const auto& [name, i] : stored)
    missing.emplace_back(i, name);
  std::sort(missing.begin(), missing.end());
  for (const auto& [i, name] : missing) {
    errs.push_back(
        api::invalid(api::index(path, i), json::value(name), "must appear in spec.versions"));
  }
}

void immutable(const std::string& field, const std::string& now, const std::string& before,
               FieldErrors& errs) {
  if (now != before) errs.push_back(api::invalid(field, json::value(now), "field is immutable"));
}

}  // namespace

std::vector<std::string> crd_name_problems(std::string_view name, const json::object& crd,
                                           bool prefix) {
  std::vector<std::string> out = api::name_is_dns_subdomain(name, prefix);
  const json::object& spec = object_at(crd, "spec");
  const std::string required =
      string_at(object_at(spec, "names"), "plural") + "." + string_at(spec, "group");
  if (name != required) out.emplace_back("must be spec.names.plural+\".\"+spec.group");
  return out;
}

Result<SchemaPtr, api::FieldErrors> crd_version_schema(const json::object& crd,
                                                       std::string_view version) {
  const json::array& versions = versions_of(object_at(crd, "spec"));
  for (std::size_t i = 0; i < versions.size(); ++i) {
    const json::object* v = versions[i].if_object();
    if (v == nullptr || string_at(*v, "name") != version) continue;
    const std::string path = api::index("spec.versions", i);
    const json::object* holder = api::find_object(*v, "schema");
    const json::value* schema =
        holder != nullptr ? holder->if_contains("openAPIV3Schema") : nullptr;
    SchemaParseOptions options;
    options.field_path = api::child(api::child(path, "schema"), "openAPIV3Schema");
    if (schema == nullptr || schema->is_null()) {
      return fail(api::FieldErrors{api::required(options.field_path, "schemas are required")});
    }
    const json::object* sub = api::find_object(*v, "subresources");
    options.status_subresource_enabled =
        sub != nullptr && sub->contains("status") && !sub->at("status").is_null();
    return parse_structural_schema(*schema, options);
  }
  return fail(api::FieldErrors{
      {api::FieldErrorType::kNotFound, "spec.versions", json::value(version), ""}});
}

std::string crd_storage_version(const json::object& crd) {
  for (const json::value& v : versions_of(object_at(crd, "spec"))) {
    if (v.is_object() && flag(v.get_object(), "storage")) return string_at(v.get_object(), "name");
  }
  return {};
}

api::FieldErrors validate_crd(const json::object& crd) {
  FieldErrors errs;
  const json::object& meta = object_at(crd, "metadata");
  const std::string name = string_at(meta, "name");
  const std::string generate_name = string_at(meta, "generateName");
  if (!generate_name.empty()) {
    for (const std::string& m : crd_name_problems(generate_name, crd, true)) {
      errs.push_back(api::invalid("metadata.generateName", json::value(generate_name), m));
    }
  }
  if (name.empty()) {
    errs.push_back(api::required("metadata.name", "name or generateName is required"));
  } else {
    for (const std::string& m : crd_name_problems(name, crd)) {
      errs.push_back(api::invalid("metadata.name", json::value(name), m));
    }
  }
  validate_spec(object_at(crd, "spec"), SpecOptions{}, errs);
  validate_status(crd, errs);
  validate_stored_versions(crd, errs);
  return errs;
}

api::FieldErrors validate_crd_update(const json::object& crd, const json::object& old) {
  FieldErrors errs;
  const json::object& spec = object_at(crd, "spec");
  const json::object& old_spec = object_at(old, "spec");
  SpecOptions opts;
  // Old objects keep what they were allowed to have.
  if (const json::object* conv = api::find_object(old_spec, "conversion")) {
    const json::object* webhook = api::find_object(*conv, "webhook");
    const std::vector<std::string> old_versions =
        webhook != nullptr ? strings_at(*webhook, "conversionReviewVersions")
                           : std::vector<std::string>{};
    opts.require_recognized_conversion_review_version =
        old_versions.empty() ||
        std::any_of(old_versions.begin(), old_versions.end(),
                    [](const std::string& v) { return v == "v1" || v == "v1beta1"; });
  }
  opts.require_preserve_unknown_fields_false = !flag(old_spec, "preserveUnknownFields");
  validate_spec(spec, opts, errs);
  if (crd_condition_true(old, "Established")) {
    immutable("spec.scope", string_at(spec, "scope"), string_at(old_spec, "scope"), errs);
    immutable("spec.names.kind", string_at(object_at(spec, "names"), "kind"),
              string_at(object_at(old_spec, "names"), "kind"), errs);
  }
  immutable("spec.group", string_at(spec, "group"), string_at(old_spec, "group"), errs);
  immutable("spec.names.plural", string_at(object_at(spec, "names"), "plural"),
            string_at(object_at(old_spec, "names"), "plural"), errs);
  validate_status(crd, errs);
  validate_stored_versions(crd, errs);
  return errs;
}

api::FieldErrors validate_crd_status_update(const json::object& crd) {
  FieldErrors errs;
  validate_status(crd, errs);
  return errs;
}

void crd_prepare_for_create(json::object& crd) {
  json::object status;
  if (std::string storage = crd_storage_version(crd); !storage.empty()) {
    status["storedVersions"] = json::array{json::value(storage)};
  }
  crd["status"] = std::move(status);
  api::ensure_object(crd, "metadata")["generation"] = 1;
}

void crd_prepare_for_update(json::object& crd, const json::object& old) {
  const json::value* old_status = old.if_contains("status");
  if (old_status != nullptr) {
    crd["status"] = *old_status;
  } else {
    crd.erase("status");
  }
  json::object& meta = api::ensure_object(crd, "metadata");
  const std::int64_t generation =
      api::find_int(object_at(old, "metadata"), "generation").value_or(0);
  const json::value* spec = crd.if_contains("spec");
  const json::value* old_spec = old.if_contains("spec");
  const bool changed = (spec == nullptr) != (old_spec == nullptr) ||
                       (spec != nullptr && !json_equal(*spec, *old_spec));
  meta["generation"] = changed ? generation + 1 : generation;
  const std::string storage = crd_storage_version(crd);
  if (storage.empty()) return;
  json::object& status = api::ensure_object(crd, "status");
  json::value& stored = status["storedVersions"];
  if (!stored.is_array()) stored = json::array();
  for (const json::value& v : stored.get_array()) {
    if (api::as_string_view(&v) == storage) return;
  }
  stored.get_array().emplace_back(storage);
}

}  // namespace kcm::local::crd
