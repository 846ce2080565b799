#include "local/registry/pod_validation.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include "api/name_validation.h"
#include "api/quantity.h"
#include "local/registry/container_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/resource_names.h"
#include "local/registry/resource_validation.h"
#include "local/registry/scheduling_validation.h"
#include "local/registry/security_context_validation.h"
#include "local/registry/validation_common.h"
#include "local/registry/volume_validation.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

constexpr std::string_view kMirrorPodAnnotation = "kubernetes.io/config.mirror";
constexpr std::string_view kTolerationsAnnotation = "scheduler.alpha.kubernetes.io/tolerations";
constexpr std::string_view kDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";
constexpr std::string_view kSeccompPodAnnotation = "seccomp.security.alpha.kubernetes.io/pod";
constexpr std::string_view kSeccompContainerPrefix =
    "container.seccomp.security.alpha.kubernetes.io/";
constexpr std::string_view kAppArmorContainerPrefix =
    "container.apparmor.security.beta.kubernetes.io/";

// podshelper.VisitContainersWithPath: init, regular, then ephemeral containers.
void visit_containers(const json::object& spec, std::string_view field,
                      const std::function<void(const json::object&, const std::string&)>& fn) {
  for (std::string_view key : {"initContainers", "containers", "ephemeralContainers"}) {
    if (const json::array* list = array_member(spec, key)) {
      for (std::size_t i = 0; i < list->size(); ++i) {
        fn(object_or_empty((*list)[i]), api::index(path_of(field, key), i));
      }
    }
  }
}

