#include "local/registry/volume_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <set>

#include "api/name_validation.h"
#include "api/quantity.h"
#include "local/registry/downward_api_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

void require(const json::object& src, std::string_view key, const std::string& base, Errs& errs,
             std::string_view json_key = {}) {
  if (string_member(src, json_key.empty() ? key : json_key).empty()) {
    errs.push_back(api::required(path_of(base, key)));
  }
}

void validate_partition(const json::object& src, const std::string& base, Errs& errs) {
  const std::int64_t p = int_member(src, "partition").value_or(0);
  if (p < 0 || p > 255) {
    errs.push_back(
        api::invalid(path_of(base, "partition"), json::value(p), inclusive_range_error(1, 255)));
  }
}

void validate_key_to_path(const json::object& kp, const std::string& base, Errs& errs) {
  if (string_member(kp, "key").empty()) errs.push_back(api::required(path_of(base, "key")));
  const std::string_view path = string_member(kp, "path");
  if (path.empty()) errs.push_back(api::required(path_of(base, "path")));
  validate_local_non_reserved_path(path, path_of(base, "path"), errs);
  validate_file_mode(kp, "mode", path_of(base, "mode"), errs);
}

void validate_items(const json::object& src, const std::string& base, Errs& errs) {
  if (const json::array* items = array_member(src, "items")) {
    for (std::size_t i = 0; i < items->size(); ++i) {
      static const json::object kEmpty;
      const json::object* kp = (*items)[i].if_object();
      validate_key_to_path(kp != nullptr ? *kp : kEmpty, api::index(path_of(base, "items"), i),
                           errs);
    }
  }
}

// validateDownwardAPIVolumeFile: upstream reports on the source's path, not
// the item's.
void validate_downward_api_file(const json::object& file, const std::string& base, Errs& errs) {
  const std::string_view path = string_member(file, "path");
  if (path.empty()) errs.push_back(api::required(path_of(base, "path")));
  validate_local_non_reserved_path(path, path_of(base, "path"), errs);
  const json::object* field_ref = object_member(file, "fieldRef");
  const json::object* resource_ref = object_member(file, "resourceFieldRef");
  if (field_ref != nullptr) {
    validate_object_field_selector(*field_ref, DownwardApiUse::kVolume, path_of(base, "fieldRef"),
                                   errs);
    if (resource_ref != nullptr) {
      errs.push_back(api::invalid(base, json::value("resource"),
                                  "fieldRef and resourceFieldRef can not be specified "
                                  "simultaneously"));
    }
  } else if (resource_ref != nullptr) {
    validate_resource_field_selector(*resource_ref, DownwardApiUse::kVolume,
                                     path_of(base, "resourceFieldRef"), errs);
  } else {
    errs.push_back(api::required(base, "one of fieldRef and resourceFieldRef is required"));
  }
  validate_file_mode(file, "mode", path_of(base, "mode"), errs);
}

void validate_host_path(const json::object& src, const std::string& base, Errs& errs) {
  const std::string_view path = string_member(src, "path");
  if (path.empty()) {
    errs.push_back(api::required(path_of(base, "path")));
    return;
  }
  validate_path_no_backsteps(path, path_of(base, "path"), errs);
  if (const json::value* t = member(src, "type")) {
    static const std::vector<std::string> kTypes = {
        "",     "BlockDevice",  "CharDevice", "Directory", "DirectoryOrCreate",
        "File", "FileOrCreate", "Socket"};
    const std::string type = t->is_string() ? std::string(t->get_string()) : std::string();
    if (std::find(kTypes.begin(), kTypes.end(), type) == kTypes.end()) {
      errs.push_back(api::not_supported(path_of(base, "type"), *t, kTypes));
    }
  }
}

