#include "local/registry/security_context_validation.h"

#include <set>
#include <string>

#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

constexpr std::size_t kSysctlMaxLength = 253;

// ([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?
bool is_valid_sysctl_name(std::string_view name) {
  if (name.empty() || name.size() > kSysctlMaxLength) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  std::size_t start = 0;
  while (true) {
    const std::size_t sep = name.find_first_of("./", start);
    const std::string_view seg =
        name.substr(start, sep == std::string_view::npos ? sep : sep - start);
    if (seg.empty() || !alnum(seg.front()) || !alnum(seg.back())) return false;
    for (char c : seg) {
      if (!alnum(c) && c != '-' && c != '_') return false;
    }
    if (sep == std::string_view::npos) return true;
    start = sep + 1;
  }
}

enum class SysctlNamespace { kUnknown, kNet, kIpc };

// component-helpers' sysctl.GetNamespace (names may use '/' for '.').
SysctlNamespace sysctl_namespace(std::string_view name) {
  std::string n(name);
  if (n.find('/') != std::string::npos && (n.empty() || n[0] != '/')) {
    for (char& c : n)
      c = c == '/' ? '.' : c;
  }
  if (n.starts_with("net.")) return SysctlNamespace::kNet;
  if (n == "kernel.sem" || n.starts_with("kernel.shm") || n.starts_with("kernel.msg") ||
      n.starts_with("fs.mqueue.")) {
    return SysctlNamespace::kIpc;
  }
  return SysctlNamespace::kUnknown;
}

void validate_ids(const json::object& sc, std::string_view field, api::FieldErrors& errs,
                  bool with_fs_group) {
  if (with_fs_group) {
    if (auto g = int_member(sc, "fsGroup")) {
      for (const auto& msg : is_valid_group_id(*g)) {
        errs.push_back(api::invalid(path_of(field, "fsGroup"), json::value(*g), msg));
      }
    }
  }
  if (auto u = int_member(sc, "runAsUser")) {
    for (const auto& msg : is_valid_user_id(*u)) {
      errs.push_back(api::invalid(path_of(field, "runAsUser"), json::value(*u), msg));
    }
  }
  if (auto g = int_member(sc, "runAsGroup")) {
    for (const auto& msg : is_valid_group_id(*g)) {
      errs.push_back(api::invalid(path_of(field, "runAsGroup"), json::value(*g), msg));
    }
  }
}

void validate_enum(const json::object& o, std::string_view key, std::string_view field,
                   const std::vector<std::string>& supported, api::FieldErrors& errs) {
  const json::value* v = member(o, key);
  if (v == nullptr) return;
  const std::string s = v->is_string() ? std::string(v->get_string()) : std::string();
  for (const auto& ok : supported) {
    if (s == ok) return;
  }
  errs.push_back(api::not_supported(std::string(field), *v, supported));
}

}  // namespace

void validate_seccomp_profile(const json::object* profile, std::string_view field,
                              api::FieldErrors& errs) {
  if (profile == nullptr) return;
  const std::string_view type = string_member(*profile, "type");
  const std::string type_path = path_of(field, "type");
  if (type.empty()) {
    errs.push_back(api::required(type_path, "type is required when seccompProfile is set"));
  } else if (type != "Localhost" && type != "RuntimeDefault" && type != "Unconfined") {
    errs.push_back(api::not_supported(type_path, json::value(type),
                                      {"Localhost", "RuntimeDefault", "Unconfined"}));
  }
  const std::string lp_path = path_of(field, "localhostProfile");
  const json::value* lp = member(*profile, "localhostProfile");
  if (type == "Localhost") {
    if (lp == nullptr) {
      errs.push_back(api::required(lp_path, "must be set when seccomp type is Localhost"));
    } else {
      validate_local_descending_path(string_member(*profile, "localhostProfile"), lp_path, errs);
    }
  } else if (lp != nullptr) {
    errs.push_back(api::invalid(lp_path, json::value(*profile),
                                "can only be set when seccomp type is Localhost"));
  }
}

void validate_app_armor_profile(const json::object* profile, std::string_view field,
                                api::FieldErrors& errs) {
  if (profile == nullptr) return;
  const std::string_view type = string_member(*profile, "type");
  const std::string lp_path = path_of(field, "localhostProfile");
  const json::value* lp = member(*profile, "localhostProfile");
  if (type == "Localhost") {
    if (lp == nullptr) {
      errs.push_back(api::required(lp_path, "must be set when AppArmor type is Localhost"));
    } else {
      const std::string_view p = api::as_string_view(lp);
      const std::size_t first = p.find_first_not_of(" \t\n\r\v\f");
      const std::size_t last = p.find_last_not_of(" \t\n\r\v\f");
      const std::string_view trimmed =
          first == std::string_view::npos ? std::string_view() : p.substr(first, last - first + 1);
      if (trimmed != p) {
        errs.push_back(api::invalid(lp_path, json::value(p), "must not be padded with whitespace"));
      } else if (trimmed.empty()) {
        errs.push_back(api::required(lp_path, "must be set when AppArmor type is Localhost"));
      }
      if (p.size() > 4095) errs.push_back(api::too_long(lp_path, 4095));
    }
  } else if (type == "RuntimeDefault" || type == "Unconfined") {
    if (lp != nullptr) {
      errs.push_back(api::invalid(lp_path, *lp, "can only be set when AppArmor type is Localhost"));
    }
  } else if (type.empty()) {
    errs.push_back(
        api::required(path_of(field, "type"), "type is required when appArmorProfile is set"));
  } else {
    errs.push_back(api::not_supported(path_of(field, "type"), json::value(type),
                                      {"Localhost", "RuntimeDefault", "Unconfined"}));
  }
}

