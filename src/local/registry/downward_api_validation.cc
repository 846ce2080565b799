#include "local/registry/downward_api_validation.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "api/name_validation.h"
#include "api/quantity.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

const std::vector<std::string> kVolumeFieldPaths = {"metadata.annotations", "metadata.labels",
                                                    "metadata.name", "metadata.namespace",
                                                    "metadata.uid"};
const std::vector<std::string> kEnvFieldPaths = {"metadata.name",
                                                 "metadata.namespace",
                                                 "metadata.uid",
                                                 "spec.nodeName",
                                                 "spec.serviceAccountName",
                                                 "status.hostIP",
                                                 "status.hostIPs",
                                                 "status.podIP",
                                                 "status.podIPs"};
const std::vector<std::string> kResourceFieldPaths = {
    "limits.cpu",   "limits.ephemeral-storage",   "limits.memory",
    "requests.cpu", "requests.ephemeral-storage", "requests.memory"};

// fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['app']".
bool split_subscript(std::string_view path, std::string_view& base, std::string_view& key) {
  if (!path.ends_with("']")) return false;
  path.remove_suffix(2);
  const std::size_t open = path.find("['");
  if (open == std::string_view::npos || open == 0) return false;
  base = path.substr(0, open);
  key = path.substr(open + 2);
  return true;
}

bool contains(const std::vector<std::string>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

}  // namespace

void validate_object_field_selector(const json::object& ref, DownwardApiUse use,
                                    std::string_view field, api::FieldErrors& errs) {
  const std::string_view api_version = string_member(ref, "apiVersion");
  const std::string_view field_path = string_member(ref, "fieldPath");
  if (api_version.empty()) {
    errs.push_back(api::required(path_of(field, "apiVersion")));
    return;
  }
  if (field_path.empty()) {
    errs.push_back(api::required(path_of(field, "fieldPath")));
    return;
  }
  // podshelper.ConvertDownwardAPIFieldLabel.
  std::string label(field_path);
  std::string error;
  std::string_view base, key;
  const bool subscripted = split_subscript(field_path, base, key);
  if (api_version != "v1") {
    error = "unsupported pod version: " + std::string(api_version);
  } else if (subscripted) {
    if (base != "metadata.annotations" && base != "metadata.labels") {
      error = "field label does not support subscript: " + label;
    }
  } else if (label == "spec.host") {
    label = "spec.nodeName";
  } else {
    static const std::array<std::string_view, 14> kKnown = {
        "metadata.annotations", "metadata.labels", "metadata.name",      "metadata.namespace",
        "metadata.uid",         "spec.nodeName",   "spec.restartPolicy", "spec.serviceAccountName",
        "spec.schedulerName",   "status.phase",    "status.hostIP",      "status.hostIPs",
        "status.podIP",         "status.podIPs"};
    if (std::find(kKnown.begin(), kKnown.end(), label) == kKnown.end()) {
      error = "field label not supported: " + label;
    }
  }
  if (!error.empty()) {
    errs.push_back(api::invalid(path_of(field, "fieldPath"), json::value(field_path),
                                "error converting fieldPath: " + error));
    return;
  }
  if (subscripted) {
    if (base == "metadata.annotations") {
      std::string lower(key);
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      validate_qualified_name(lower, field, errs);
    } else {
      validate_qualified_name(key, field, errs);
    }
    return;
  }
  const auto& allowed = use == DownwardApiUse::kEnv ? kEnvFieldPaths : kVolumeFieldPaths;
  if (!contains(allowed, label)) {
    errs.push_back(api::not_supported(path_of(field, "fieldPath"), json::value(label), allowed));
  }
}

void validate_resource_field_selector(const json::object& ref, DownwardApiUse use,
                                      std::string_view field, api::FieldErrors& errs) {
  const std::string_view resource = string_member(ref, "resource");
  if (use == DownwardApiUse::kVolume && string_member(ref, "containerName").empty()) {
    errs.push_back(api::required(path_of(field, "containerName")));
  } else if (resource.empty()) {
    errs.push_back(api::required(path_of(field, "resource")));
  } else if (!contains(kResourceFieldPaths, resource) &&
             !resource.starts_with("requests.hugepages-") &&
             !resource.starts_with("limits.hugepages-")) {
    errs.push_back(
        api::not_supported(path_of(field, "resource"), json::value(resource), kResourceFieldPaths));
  }
  const json::value* divisor = member(ref, "divisor");
  if (divisor == nullptr) return;
  auto q = api::Quantity::from_json(*divisor);
  if (!q) {
    errs.push_back(api::invalid(path_of(field, "divisor"), *divisor, q.error()));
    return;
  }
  if (q->is_zero()) return;
  const std::string d = q->to_string();
  static const std::array<std::string_view, 13> kSizes = {
      "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"};
  const bool size_ok = std::find(kSizes.begin(), kSizes.end(), d) != kSizes.end();
  const std::string path = path_of(field, "divisor");
  if (resource == "limits.cpu" || resource == "requests.cpu") {
    if (d != "1m" && d != "1") {
      errs.push_back(api::invalid(path, json::value(resource),
                                  "only divisor's values 1m and 1 are supported with the cpu "
                                  "resource"));
    }
  } else if (resource == "limits.memory" || resource == "requests.memory") {
    if (!size_ok) {
      errs.push_back(api::invalid(path, json::value(resource),
                                  "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, "
                                  "1Ti, 1Pi, 1Ei are supported with the memory resource"));
    }
  } else if (resource == "limits.ephemeral-storage" || resource == "requests.ephemeral-storage") {
    if (!size_ok) {
      errs.push_back(api::invalid(path, json::value(resource),
                                  "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, "
                                  "1Ti, 1Pi, 1Ei are supported with the local ephemeral storage "
                                  "resource"));
    }
  }
  if ((resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-")) &&
      !size_ok) {
    errs.push_back(api::invalid(path, json::value(resource),
                                "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, "
                                "1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
  }
}

}  // namespace kcm::local::registry