bool iqn_format_ok(std::string_view iqn) {
  static const std::regex kIqn(R"(iqn\.\d{4}-\d{2}\.([A-Za-z0-9.\-]+)(:[^,;*&$|\s]+)$)");
  static const std::regex kEui(R"(^eui.[A-Za-z0-9]{16}$)");
  static const std::regex kNaa(R"(^naa.[A-Za-z0-9]{32}$)");
  const std::string s(iqn);
  if (iqn.starts_with("iqn")) return std::regex_search(s, kIqn);
  if (iqn.starts_with("eui")) return std::regex_search(s, kEui);
  if (iqn.starts_with("naa")) return std::regex_search(s, kNaa);
  return true;
}

bool iqn_prefix_ok(std::string_view iqn) {
  return iqn.starts_with("iqn") || iqn.starts_with("eui") || iqn.starts_with("naa");
}

void validate_iscsi(const json::object& src, const std::string& base, Errs& errs) {
  require(src, "targetPortal", base, errs);
  const std::string_view iqn = string_member(src, "iqn");
  if (iqn.empty()) {
    errs.push_back(api::required(path_of(base, "iqn")));
  } else if (!iqn_prefix_ok(iqn)) {
    errs.push_back(api::invalid(path_of(base, "iqn"), json::value(iqn),
                                "must be valid format starting with iqn, eui, or naa"));
  } else if (!iqn_format_ok(iqn)) {
    errs.push_back(api::invalid(path_of(base, "iqn"), json::value(iqn), "must be valid format"));
  }
  const std::int64_t lun = int_member(src, "lun").value_or(0);
  if (lun < 0 || lun > 255) {
    errs.push_back(
        api::invalid(path_of(base, "lun"), json::value(lun), inclusive_range_error(0, 255)));
  }
  if ((bool_member(src, "chapAuthDiscovery") || bool_member(src, "chapAuthSession")) &&
      !has(src, "secretRef")) {
    errs.push_back(api::required(path_of(base, "secretRef")));
  }
  if (const json::value* init = member(src, "initiatorName"); init && init->is_string()) {
    const std::string_view name = init->get_string();
    const std::string path = path_of(base, "initiatorname");
    if (!iqn_prefix_ok(name)) {
      errs.push_back(api::invalid(path, json::value(name),
                                  "must be valid format starting with iqn, eui, or naa"));
    }
    if (!iqn_format_ok(name)) {
      errs.push_back(api::invalid(path, json::value(name), "must be valid format"));
    }
  }
}

void validate_fc(const json::object& src, const std::string& base, Errs& errs) {
  const json::array* wwns = array_member(src, "targetWWNs");
  const json::array* wwids = array_member(src, "wwids");
  const bool has_wwns = wwns != nullptr && !wwns->empty();
  const bool has_wwids = wwids != nullptr && !wwids->empty();
  if (!has_wwns && !has_wwids) {
    errs.push_back(api::required(path_of(base, "targetWWNs"),
                                 "must specify either targetWWNs or wwids, but not both"));
  }
  if (has_wwns && has_wwids) {
    errs.push_back(api::invalid(path_of(base, "targetWWNs"), *wwns,
                                "targetWWNs and wwids can not be specified simultaneously"));
  }
  if (has_wwns) {
    if (auto lun = int_member(src, "lun"); !lun) {
      errs.push_back(
          api::required(path_of(base, "lun"), "lun is required if targetWWNs is specified"));
    } else if (*lun < 0 || *lun > 255) {
      errs.push_back(
          api::invalid(path_of(base, "lun"), json::value(*lun), inclusive_range_error(0, 255)));
    }
  }
}

void validate_flex(const json::object& src, const std::string& base, Errs& errs) {
  require(src, "driver", base, errs);
  if (const json::object* options = object_member(src, "options")) {
    for (const auto& kv : *options) {
      std::string ns(kv.key());
      if (const std::size_t slash = ns.find('/'); slash != std::string::npos) ns.resize(slash);
      std::string normalized = "." + ns;
      std::transform(normalized.begin(), normalized.end(), normalized.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io")) {
        errs.push_back(api::invalid(api::key(path_of(base, "options"), kv.key()),
                                    json::value(kv.key()),
                                    "kubernetes.io and k8s.io namespaces are reserved"));
      }
    }
  }
}