void validate_pod_security_context(const json::object& spec, std::string_view spec_field,
                                   const PodValidationOptions& opts, api::FieldErrors& errs) {
  const json::object* sc = object_member(spec, "securityContext");
  if (sc == nullptr) return;
  const std::string field = path_of(spec_field, "securityContext");
  validate_ids(*sc, field, errs, true);
  if (const json::array* groups = array_member(*sc, "supplementalGroups")) {
    for (std::size_t i = 0; i < groups->size(); ++i) {
      const json::value& g = (*groups)[i];
      const std::int64_t gid =
          g.is_int64() ? g.get_int64()
                       : (g.is_uint64() ? static_cast<std::int64_t>(g.get_uint64()) : 0);
      for (const auto& msg : is_valid_group_id(gid)) {
        errs.push_back(api::invalid(api::index(path_of(field, "supplementalGroups"), i), g, msg));
      }
    }
  }
  if (opt_bool_member(spec, "shareProcessNamespace").value_or(false) &&
      bool_member(spec, "hostPID")) {
    errs.push_back(api::invalid(path_of(field, "shareProcessNamespace"), json::value(true),
                                "ShareProcessNamespace and HostPID cannot both be enabled"));
  }
  if (const json::array* sysctls = array_member(*sc, "sysctls"); sysctls && !sysctls->empty()) {
    std::set<std::string> names;
    const std::string base = path_of(field, "sysctls");
    for (std::size_t i = 0; i < sysctls->size(); ++i) {
      static const json::object kEmpty;
      const json::object* s = (*sysctls)[i].if_object();
      const std::string name(string_member(s != nullptr ? *s : kEmpty, "name"));
      const std::string name_path = path_of(api::index(base, i), "name");
      if (name.empty()) {
        errs.push_back(api::required(name_path));
      } else if (!is_valid_sysctl_name(name)) {
        errs.push_back(api::invalid(
            name_path, json::value(name),
            "must have at most 253 characters and match regex "
            "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"));
      } else if (names.contains(name)) {
        errs.push_back(api::duplicate(name_path, json::value(name)));
      }
      if (!opts.allow_namespaced_sysctls_for_host_net_and_host_ipc) {
        const SysctlNamespace ns = sysctl_namespace(name);
        if (bool_member(spec, "hostNetwork") && ns == SysctlNamespace::kNet) {
          errs.push_back(api::invalid(name_path, json::value(name),
                                      "may not be specified when 'hostNetwork' is true"));
        } else if (bool_member(spec, "hostIPC") && ns == SysctlNamespace::kIpc) {
          errs.push_back(api::invalid(name_path, json::value(name),
                                      "may not be specified when 'hostIPC' is true"));
        }
      }
      names.insert(name);
    }
  }
  validate_enum(*sc, "fsGroupChangePolicy", path_of(field, "fsGroupChangePolicy"),
                {"Always", "OnRootMismatch"}, errs);
  validate_seccomp_profile(object_member(*sc, "seccompProfile"), path_of(field, "seccompProfile"),
                           errs);
  validate_app_armor_profile(object_member(*sc, "appArmorProfile"),
                             path_of(field, "appArmorProfile"), errs);
  validate_enum(*sc, "supplementalGroupsPolicy", path_of(field, "supplementalGroupsPolicy"),
                {"Merge", "Strict"}, errs);
  validate_enum(*sc, "seLinuxChangePolicy", path_of(field, "seLinuxChangePolicy"),
                {"MountOption", "Recursive"}, errs);
}

void validate_container_security_context(const json::object* sc, std::string_view field,
                                         bool host_users, api::FieldErrors& errs) {
  if (sc == nullptr) return;
  validate_ids(*sc, field, errs, false);
  if (const json::value* pm = member(*sc, "procMount")) {
    const std::string_view m = api::as_string_view(pm);
    if (m != "Default" && m != "Unmasked") {
      errs.push_back(api::not_supported(path_of(field, "procMount"), *pm, {"Default", "Unmasked"}));
    }
    if (host_users && m == "Unmasked") {
      errs.push_back(api::invalid(path_of(field, "procMount"), *pm,
                                  "`hostUsers` must be false to use `Unmasked`"));
    }
  }
  validate_seccomp_profile(object_member(*sc, "seccompProfile"), path_of(field, "seccompProfile"),
                           errs);
  if (opt_bool_member(*sc, "allowPrivilegeEscalation") == false) {
    // Upstream prints the internal SecurityContext struct; its JSON stands in.
    if (opt_bool_member(*sc, "privileged") == true) {
      errs.push_back(
          api::invalid(std::string(field), json::value(*sc),
                       "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
    }
    if (const json::object* caps = object_member(*sc, "capabilities")) {
      if (const json::array* add = array_member(*caps, "add")) {
        for (const auto& c : *add) {
          if (c.is_string() && c.get_string() == "CAP_SYS_ADMIN") {
            errs.push_back(api::invalid(
                std::string(field), json::value(*sc),
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` "
                "CAP_SYS_ADMIN"));
          }
        }
      }
    }
  }
  validate_app_armor_profile(object_member(*sc, "appArmorProfile"),
                             path_of(field, "appArmorProfile"), errs);
}

}  // namespace kcm::local::registry