// GetDeletionCostFromPodAnnotations succeeds.
bool valid_deletion_cost(std::string_view v) {
  if (v.empty()) return false;
  if (!(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9'))) return false;
  std::size_t i = v[0] == '-' ? 1 : 0;
  if (i == v.size()) return false;
  std::int64_t n = 0;
  for (; i < v.size(); ++i) {
    if (v[i] < '0' || v[i] > '9') return false;
    n = n * 10 + (v[i] - '0');
    if (n > (std::int64_t{1} << 31)) return false;
  }
  return v[0] == '-' ? n <= (std::int64_t{1} << 31) : n < (std::int64_t{1} << 31);
}

void validate_seccomp_annotation(std::string_view p, std::string_view field, Errs& errs) {
  if (p == "runtime/default" || p == "docker/default" || p == "unconfined") return;
  if (p.starts_with("localhost/")) {
    validate_local_descending_path(p.substr(10), field, errs);
    return;
  }
  errs.push_back(
      api::invalid(std::string(field), json::value(p), "must be a valid seccomp profile"));
}

void validate_resource_claims(const json::object& spec, std::string_view field, Errs& errs,
                              std::set<std::string>& names) {
  const json::array* claims = array_member(spec, "resourceClaims");
  if (claims == nullptr) return;
  for (std::size_t i = 0; i < claims->size(); ++i) {
    const json::object& claim = object_or_empty((*claims)[i]);
    const std::string idx = api::index(field, i);
    const std::string name(string_member(claim, "name"));
    if (name.empty()) {
      errs.push_back(api::required(path_of(idx, "name")));
    } else if (names.contains(name)) {
      errs.push_back(api::duplicate(path_of(idx, "name"), json::value(name)));
    } else {
      validate_dns1123_label(name, path_of(idx, "name"), errs);
      names.insert(name);
    }
    const json::value* claim_name = member(claim, "resourceClaimName");
    const json::value* template_name = member(claim, "resourceClaimTemplateName");
    if (claim_name != nullptr && template_name != nullptr) {
      errs.push_back(api::invalid(idx, (*claims)[i],
                                  "at most one of `resourceClaimName` or "
                                  "`resourceClaimTemplateName` may be specified"));
    }
    if (claim_name == nullptr && template_name == nullptr) {
      errs.push_back(api::invalid(idx, (*claims)[i],
                                  "must specify one of: `resourceClaimName`, "
                                  "`resourceClaimTemplateName`"));
    }
    for (std::string_view key : {"resourceClaimName", "resourceClaimTemplateName"}) {
      if (!has(claim, key)) continue;
      const std::string_view n = string_member(claim, key);
      append_invalid(path_of(idx, key), n, api::name_is_dns_subdomain(n, false), errs);
    }
  }
}

// validatePodResources (PodLevelResources): pod-level requests and limits,
// and their consistency with the containers'.
void validate_pod_resources(const json::object& spec, std::string_view field,
                            const std::set<std::string>& claim_names, Errs& errs) {
  const json::object* resources = object_member(spec, "resources");
  if (resources == nullptr) return;
  if (has(*resources, "claims")) {
    errs.push_back(api::forbidden(path_of(field, "claims"),
                                  "claims cannot be set for Resources at pod-level"));
  }
  validate_resource_requirements(resources, field, claim_names, ResourceLevel::kPod, errs);
  // Aggregate container requests (sidecars add up, init containers peak).
  std::map<std::string, api::Quantity> total, sidecars, init_max;
  auto add = [](std::map<std::string, api::Quantity>& into, const json::object* list) {
    if (list == nullptr) return;
    for (const auto& kv : *list) {
      auto q = api::Quantity::from_json(kv.value());
      if (!q) continue;
      auto [it, inserted] = into.try_emplace(std::string(kv.key()), *q);
      if (!inserted) it->second.add(*q);
    }
  };
  auto max_into = [](std::map<std::string, api::Quantity>& into,
                     const std::map<std::string, api::Quantity>& from) {
    for (const auto& [k, q] : from) {
      auto [it, inserted] = into.try_emplace(k, q);
      if (!inserted && q.cmp(it->second) > 0) it->second = q;
    }
  };
  auto requests_of = [](const json::object& c) -> const json::object* {
    const json::object* r = object_member(c, "resources");
    return r != nullptr ? object_member(*r, "requests") : nullptr;
  };
  if (const json::array* cs = array_member(spec, "containers")) {
    for (const auto& v : *cs)
      add(total, requests_of(object_or_empty(v)));
  }
  if (const json::array* cs = array_member(spec, "initContainers")) {
    for (const auto& v : *cs) {
      const json::object& c = object_or_empty(v);
      std::map<std::string, api::Quantity> own;
      add(own, requests_of(c));
      if (string_member(c, "restartPolicy") == "Always") {
        for (const auto& [k, q] : own) {
          auto [it, ins] = total.try_emplace(k, q);
          if (!ins) it->second.add(q);
          auto [it2, ins2] = sidecars.try_emplace(k, q);
          if (!ins2) it2->second.add(q);
        }
        max_into(init_max, sidecars);
      } else {
        for (const auto& [k, q] : sidecars) {
          auto [it, ins] = own.try_emplace(k, q);
          if (!ins) it->second.add(q);
        }
        max_into(init_max, own);
      }
    }
  }
  max_into(total, init_max);
  const json::object* pod_requests = object_member(*resources, "requests");
  for (const auto& [name, q] : total) {
    api::Quantity pod_q;
    if (pod_requests != nullptr) {
      if (const json::value* v = member(*pod_requests, name)) {
        if (auto p = api::Quantity::from_json(*v)) pod_q = *p;
      }
    }
    if (q.cmp(pod_q) > 0) {
      errs.push_back(api::invalid(
          api::key(path_of(field, "requests"), name), json::value(pod_q.to_string()),
          fmt::format("must be greater than or equal to aggregate container requests of {}",
                      q.to_string())));
    }
  }
  const json::object* pod_limits = object_member(*resources, "limits");
  if (const json::array* cs = array_member(spec, "containers"); cs && pod_limits) {
    for (std::size_t i = 0; i < cs->size(); ++i) {
      const json::object* r = object_member(object_or_empty((*cs)[i]), "resources");
      const json::object* limits = r != nullptr ? object_member(*r, "limits") : nullptr;
      if (limits == nullptr) continue;
      for (const auto& kv : *limits) {
        const json::value* pv = member(*pod_limits, kv.key());
        if (pv == nullptr) continue;
        auto cq = api::Quantity::from_json(kv.value());
        auto pq = api::Quantity::from_json(*pv);
        if (cq && pq && cq->cmp(*pq) > 0) {
          errs.push_back(api::invalid(
              path_of(api::key(api::index(path_of(field, "containers"), i), kv.key()), "limits"),
              json::value(cq->to_string()),
              fmt::format("must be less than or equal to pod limits of {}", pq->to_string())));
        }
      }
    }
  }
}

void validate_dns_config(const json::object& spec, std::string_view field, Errs& errs) {
  const std::string_view policy = string_member(spec, "dnsPolicy");
  const json::object* config = object_member(spec, "dnsConfig");
  const json::array* nameservers =
      config != nullptr ? array_member(*config, "nameservers") : nullptr;
  if (policy == "None") {
    if (config == nullptr) {
      errs.push_back(
          api::required(std::string(field), "must provide `dnsConfig` when `dnsPolicy` is None"));
      return;
    }
    if (nameservers == nullptr || nameservers->empty()) {
      errs.push_back(api::required(path_of(field, "nameservers"),
                                   "must provide at least one DNS nameserver when `dnsPolicy` is "
                                   "None"));
      return;
    }
  }
  if (config == nullptr) return;
  const auto servers = strings_of(nameservers);
  if (servers.size() > 3) {
    errs.push_back(invalid_go(path_of(field, "nameservers"), go_string_slice(nameservers),
                              "must not have more than 3 nameservers"));
  }
  for (std::size_t i = 0; i < servers.size(); ++i) {
    validate_ip(servers[i], api::index(path_of(field, "nameservers"), i), errs);
  }
  const json::array* search_list = array_member(*config, "searches");
  const auto searches = strings_of(search_list);
  if (searches.size() > 32) {
    errs.push_back(invalid_go(path_of(field, "searches"), go_string_slice(search_list),
                              "must not have more than 32 search paths"));
  }
  std::size_t chars = searches.empty() ? 0 : searches.size() - 1;
  for (const auto& s : searches)
    chars += s.size();
  if (chars > 2048) {
    errs.push_back(invalid_go(path_of(field, "searches"), go_string_slice(search_list),
                              "must not have more than 2048 characters (including spaces) in the "
                              "search list"));
  }
  for (std::size_t i = 0; i < searches.size(); ++i) {
    std::string_view s = searches[i];
    if (s == ".") continue;
    if (s.ends_with(".")) s.remove_suffix(1);
    append_invalid(api::index(path_of(field, "searches"), i), s,
                   is_dns1123_subdomain_with_underscore(s), errs);
  }
  if (const json::array* options = array_member(*config, "options")) {
    for (std::size_t i = 0; i < options->size(); ++i) {
      if (string_member(object_or_empty((*options)[i]), "name").empty()) {
        errs.push_back(
            api::required(api::index(path_of(field, "options"), i), "must not be empty"));
      }
    }
  }
}

void validate_os(const json::object& spec, std::string_view field, Errs& errs) {
  const json::object* os = object_member(spec, "os");
  if (os == nullptr) return;
  const std::string_view name = string_member(*os, "name");
  const std::string os_path = path_of(field, "os");
  if (name.empty()) {
    errs.push_back(api::required(path_of(os_path, "name"), "cannot be empty"));
    return;
  }
  if (name != "linux" && name != "windows") {
    errs.push_back(api::not_supported(os_path, json::value(name), {"linux", "windows"}));
    return;
  }
  const json::object* psc = object_member(spec, "securityContext");
  if (name == "linux") {
    if (psc != nullptr && has(*psc, "windowsOptions")) {
      errs.push_back(api::forbidden(path_of(path_of(field, "securityContext"), "windowsOptions"),
                                    "windows options cannot be set for a linux pod"));
    }
    visit_containers(spec, field, [&](const json::object& c, const std::string& path) {
      const json::object* sc = object_member(c, "securityContext");
      if (sc != nullptr && has(*sc, "windowsOptions")) {
        errs.push_back(api::forbidden(path_of(path_of(path, "securityContext"), "windowsOptions"),
                                      "windows options cannot be set for a linux pod"));
      }
    });
    return;
  }
  constexpr std::string_view kWindows = "cannot be set for a windows pod";
  const std::string sc_path = path_of(field, "securityContext");
  if (psc != nullptr) {
    for (std::string_view key : {"appArmorProfile", "seLinuxOptions"}) {
      if (has(*psc, key))
        errs.push_back(api::forbidden(path_of(sc_path, key), std::string(kWindows)));
    }
  }
  if (has(spec, "hostUsers"))
    errs.push_back(api::forbidden(path_of(field, "hostUsers"), std::string(kWindows)));
  if (bool_member(spec, "hostPID"))
    errs.push_back(api::forbidden(path_of(field, "hostPID"), std::string(kWindows)));
  if (bool_member(spec, "hostIPC"))
    errs.push_back(api::forbidden(path_of(field, "hostIPC"), std::string(kWindows)));
  if (psc != nullptr) {
    for (std::string_view key : {"seccompProfile", "fsGroup", "fsGroupChangePolicy"}) {
      if (has(*psc, key))
        errs.push_back(api::forbidden(path_of(sc_path, key), std::string(kWindows)));
    }
    if (const json::array* s = array_member(*psc, "sysctls"); s && !s->empty()) {
      errs.push_back(api::forbidden(path_of(sc_path, "sysctls"), std::string(kWindows)));
    }
  }
  if (has(spec, "shareProcessNamespace")) {
    errs.push_back(api::forbidden(path_of(field, "shareProcessNamespace"), std::string(kWindows)));
  }
  if (psc != nullptr) {
    for (std::string_view key : {"runAsUser", "runAsGroup", "supplementalGroups",
                                 "supplementalGroupsPolicy", "seLinuxChangePolicy"}) {
      if (has(*psc, key))
        errs.push_back(api::forbidden(path_of(sc_path, key), std::string(kWindows)));
    }
  }
  visit_containers(spec, field, [&](const json::object& c, const std::string& path) {
    const json::object* sc = object_member(c, "securityContext");
    if (sc == nullptr) return;
    const std::string csc = path_of(path, "securityContext");
    for (std::string_view key :
         {"appArmorProfile", "seLinuxOptions", "seccompProfile", "capabilities",
          "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation", "procMount",
          "runAsUser", "runAsGroup"}) {
      if (has(*sc, key)) errs.push_back(api::forbidden(path_of(csc, key), std::string(kWindows)));
    }
  });
}

// validateSeccompAnnotationsAndFields.
void validate_seccomp_annotations_match_fields(const json::object* annotations,
                                               const json::object& spec, std::string_view field,
                                               Errs& errs) {
  if (annotations == nullptr) return;
  auto check = [&](std::string_view annotation, const json::object& profile,
                   const std::string& path) {
    const std::string_view type = string_member(profile, "type");
    if (type == "Unconfined") {
      if (annotation != "unconfined") {
        errs.push_back(api::forbidden(path_of(path, "type"),
                                      "seccomp type in annotation and field must match"));
      }
    } else if (type == "RuntimeDefault") {
      if (annotation != "runtime/default" && annotation != "docker/default") {
        errs.push_back(api::forbidden(path_of(path, "type"),
                                      "seccomp type in annotation and field must match"));
      }
    } else if (type == "Localhost") {
      if (!annotation.starts_with("localhost/")) {
        errs.push_back(api::forbidden(path_of(path, "type"),
                                      "seccomp type in annotation and field must match"));
      } else if (!has(profile, "localhostProfile") ||
                 annotation.substr(10) != string_member(profile, "localhostProfile")) {
        errs.push_back(api::forbidden(path_of(path, "localhostProfile"),
                                      "seccomp profile in annotation and field must match"));
      }
    }
  };
  const json::object* psc = object_member(spec, "securityContext");
  if (const json::object* profile = psc ? object_member(*psc, "seccompProfile") : nullptr) {
    if (const json::value* a = member(*annotations, kSeccompPodAnnotation); a && a->is_string()) {
      check(a->get_string(), *profile,
            path_of(path_of(field, "securityContext"), "seccompProfile"));
    }
  }
  visit_containers(spec, field, [&](const json::object& c, const std::string& path) {
    const json::object* sc = object_member(c, "securityContext");
    const json::object* profile = sc != nullptr ? object_member(*sc, "seccompProfile") : nullptr;
    if (profile == nullptr) return;
    const std::string key =
        std::string(kSeccompContainerPrefix) + std::string(string_member(c, "name"));
    if (const json::value* a = member(*annotations, key); a && a->is_string()) {
      check(a->get_string(), *profile, path_of(path_of(path, "securityContext"), "seccompProfile"));
    }
  });
}

// validateAppArmorAnnotationsAndFieldsMatchOnCreate.
void validate_app_armor_annotations_match_fields(const json::object* annotations,
                                                 const json::object& spec, std::string_view field,
                                                 Errs& errs) {
  if (annotations == nullptr) return;
  if (const json::object* os = object_member(spec, "os");
      os && string_member(*os, "name") == "windows") {
    return;
  }
  const json::object* psc = object_member(spec, "securityContext");
  const json::object* pod_profile =
      psc != nullptr ? object_member(*psc, "appArmorProfile") : nullptr;
  visit_containers(spec, field, [&](const json::object& c, const std::string& path) {
    const json::object* sc = object_member(c, "securityContext");
    const json::object* profile = sc != nullptr ? object_member(*sc, "appArmorProfile") : nullptr;
    if (profile == nullptr) profile = pod_profile;
    if (profile == nullptr) return;
    const std::string key =
        std::string(kAppArmorContainerPrefix) + std::string(string_member(c, "name"));
    const json::value* a = member(*annotations, key);
    if (a == nullptr || !a->is_string()) return;
    const std::string_view annotation = a->get_string();
    const std::string base = path_of(path_of(path, "securityContext"), "appArmorProfile");
    const std::string_view type = string_member(*profile, "type");
    constexpr std::string_view kTypeMsg = "apparmor type in annotation and field must match";
    if (type == "Unconfined") {
      if (annotation != "unconfined")
        errs.push_back(api::forbidden(path_of(base, "type"), std::string(kTypeMsg)));
    } else if (type == "RuntimeDefault") {
      if (annotation != "runtime/default") {
        errs.push_back(api::forbidden(path_of(base, "type"), std::string(kTypeMsg)));
      }
    } else if (type == "Localhost") {
      if (!annotation.starts_with("localhost/")) {
        errs.push_back(api::forbidden(path_of(base, "type"), std::string(kTypeMsg)));
      } else if (!has(*profile, "localhostProfile") ||
                 annotation.substr(10) != string_member(*profile, "localhostProfile")) {
        errs.push_back(api::forbidden(path_of(base, "localhostProfile"),
                                      "apparmor profile in annotation and field must match"));
      }
    }
  });
}

bool spec_has_container(const json::object& spec, std::string_view name) {
  bool found = false;
  visit_containers(spec, "spec", [&](const json::object& c, const std::string&) {
    found = found || string_member(c, "name") == name;
  });
  return found;
}

}  // namespace

bool has_invalid_deletion_cost(const json::object& pod) {
  const json::object* meta = object_member(pod, "metadata");
  const json::object* annotations = meta != nullptr ? object_member(*meta, "annotations") : nullptr;
  if (annotations == nullptr || !annotations->contains(kDeletionCostAnnotation)) return false;
  return !valid_deletion_cost(string_member(*annotations, kDeletionCostAnnotation));
}

void validate_pod_specific_annotations(const json::object* annotations, const json::object& spec,
                                       std::string_view field, const PodValidationOptions& opts,
                                       api::FieldErrors& errs) {
  if (annotations == nullptr) return;
  if (annotations->contains(kMirrorPodAnnotation) && string_member(spec, "nodeName").empty()) {
    errs.push_back(api::invalid(api::key(field, kMirrorPodAnnotation),
                                json::value(string_member(*annotations, kMirrorPodAnnotation)),
                                "must set spec.nodeName if mirror pod annotation is set"));
  }
  if (const std::string_view t = string_member(*annotations, kTolerationsAnnotation); !t.empty()) {
    std::string error;
    auto parsed = api::parse_json(t, &error);
    if (!parsed || !parsed->is_array()) {
      errs.push_back(
          api::invalid(std::string(field), json::value(kTolerationsAnnotation),
                       parsed ? "json: cannot unmarshal into []core.Toleration" : error));
    } else if (!parsed->get_array().empty()) {
      validate_tolerations(parsed->get_array(), path_of(field, kTolerationsAnnotation), errs);
    }
  }
  if (!opts.allow_invalid_pod_deletion_cost && annotations->contains(kDeletionCostAnnotation)) {
    const std::string_view v = string_member(*annotations, kDeletionCostAnnotation);
    if (!valid_deletion_cost(v)) {
      errs.push_back(api::invalid(api::key(field, kDeletionCostAnnotation), json::value(v),
                                  "must be a 32bit integer"));
    }
  }
  if (const json::value* p = member(*annotations, kSeccompPodAnnotation); p && p->is_string()) {
    validate_seccomp_annotation(p->get_string(), path_of(field, kSeccompPodAnnotation), errs);
  }
  for (const auto& kv : *annotations) {
    if (kv.key().starts_with(kSeccompContainerPrefix) && kv.value().is_string()) {
      validate_seccomp_annotation(kv.value().get_string(), path_of(field, kv.key()), errs);
    }
  }
  for (const auto& kv : *annotations) {
    if (!kv.key().starts_with(kAppArmorContainerPrefix)) continue;
    const std::string_view container = kv.key().substr(kAppArmorContainerPrefix.size());
    const std::string path = api::key(field, kv.key());
    if (!spec_has_container(spec, container)) {
      errs.push_back(api::invalid(path, json::value(container), "container not found"));
    }
    const std::string_view p = api::as_string_view(&kv.value());
    if (!(p.empty() || p == "runtime/default" || p == "unconfined" ||
          p.starts_with("localhost/"))) {
      errs.push_back(
          api::invalid(path, json::value(p), "invalid AppArmor profile name: " + api::go_quote(p)));
    }
  }
}

api::FieldErrors validate_pod_spec(const json::object& spec, std::string_view pod_name,
                                   std::string_view field, const PodValidationOptions& opts) {
  Errs errs;
  const auto grace = int_member(spec, "terminationGracePeriodSeconds");
  if (!has(spec, "terminationGracePeriodSeconds")) {
    errs.push_back(api::required(path_of(field, "terminationGracePeriodSeconds")));
  }
  const bool host_users = opt_bool_member(spec, "hostUsers").value_or(true);
  VolumeMap volumes;
  append(errs, validate_volumes(array_member(spec, "volumes"), pod_name, path_of(field, "volumes"),
                                opts.resource_is_pod, volumes));
  ContainerContext ctx;
  ctx.volumes = &volumes;
  ctx.grace_period = grace;
  ctx.restart_policy = std::string(string_member(spec, "restartPolicy"));
  ctx.host_users = host_users;
  ctx.opts = opts;
  if (const json::array* claims = array_member(spec, "resourceClaims")) {
    for (const auto& c : *claims) {
      const std::string name(string_member(object_or_empty(c), "name"));
      if (!name.empty()) ctx.pod_claim_names.insert(name);
    }
  }
  std::set<std::string> claim_names;
  validate_resource_claims(spec, path_of(field, "resourceClaims"), errs, claim_names);
  const json::array* containers = array_member(spec, "containers");
  const json::array* init = array_member(spec, "initContainers");
  append(errs, validate_containers(containers, ctx, path_of(field, "containers")));
  append(errs, validate_init_containers(init, containers, ctx, path_of(field, "initContainers")));
  append(errs, validate_ephemeral_containers(array_member(spec, "ephemeralContainers"), containers,
                                             init, ctx, path_of(field, "ephemeralContainers")));
  validate_pod_resources(spec, path_of(field, "resources"), ctx.pod_claim_names, errs);

  // validatePodHostNetworkDeps.
  if (bool_member(spec, "hostNetwork") && containers != nullptr) {
    for (std::size_t i = 0; i < containers->size(); ++i) {
      const json::array* ports = array_member(object_or_empty((*containers)[i]), "ports");
      if (ports == nullptr) continue;
      for (std::size_t j = 0; j < ports->size(); ++j) {
        const json::object& p = object_or_empty((*ports)[j]);
        const std::int64_t hp = int_member(p, "hostPort").value_or(0);
        const std::int64_t cp = int_member(p, "containerPort").value_or(0);
        if ((opts.resource_is_pod || hp != 0) && hp != cp) {
          errs.push_back(api::invalid(
              path_of(api::index(path_of(api::index(path_of(field, "containers"), i), "ports"), j),
                      "hostPort"),
              json::value(hp), "must match `containerPort` when `hostNetwork` is true"));
        }
      }
    }
  }
  const std::string_view restart = string_member(spec, "restartPolicy");
  if (restart.empty()) {
    errs.push_back(api::required(path_of(field, "restartPolicy")));
  } else if (restart != "Always" && restart != "OnFailure" && restart != "Never") {
    errs.push_back(api::not_supported(path_of(field, "restartPolicy"), json::value(restart),
                                      {"Always", "OnFailure", "Never"}));
  }
  const std::string_view dns = string_member(spec, "dnsPolicy");
  if (dns.empty()) {
    errs.push_back(api::required(path_of(field, "dnsPolicy")));
  } else if (dns != "ClusterFirstWithHostNet" && dns != "ClusterFirst" && dns != "Default" &&
             dns != "None") {
    errs.push_back(
        api::not_supported(path_of(field, "dnsPolicy"), json::value(dns),
                           {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
  }
  if (const json::object* ns = object_member(spec, "nodeSelector")) {
    append(errs, api::validate_labels(*ns, path_of(field, "nodeSelector")));
  }
  validate_pod_security_context(spec, field, opts, errs);
  validate_affinity(object_member(spec, "affinity"), opts, path_of(field, "affinity"), errs);
  validate_dns_config(spec, path_of(field, "dnsConfig"), errs);
  if (const json::array* gates = array_member(spec, "readinessGates")) {
    for (std::size_t i = 0; i < gates->size(); ++i) {
      validate_qualified_name(
          string_member(object_or_empty((*gates)[i]), "conditionType"),
          path_of(api::index(path_of(field, "readinessGates"), i), "conditionType"), errs);
    }
  }
  if (const json::array* gates = array_member(spec, "schedulingGates")) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < gates->size(); ++i) {
      const std::string name(string_member(object_or_empty((*gates)[i]), "name"));
      const std::string path = api::index(path_of(field, "schedulingGates"), i);
      validate_qualified_name(name, path, errs);
      if (!seen.insert(name).second) errs.push_back(api::duplicate(path, json::value(name)));
    }
  }
  validate_topology_spread_constraints(array_member(spec, "topologySpreadConstraints"), opts,
                                       path_of(field, "topologySpreadConstraints"), errs);
  if (!host_users) {
    if (bool_member(spec, "hostNetwork")) {
      errs.push_back(
          api::forbidden(path_of(field, "hostNetwork"), "when `pod.Spec.HostUsers` is false"));
    }
    if (bool_member(spec, "hostPID")) {
      errs.push_back(
          api::forbidden(path_of(field, "HostPID"), "when `pod.Spec.HostUsers` is false"));
    }
    if (bool_member(spec, "hostIPC")) {
      errs.push_back(
          api::forbidden(path_of(field, "HostIPC"), "when `pod.Spec.HostUsers` is false"));
    }
  }
  for (std::string_view key : {"serviceAccountName", "nodeName"}) {
    const std::string_view v = string_member(spec, key);
    if (!v.empty())
      append_invalid(path_of(field, key), v, api::name_is_dns_subdomain(v, false), errs);
  }
  if (auto ads = int_member(spec, "activeDeadlineSeconds")) {
    if (*ads < 1 || *ads > 2147483647) {
      errs.push_back(api::invalid(path_of(field, "activeDeadlineSeconds"), json::value(*ads),
                                  inclusive_range_error(1, 2147483647)));
    }
  }
  for (std::string_view key : {"hostname", "subdomain"}) {
    const std::string_view v = string_member(spec, key);
    if (!v.empty()) validate_dns1123_label(v, path_of(field, key), errs);
  }
  if (const json::array* t = array_member(spec, "tolerations"); t && !t->empty()) {
    validate_tolerations(*t, path_of(field, "tolerations"), errs);
  }
  if (const json::array* aliases = array_member(spec, "hostAliases")) {
    for (std::size_t i = 0; i < aliases->size(); ++i) {
      const json::object& a = object_or_empty((*aliases)[i]);
      const std::string idx = api::index(path_of(field, "hostAliases"), i);
      validate_ip(string_member(a, "ip"), path_of(idx, "ip"), errs);
      const auto names = strings_of(array_member(a, "hostnames"));
      for (std::size_t j = 0; j < names.size(); ++j) {
        validate_dns1123_subdomain(names[j], api::index(path_of(idx, "hostnames"), j), errs);
      }
    }
  }
  if (const std::string_view v = string_member(spec, "priorityClassName"); !v.empty()) {
    append_invalid(path_of(field, "priorityClassName"), v, api::name_is_dns_subdomain(v, false),
                   errs);
  }
  if (has(spec, "runtimeClassName")) {
    const std::string_view v = string_member(spec, "runtimeClassName");
    append_invalid(path_of(field, "runtimeClassName"), v, api::name_is_dns_subdomain(v, false),
                   errs);
  }
  if (const json::value* p = member(spec, "preemptionPolicy")) {
    const std::string_view v = api::as_string_view(p);
    if (v.empty()) {
      errs.push_back(api::required(path_of(field, "preemptionPolicy")));
    } else if (v != "PreemptLowerPriority" && v != "Never") {
      errs.push_back(api::not_supported(path_of(field, "preemptionPolicy"), *p,
                                        {"PreemptLowerPriority", "Never"}));
    }
  }
  if (const json::object* overhead = object_member(spec, "overhead")) {
    // Upstream validates the overhead as the limits of a container.
    const json::object as_limits{{"limits", *overhead}};
    validate_resource_requirements(&as_limits, path_of(field, "overhead"), {},
                                   ResourceLevel::kContainer, errs);
  }
  validate_os(spec, field, errs);
  return errs;
}

api::FieldErrors validate_pod_template_spec(const json::object& tmpl, std::string_view field,
                                            const PodValidationOptions& opts) {
  Errs errs;
  static const json::object kEmpty;
  const json::object* meta = object_member(tmpl, "metadata");
  const json::object* labels = meta != nullptr ? object_member(*meta, "labels") : nullptr;
  const json::object* annotations = meta != nullptr ? object_member(*meta, "annotations") : nullptr;
  const json::object* s = object_member(tmpl, "spec");
  const json::object& spec = s != nullptr ? *s : kEmpty;
  if (labels != nullptr) append(errs, api::validate_labels(*labels, path_of(field, "labels")));
  if (annotations != nullptr) {
    append(errs, api::validate_annotations(*annotations, path_of(field, "annotations")));
  }
  validate_pod_specific_annotations(annotations, spec, path_of(field, "annotations"), opts, errs);
  const std::string spec_path = path_of(field, "spec");
  append(errs, validate_pod_spec(spec, "", spec_path, opts));
  validate_seccomp_annotations_match_fields(annotations, spec, spec_path, errs);
  validate_app_armor_annotations_match_fields(annotations, spec, spec_path, errs);
  if (const json::array* e = array_member(spec, "ephemeralContainers"); e && !e->empty()) {
    errs.push_back(api::forbidden(path_of(spec_path, "ephemeralContainers"),
                                  "ephemeral containers not allowed in pod template"));
  }
  return errs;
}

api::FieldErrors validate_pod_metadata_and_spec(const json::object& pod,
                                                const PodValidationOptions& opts) {
  Errs errs;
  static const json::object kEmpty;
  const json::object* meta = object_member(pod, "metadata");
  const json::object* s = object_member(pod, "spec");
  const json::object& spec = s != nullptr ? *s : kEmpty;
  validate_kube_finalizer_names(pod, errs);
  validate_pod_specific_annotations(meta != nullptr ? object_member(*meta, "annotations") : nullptr,
                                    spec, "metadata.annotations", opts, errs);
  const std::string_view name = meta != nullptr ? string_member(*meta, "name") : "";
  append(errs, validate_pod_spec(spec, name, "spec", opts));
  if (string_member(spec, "serviceAccountName").empty()) {
    if (const json::array* volumes = array_member(spec, "volumes")) {
      for (std::size_t vi = 0; vi < volumes->size(); ++vi) {
        const json::object* projected = object_member(object_or_empty((*volumes)[vi]), "projected");
        const json::array* sources =
            projected != nullptr ? array_member(*projected, "sources") : nullptr;
        if (sources == nullptr) continue;
        for (std::size_t si = 0; si < sources->size(); ++si) {
          if (has(object_or_empty((*sources)[si]), "serviceAccountToken")) {
            errs.push_back(api::forbidden(
                fmt::format("spec.volumes[{}].projected.sources[{}].serviceAccountToken", vi, si),
                "must not be specified when serviceAccountName is not set"));
          }
        }
      }
    }
  }
  for (std::string_view key : {"containers", "initContainers"}) {
    if (const json::array* list = array_member(spec, key)) {
      for (std::size_t i = 0; i < list->size(); ++i) {
        validate_container_image_for_pod(object_or_empty((*list)[i]),
                                         api::index(path_of("spec", key), i), errs);
      }
    }
  }
  return errs;
}

api::FieldErrors validate_pod_create(const json::object& pod) {
  PodValidationOptions opts;
  opts.resource_is_pod = true;
  Errs errs = validate_pod_metadata_and_spec(pod, opts);
  static const json::object kEmpty;
  const json::object* s = object_member(pod, "spec");
  const json::object& spec = s != nullptr ? *s : kEmpty;
  if (const json::array* e = array_member(spec, "ephemeralContainers"); e && !e->empty()) {
    errs.push_back(api::forbidden("spec.ephemeralContainers", "cannot be set on create"));
  }
  const json::array* gates = array_member(spec, "schedulingGates");
  if (!string_member(spec, "nodeName").empty() && gates != nullptr && !gates->empty()) {
    errs.push_back(api::forbidden("spec.nodeName",
                                  "cannot be set until all schedulingGates have been cleared"));
  }
  const json::object* meta = object_member(pod, "metadata");
  const json::object* annotations = meta != nullptr ? object_member(*meta, "annotations") : nullptr;
  validate_seccomp_annotations_match_fields(annotations, spec, "spec", errs);
  validate_app_armor_annotations_match_fields(annotations, spec, "spec", errs);
  return errs;
}

}  // namespace kcm::local::registry