void validate_azure_disk(const json::object& src, const std::string& base, Errs& errs) {
  require(src, "diskName", base, errs);
  require(src, "diskURI", base, errs);
  if (const json::value* mode = member(src, "cachingMode")) {
    const std::string_view m = api::as_string_view(mode);
    if (m != "None" && m != "ReadOnly" && m != "ReadWrite") {
      errs.push_back(api::not_supported(path_of(base, "cachingMode"), *mode,
                                        {"None", "ReadOnly", "ReadWrite"}));
    }
  }
  const json::value* kind = member(src, "kind");
  const std::string_view k = api::as_string_view(kind);
  if (kind != nullptr && k != "Dedicated" && k != "Managed" && k != "Shared") {
    errs.push_back(
        api::not_supported(path_of(base, "kind"), *kind, {"Dedicated", "Managed", "Shared"}));
  }
  const std::string_view uri = string_member(src, "diskURI");
  if (kind != nullptr && k == "Managed" && !uri.starts_with("/subscriptions/")) {
    errs.push_back(api::not_supported(
        path_of(base, "diskURI"), json::value(uri),
        {"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/"
         "{disk-id}"}));
  }
  if (kind != nullptr && k != "Managed" && !uri.starts_with("https://")) {
    errs.push_back(
        api::not_supported(path_of(base, "diskURI"), json::value(uri),
                           {"https://{account-name}.blob.core.windows.net/{container-name}/"
                            "{disk-name}.vhd"}));
  }
}

void validate_csi(const json::object& src, const std::string& base, Errs& errs) {
  const std::string_view driver = string_member(src, "driver");
  const std::string driver_path = path_of(base, "driver");
  if (driver.empty()) errs.push_back(api::required(driver_path));
  if (driver.size() > 63) errs.push_back(api::too_long(driver_path, 63));
  std::string lower(driver);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  append_invalid(driver_path, driver, api::is_dns1123_subdomain(lower), errs);
  if (const json::object* ref = object_member(src, "nodePublishSecretRef")) {
    const std::string_view name = string_member(*ref, "name");
    if (name.empty()) {
      errs.push_back(api::required(path_of(path_of(base, "nodePublishSecretRef"), "name")));
    } else {
      append_invalid(path_of(base, "name"), name, api::name_is_dns_subdomain(name, false), errs);
    }
  }
}

void validate_projected(const json::object& src, const std::string& base, Errs& errs) {
  validate_file_mode(src, "defaultMode", path_of(base, "defaultMode"), errs);
  const json::array* sources = array_member(src, "sources");
  if (sources == nullptr) return;
  std::set<std::string> paths;
  for (std::size_t i = 0; i < sources->size(); ++i) {
    const json::object* source = (*sources)[i].if_object();
    if (source == nullptr) continue;
    const std::string src_path = api::index(path_of(base, "sources"), i);
    int count = 0;
    for (std::string_view kind : {"secret", "configMap"}) {
      const json::object* s = object_member(*source, kind);
      if (s == nullptr) continue;
      ++count;
      const std::string proj = path_of(src_path, kind);
      if (string_member(*s, "name").empty()) errs.push_back(api::required(path_of(proj, "name")));
      if (const json::array* items = array_member(*s, "items")) {
        for (std::size_t j = 0; j < items->size(); ++j) {
          static const json::object kEmpty;
          const json::object* kp = (*items)[j].if_object();
          const json::object& item = kp != nullptr ? *kp : kEmpty;
          validate_key_to_path(item, api::index(path_of(proj, "items"), j), errs);
          const std::string p(string_member(item, "path"));
          if (!p.empty() && !paths.insert(p).second) {
            errs.push_back(api::invalid(base, json::value(string_member(*s, "name")),
                                        "conflicting duplicate paths"));
          }
        }
      }
    }
    if (const json::object* d = object_member(*source, "downwardAPI")) {
      ++count;
      const std::string proj = path_of(src_path, "downwardAPI");
      if (const json::array* items = array_member(*d, "items")) {
        for (const auto& v : *items) {
          static const json::object kEmpty;
          const json::object* f = v.if_object();
          const json::object& file = f != nullptr ? *f : kEmpty;
          validate_downward_api_file(file, proj, errs);
          const std::string p(string_member(file, "path"));
          if (!p.empty() && !paths.insert(p).second) {
            errs.push_back(api::invalid(base, json::value(p), "conflicting duplicate paths"));
          }
        }
      }
    }
    if (const json::object* t = object_member(*source, "serviceAccountToken")) {
      ++count;
      const std::string proj = path_of(src_path, "serviceAccountToken");
      const std::int64_t expiration = int_member(*t, "expirationSeconds").value_or(0);
      if (expiration < 10 * 60) {
        errs.push_back(api::invalid(path_of(proj, "expirationSeconds"), json::value(expiration),
                                    "may not specify a duration less than 10 minutes"));
      }
      if (expiration > (std::int64_t{1} << 32)) {
        errs.push_back(api::invalid(path_of(proj, "expirationSeconds"), json::value(expiration),
                                    "may not specify a duration larger than 2^32 seconds"));
      }
      const std::string_view p = string_member(*t, "path");
      if (p.empty()) {
        errs.push_back(api::required(path_of(base, "path")));
      } else {
        validate_local_non_reserved_path(p, path_of(base, "path"), errs);
      }
    }
    if (const json::object* b = object_member(*source, "clusterTrustBundle")) {
      ++count;
      const std::string proj = path_of(src_path, "clusterTrustBundle");
      const bool using_name = has(*b, "name");
      const bool using_signer = has(*b, "signerName");
      if (using_name && using_signer) {
        errs.push_back(api::invalid(proj, *source->if_contains("clusterTrustBundle"),
                                    "only one of name and signerName may be used"));
      } else if (using_name) {
        if (string_member(*b, "name").empty()) {
          errs.push_back(api::required(path_of(proj, "name"), "must be a valid object name"));
        }
        if (has(*b, "labelSelector")) {
          errs.push_back(api::invalid(path_of(proj, "labelSelector"), *member(*b, "labelSelector"),
                                      "labelSelector must be unset if name is specified"));
        }
      } else if (using_signer) {
        if (string_member(*b, "signerName").empty()) {
          errs.push_back(api::required(path_of(proj, "signerName"), "must be a valid signer name"));
        }
      } else {
        errs.push_back(api::required(proj, "either name or signerName must be specified"));
      }
      const std::string_view p = string_member(*b, "path");
      if (p.empty()) errs.push_back(api::required(path_of(proj, "path")));
      validate_local_non_reserved_path(p, path_of(proj, "path"), errs);
      if (!paths.insert(std::string(p)).second) {
        errs.push_back(api::invalid(base, json::value(p), "conflicting duplicate paths"));
      }
    }
    if (count > 1) {
      errs.push_back(
          api::forbidden(src_path, "may not specify more than 1 volume type per source"));
    }
  }
}

void validate_pvc_template(const json::object& tmpl, const std::string& base, Errs& errs) {
  const std::string meta_path = path_of(base, "metadata");
  if (const json::object* meta = object_member(tmpl, "metadata")) {
    if (const json::object* a = object_member(*meta, "annotations")) {
      append(errs, api::validate_annotations(*a, path_of(meta_path, "annotations")));
    }
    if (const json::object* l = object_member(*meta, "labels")) {
      append(errs, api::validate_labels(*l, path_of(meta_path, "labels")));
    }
    for (const auto& kv : *meta) {
      if (kv.key() == "labels" || kv.key() == "annotations" || kv.value().is_null()) continue;
      errs.push_back(api::forbidden(path_of(meta_path, kv.key()), "cannot be set"));
    }
  }
  static const json::object kEmpty;
  const json::object* s = object_member(tmpl, "spec");
  const json::object& spec = s != nullptr ? *s : kEmpty;
  const std::string spec_path = path_of(base, "spec");
  const json::array* modes = array_member(spec, "accessModes");
  if (modes == nullptr || modes->empty()) {
    errs.push_back(
        api::required(path_of(spec_path, "accessModes"), "at least 1 access mode is required"));
  }
  const std::string storage_path = api::key(path_of(spec_path, "resources"), "storage");
  const json::object* res = object_member(spec, "resources");
  const json::object* requests = res != nullptr ? object_member(*res, "requests") : nullptr;
  const json::value* storage = requests != nullptr ? member(*requests, "storage") : nullptr;
  if (storage == nullptr) {
    errs.push_back(api::required(storage_path));
  } else if (auto q = api::Quantity::from_json(*storage); !q) {
    errs.push_back(api::invalid(storage_path, *storage, q.error()));
  } else if (q->sign() <= 0) {
    errs.push_back(
        api::invalid(storage_path, json::value(q->to_string()), std::string(kNotPositiveErrorMsg)));
  }
}

struct SourceRule {
  std::string_view key;       // the JSON member
  std::string_view err_name;  // the path upstream reports "more than 1 volume type" on
  std::function<void(const json::object&, const std::string& /*base*/, Errs&)> validate;
};

}  // namespace

api::FieldErrors validate_volumes(const json::array* volumes, std::string_view pod_name,
                                  std::string_view field, bool resource_is_pod, VolumeMap& out) {
  Errs all;
  if (volumes == nullptr) return all;
  std::set<std::string> created_pvcs;
  if (!pod_name.empty()) {
    for (const auto& v : *volumes) {
      const json::object* vol = v.if_object();
      if (vol != nullptr && has(*vol, "ephemeral")) {
        created_pvcs.insert(std::string(pod_name) + "-" + std::string(string_member(*vol, "name")));
      }
    }
  }
  const std::vector<SourceRule> rules = {
      {"emptyDir", "emptyDir",
       [](const json::object& s, const std::string& base, Errs& errs) {
         if (const json::value* limit = member(s, "sizeLimit")) {
           auto q = api::Quantity::from_json(*limit);
           if (!q || q->sign() < 0) {
             errs.push_back(api::forbidden(path_of(base, "sizeLimit"),
                                           "SizeLimit field must be a valid resource quantity"));
           }
         }
       }},
      {"hostPath", "hostPath", validate_host_path},
      {"gitRepo", "gitRepo",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "repository", base, errs);
         validate_local_descending_path(string_member(s, "directory"), path_of(base, "directory"),
                                        errs);
       }},
      {"gcePersistentDisk", "gcePersistentDisk",
       [](const json::object& s, const std::string& base, Errs& errs) {
         // Upstream reports these on "persistentDisk".
         const std::string p = base.substr(0, base.rfind('.')) + ".persistentDisk";
         require(s, "pdName", p, errs);
         validate_partition(s, p, errs);
       }},
      {"awsElasticBlockStore", "awsElasticBlockStore",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "volumeID", base, errs);
         validate_partition(s, base, errs);
       }},
      {"secret", "secret",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "secretName", base, errs);
         validate_file_mode(s, "defaultMode", path_of(base, "defaultMode"), errs);
         validate_items(s, base, errs);
       }},
      {"nfs", "nfs",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "server", base, errs);
         const std::string_view path = string_member(s, "path");
         if (path.empty()) errs.push_back(api::required(path_of(base, "path")));
         if (!path.starts_with("/")) {
           errs.push_back(
               api::invalid(path_of(base, "path"), json::value(path), "must be an absolute path"));
         }
       }},
      {"iscsi", "iscsi", validate_iscsi},
      {"glusterfs", "glusterfs",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "endpoints", base, errs);
         require(s, "path", base, errs);
       }},
      {"flocker", "flocker",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const std::string_view name = string_member(s, "datasetName");
         const std::string_view uuid = string_member(s, "datasetUUID");
         if (name.empty() && uuid.empty()) {
           errs.push_back(api::required(base, "one of datasetName and datasetUUID is required"));
         }
         if (!name.empty() && !uuid.empty()) {
           errs.push_back(api::invalid(base, json::value("resource"),
                                       "datasetName and datasetUUID can not be specified "
                                       "simultaneously"));
         }
         if (name.find('/') != std::string_view::npos) {
           errs.push_back(api::invalid(path_of(base, "datasetName"), json::value(name),
                                       "must not contain '/'"));
         }
       }},
      {"persistentVolumeClaim", "persistentVolumeClaim",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "claimName", base, errs);
       }},
      {"rbd", "rbd",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const json::array* monitors = array_member(s, "monitors");
         if (monitors == nullptr || monitors->empty()) {
           errs.push_back(api::required(path_of(base, "monitors")));
         }
         require(s, "image", base, errs);
       }},
      {"cinder", "cinder",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "volumeID", base, errs);
         if (const json::object* ref = object_member(s, "secretRef")) {
           if (string_member(*ref, "name").empty()) {
             errs.push_back(api::required(path_of(path_of(base, "secretRef"), "name")));
           }
         }
       }},
      {"cephfs", "cephFS",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const json::array* monitors = array_member(s, "monitors");
         if (monitors == nullptr || monitors->empty()) {
           errs.push_back(api::required(path_of(base, "monitors")));
         }
       }},
      {"quobyte", "quobyte",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const std::string_view registry = string_member(s, "registry");
         if (registry.empty()) {
           errs.push_back(
               api::required(path_of(base, "registry"),
                             "must be a host:port pair or multiple pairs separated by commas"));
         } else if (string_member(s, "tenant").size() >= 65) {
           errs.push_back(
               api::required(path_of(base, "tenant"),
                             "must be a UUID and may not exceed a length of 64 characters"));
         } else {
           std::size_t start = 0;
           while (true) {
             const std::size_t comma = registry.find(',', start);
             const std::string_view pair =
                 registry.substr(start, comma == std::string_view::npos ? comma : comma - start);
             if (pair.find(':') == std::string_view::npos) {
               errs.push_back(
                   api::invalid(path_of(base, "registry"), json::value(registry),
                                "must be a host:port pair or multiple pairs separated by commas"));
             }
             if (comma == std::string_view::npos) break;
             start = comma + 1;
           }
         }
         require(s, "volume", base, errs);
       }},
      {"downwardAPI", "downwarAPI",
       [](const json::object& s, const std::string& base, Errs& errs) {
         validate_file_mode(s, "defaultMode", path_of(base, "defaultMode"), errs);
         if (const json::array* items = array_member(s, "items")) {
           for (const auto& v : *items) {
             static const json::object kEmpty;
             const json::object* f = v.if_object();
             validate_downward_api_file(f != nullptr ? *f : kEmpty, base, errs);
           }
         }
       }},
      {"fc", "fc", validate_fc},
      {"flexVolume", "flexVolume", validate_flex},
      {"configMap", "configMap",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "name", base, errs);
         validate_file_mode(s, "defaultMode", path_of(base, "defaultMode"), errs);
         validate_items(s, base, errs);
       }},
      {"azureFile", "azureFile",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "secretName", base, errs);
         require(s, "shareName", base, errs);
       }},
      {"vsphereVolume", "vsphereVolume",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "volumePath", base, errs);
       }},
      {"photonPersistentDisk", "photonPersistentDisk",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "pdID", base, errs);
       }},
      {"portworxVolume", "portworxVolume",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "volumeID", base, errs);
       }},
      {"azureDisk", "azureDisk", validate_azure_disk},
      {"storageos", "storageos",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const std::string_view name = string_member(s, "volumeName");
         if (name.empty()) {
           errs.push_back(api::required(path_of(base, "volumeName")));
         } else {
           validate_dns1123_label(name, path_of(base, "volumeName"), errs);
         }
         const std::string_view ns = string_member(s, "volumeNamespace");
         if (!ns.empty()) validate_dns1123_label(ns, path_of(base, "volumeNamespace"), errs);
         if (const json::object* ref = object_member(s, "secretRef")) {
           if (string_member(*ref, "name").empty()) {
             errs.push_back(api::required(path_of(path_of(base, "secretRef"), "name")));
           }
         }
       }},
      {"projected", "projected", validate_projected},
      {"scaleIO", "scaleIO",
       [](const json::object& s, const std::string& base, Errs& errs) {
         require(s, "gateway", base, errs);
         require(s, "system", base, errs);
         require(s, "volumeName", base, errs);
       }},
      {"csi", "csi", validate_csi},
      {"ephemeral", "ephemeral",
       [](const json::object& s, const std::string& base, Errs& errs) {
         const json::object* tmpl = object_member(s, "volumeClaimTemplate");
         if (tmpl == nullptr) {
           errs.push_back(api::required(path_of(base, "volumeClaimTemplate")));
         } else {
           validate_pvc_template(*tmpl, path_of(base, "volumeClaimTemplate"), errs);
         }
       }},
  };

  for (std::size_t i = 0; i < volumes->size(); ++i) {
    static const json::object kEmpty;
    const json::object* v = (*volumes)[i].if_object();
    const json::object& vol = v != nullptr ? *v : kEmpty;
    const std::string idx_path = api::index(field, i);
    const std::string name_path = path_of(idx_path, "name");
    const std::string name(string_member(vol, "name"));
    Errs el;
    int count = 0;
    for (const auto& rule : rules) {
      const json::object* src = object_member(vol, rule.key);
      if (src == nullptr) continue;
      if (count > 0) {
        el.push_back(api::forbidden(path_of(idx_path, rule.err_name),
                                    "may not specify more than 1 volume type"));
        continue;
      }
      ++count;
      rule.validate(*src, path_of(idx_path, rule.key), el);
      if (rule.key == "iscsi" && has(*src, "initiatorName") &&
          (name + ":" + std::string(string_member(*src, "targetPortal"))).size() > 64) {
        el.push_back(api::invalid(name_path, json::value(name),
                                  "Total length of <volume name>:<iscsi.targetPortal> must be "
                                  "under 64 characters if iscsi.initiatorName is specified."));
      }
      if (rule.key == "ephemeral" && !pod_name.empty() && !name.empty()) {
        const std::string pvc = std::string(pod_name) + "-" + name;
        for (const auto& msg : api::name_is_dns_subdomain(pvc, false)) {
          el.push_back(api::invalid(name_path, json::value(name),
                                    fmt::format("PVC name {}: {}", api::go_quote(pvc), msg)));
        }
      }
    }
    if (const json::object* img = object_member(vol, "image")) {
      if (count > 0) {
        el.push_back(
            api::forbidden(path_of(idx_path, "image"), "may not specify more than 1 volume type"));
      } else {
        ++count;
        const std::string base = path_of(idx_path, "image");
        if (resource_is_pod && string_member(*img, "reference").empty()) {
          el.push_back(api::required(path_of(base, "reference")));
        }
        const std::string_view policy = string_member(*img, "pullPolicy");
        if (policy.empty()) {
          el.push_back(api::required(path_of(base, "pullPolicy")));
        } else if (policy != "Always" && policy != "IfNotPresent" && policy != "Never") {
          el.push_back(api::not_supported(path_of(base, "pullPolicy"), json::value(policy),
                                          {"Always", "IfNotPresent", "Never"}));
        }
      }
    }
    if (count == 0) el.push_back(api::required(idx_path, "must specify a volume type"));
    if (name.empty()) {
      el.push_back(api::required(name_path));
    } else {
      validate_dns1123_label(name, name_path, el);
    }
    if (out.contains(name)) el.push_back(api::duplicate(name_path, json::value(name)));
    if (el.empty()) {
      out[name] =
          VolumeInfo{has(vol, "persistentVolumeClaim") || has(vol, "ephemeral"), has(vol, "image")};
    } else {
      append(all, std::move(el));
    }
    if (const json::object* pvc = object_member(vol, "persistentVolumeClaim")) {
      const std::string claim(string_member(*pvc, "claimName"));
      if (created_pvcs.contains(claim)) {
        all.push_back(api::invalid(path_of(path_of(idx_path, "persistentVolumeClaim"), "claimName"),
                                   json::value(claim),
                                   "must not reference a PVC that gets created for an ephemeral "
                                   "volume"));
      }
    }
  }
  return all;
}

}  // namespace kcm::local::registry
