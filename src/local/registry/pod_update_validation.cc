#include "local/registry/pod_update_validation.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/pod_validation.h"
#include "local/registry/scheduling_validation.h"
#include "local/registry/semantic_equal.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

constexpr std::string_view kAppArmorPrefix = "container.apparmor.security.beta.kubernetes.io/";
constexpr std::string_view kMirrorPod = "kubernetes.io/config.mirror";

const json::object& spec_of(const json::object& pod) {
  static const json::object kEmpty;
  const json::object* s = object_member(pod, "spec");
  return s != nullptr ? *s : kEmpty;
}

const json::object* annotations_of(const json::object& pod) {
  const json::object* meta = object_member(pod, "metadata");
  return meta != nullptr ? object_member(*meta, "annotations") : nullptr;
}

// ValidatePodSpecificAnnotationUpdates (which ends with the create-time
// annotation checks again, as upstream does).
void validate_annotation_updates(const json::object& pod, const json::object& old,
                                 const PodValidationOptions& opts, Errs& errs) {
  static const json::object kEmpty;
  const json::object* na = annotations_of(pod);
  const json::object* oa = annotations_of(old);
  const json::object& now = na != nullptr ? *na : kEmpty;
  const json::object& before = oa != nullptr ? *oa : kEmpty;
  const std::string field = "metadata.annotations";
  for (const auto& kv : before) {
    const json::value* v = now.if_contains(kv.key());
    if (v != nullptr && *v == kv.value()) continue;
    if (kv.key().starts_with(kAppArmorPrefix)) {
      errs.push_back(api::forbidden(api::key(field, kv.key()),
                                    "may not remove or update AppArmor annotations"));
    }
    if (kv.key() == kMirrorPod) {
      errs.push_back(api::forbidden(api::key(field, kv.key()),
                                    "may not remove or update mirror pod annotation"));
    }
  }
  for (const auto& kv : now) {
    if (before.contains(kv.key())) continue;
    if (kv.key().starts_with(kAppArmorPrefix)) {
      errs.push_back(api::forbidden(api::key(field, kv.key()), "may not add AppArmor annotations"));
    }
    if (kv.key() == kMirrorPod) {
      errs.push_back(
          api::forbidden(api::key(field, kv.key()), "may not add mirror pod annotation"));
    }
  }
  validate_pod_specific_annotations(na, spec_of(pod), field, opts, errs);
}

// ValidateContainerUpdates; true when the list length changed (stop).
bool validate_container_updates(const json::array* now, const json::array* before,
                                std::string_view field, Errs& errs) {
  const std::size_t n = now != nullptr ? now->size() : 0;
  const std::size_t o = before != nullptr ? before->size() : 0;
  if (n != o) {
    errs.push_back(
        api::forbidden(std::string(field), "pod updates may not add or remove containers"));
    return true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view image = string_member(object_or_empty((*now)[i]), "image");
    const std::string path = path_of(api::index(field, i), "image");
    if (image.empty()) errs.push_back(api::required(path));
    const std::size_t first = image.find_first_not_of(" \t\n\r\v\f");
    const std::size_t last = image.find_last_not_of(" \t\n\r\v\f");
    const std::size_t trimmed = first == std::string_view::npos ? 0 : last - first + 1;
    if (trimmed != image.size()) {
      errs.push_back(
          api::invalid(path, json::value(image), "must not have leading or trailing whitespace"));
    }
  }
  return false;
}

const api::schema::Type& pod_spec_type() {
  static const api::schema::Type& type = builtin_type("core/v1", "PodSpec");
  return type;
}

// validateOnlyAddedTolerations: every old toleration must still be there,
// tolerationSeconds aside.
void validate_only_added_tolerations(const json::array* now, const json::array* before,
                                     std::string_view field, Errs& errs) {
  static const api::schema::Type& toleration = builtin_type("core/v1", "Toleration");
  if (before != nullptr) {
    for (const auto& ov : *before) {
      json::object old_t = object_or_empty(ov);
      bool found = false;
      if (now != nullptr) {
        for (const auto& nv : *now) {
          const json::object& new_t = object_or_empty(nv);
          json::object candidate = old_t;
          if (const json::value* s = new_t.if_contains("tolerationSeconds")) {
            candidate["tolerationSeconds"] = *s;
          } else {
            candidate.erase("tolerationSeconds");
          }
          if (semantic_equal(candidate, new_t, toleration)) {
            found = true;
            break;
          }
        }
      }
      if (!found) {
        errs.push_back(api::forbidden(std::string(field),
                                      "existing toleration can not be modified except its "
                                      "tolerationSeconds"));
        return;
      }
    }
  }
  if (now != nullptr) validate_tolerations(*now, field, errs);
}

std::set<std::string> gate_names(const json::array* gates) {
  std::set<std::string> out;
  if (gates == nullptr) return out;
  for (const auto& g : *gates)
    out.insert(std::string(string_member(object_or_empty(g), "name")));
  return out;
}

// Additions to a gated pod's required node affinity terms.
bool term_has_only_additions(const json::object& now, const json::object& before) {
  static const api::schema::Type& requirement = builtin_type("core/v1", "NodeSelectorRequirement");
  for (std::string_view key : {"matchExpressions", "matchFields"}) {
    const json::array* o = array_member(before, key);
    const json::array* n = array_member(now, key);
    const std::size_t ol = o != nullptr ? o->size() : 0;
    const std::size_t nl = n != nullptr ? n->size() : 0;
    if (ol == 0) continue;
    if (nl < ol) return false;
    for (std::size_t i = 0; i < ol; ++i) {
      if (!semantic_equal((*n)[i], (*o)[i], requirement)) return false;
    }
  }
  const bool old_empty = (array_member(before, "matchExpressions") == nullptr ||
                          array_member(before, "matchExpressions")->empty()) &&
                         (array_member(before, "matchFields") == nullptr ||
                          array_member(before, "matchFields")->empty());
  const bool new_nonempty =
      (array_member(now, "matchExpressions") != nullptr &&
       !array_member(now, "matchExpressions")->empty()) ||
      (array_member(now, "matchFields") != nullptr && !array_member(now, "matchFields")->empty());
  return !(old_empty && new_nonempty);
}

const json::array* required_terms(const json::object* node_affinity) {
  if (node_affinity == nullptr) return nullptr;
  const json::object* req =
      object_member(*node_affinity, "requiredDuringSchedulingIgnoredDuringExecution");
  return req != nullptr ? array_member(*req, "nodeSelectorTerms") : nullptr;
}

std::string pod_spec_diff(const json::object& before, const json::object& now) {
  const api::schema::Type& pod_spec = pod_spec_type();
  // go-cmp's Diff of the internal structs cannot be reproduced (it even mixes
  // in non-breaking spaces on purpose); this lists the differing members.
  std::string out = "  core.PodSpec{\n";
  std::set<std::string> keys;
  for (const auto& kv : before)
    keys.insert(std::string(kv.key()));
  for (const auto& kv : now)
    keys.insert(std::string(kv.key()));
  for (const auto& k : keys) {
    const json::value* a = before.if_contains(k);
    const json::value* b = now.if_contains(k);
    if (equal_member(a, b, k, pod_spec)) continue;
    if (a != nullptr && !a->is_null()) out += fmt::format("- \t{}: {},\n", k, json::serialize(*a));
    if (b != nullptr && !b->is_null()) out += fmt::format("+ \t{}: {},\n", k, json::serialize(*b));
  }
  return out + "  }\n";
}

bool is_restartable_init(const json::object& spec, std::string_view name) {
  if (const json::array* init = array_member(spec, "initContainers")) {
    for (const auto& v : *init) {
      const json::object& c = object_or_empty(v);
      if (string_member(c, "name") == name) return string_member(c, "restartPolicy") == "Always";
    }
  }
  return false;
}

// ValidateContainerStateTransition (init: with sidecars allowed to restart).
void validate_state_transitions(const json::array* now, const json::array* before,
                                std::string_view restart_policy, const json::object* spec_for_init,
                                std::string_view field, Errs& errs) {
  if (restart_policy == "Always" || before == nullptr) return;
  for (std::size_t i = 0; i < before->size(); ++i) {
    const json::object& old_status = object_or_empty((*before)[i]);
    const json::object* state = object_member(old_status, "state");
    const json::object* terminated =
        state != nullptr ? object_member(*state, "terminated") : nullptr;
    if (terminated == nullptr) continue;
    if (int_member(*terminated, "exitCode").value_or(0) != 0 && restart_policy == "OnFailure") {
      continue;
    }
    const std::string_view name = string_member(old_status, "name");
    if (spec_for_init != nullptr && is_restartable_init(*spec_for_init, name)) continue;
    if (now == nullptr) continue;
    for (const auto& nv : *now) {
      const json::object& new_status = object_or_empty(nv);
      const json::object* ns = object_member(new_status, "state");
      if (string_member(new_status, "name") == name && (ns == nullptr || !has(*ns, "terminated"))) {
        errs.push_back(api::forbidden(path_of(api::index(field, i), "state"),
                                      "may not be transitioned to non-terminated state"));
      }
    }
  }
}

void validate_status_ips(const json::object& status, std::string_view single,
                         std::string_view plural, std::string_view type_name, Errs& errs) {
  const json::array* ips = array_member(status, plural);
  if (ips == nullptr || ips->empty()) return;
  const std::string field = "status." + std::string(plural);
  std::vector<std::string> values;
  for (const auto& v : *ips)
    values.emplace_back(string_member(object_or_empty(v), "ip"));
  if (single == "hostIP" && string_member(status, "hostIP") != values[0]) {
    errs.push_back(api::invalid(path_of(api::index(field, 0), "ip"), json::value(values[0]),
                                "must be equal to `hostIP`"));
  }
  for (std::size_t i = 0; i < values.size(); ++i)
    validate_ip(values[i], api::index(field, i), errs);
  if (values.size() < 2) return;
  std::string rendered = fmt::format("[]core.{}{{", type_name);
  for (std::size_t i = 0; i < values.size(); ++i) {
    rendered +=
        fmt::format("{}core.{}{{IP:{}}}", i > 0 ? ", " : "", type_name, api::go_quote(values[i]));
  }
  rendered += "}";
  bool v6_first = false, v6_second = false;
  const bool ok_first = parse_ip_sloppy(values[0], &v6_first);
  const bool ok_second = parse_ip_sloppy(values[1], &v6_second);
  const bool dual = ok_first && ok_second && v6_first != v6_second;
  std::set<std::string> seen;
  auto dup = [&](std::size_t i) {
    if (!seen.insert(values[i]).second) {
      // "Duplicate value: core.PodIP{IP:...}" (the struct as Go prints it).
      errs.push_back({api::FieldErrorType::kDuplicate, api::index(field, i), std::nullopt,
                      fmt::format("core.{}{{IP:{}}}", type_name, api::go_quote(values[i]))});
    }
  };
  if (single == "hostIP") {
    for (std::size_t i = 0; i < values.size(); ++i)
      dup(i);
  }
  if (!dual || values.size() > 2) {
    errs.push_back(
        invalid_go(field, rendered, "may specify no more than one IP for each IP family"));
  }
  if (single == "podIP") {
    for (std::size_t i = 0; i < values.size(); ++i)
      dup(i);
  }
}

}  // namespace

api::FieldErrors validate_pod_update(const json::object& pod, const json::object& old) {
  PodValidationOptions opts;
  opts.resource_is_pod = true;
  opts.allow_invalid_pod_deletion_cost = has_invalid_deletion_cost(old);
  Errs errs = validate_pod_metadata_and_spec(pod, opts);
  validate_annotation_updates(pod, old, opts, errs);
  const json::object& spec = spec_of(pod);
  const json::object& old_spec = spec_of(old);
  if (validate_container_updates(array_member(spec, "containers"),
                                 array_member(old_spec, "containers"), "spec.containers", errs) ||
      validate_container_updates(array_member(spec, "initContainers"),
                                 array_member(old_spec, "initContainers"), "spec.initContainers",
                                 errs)) {
    return errs;
  }
  const auto ads = int_member(spec, "activeDeadlineSeconds");
  const auto old_ads = int_member(old_spec, "activeDeadlineSeconds");
  if (ads) {
    if (*ads < 0 || *ads > 2147483647) {
      errs.push_back(api::invalid("spec.activeDeadlineSeconds", json::value(*ads),
                                  inclusive_range_error(0, 2147483647)));
      return errs;
    }
    if (old_ads && *old_ads < *ads) {
      errs.push_back(api::invalid("spec.activeDeadlineSeconds", json::value(*ads),
                                  "must be less than or equal to previous value"));
      return errs;
    }
  } else if (old_ads) {
    errs.push_back(api::invalid("spec.activeDeadlineSeconds", json::value(nullptr),
                                "must not update from a positive integer to nil value"));
  }
  validate_only_added_tolerations(array_member(spec, "tolerations"),
                                  array_member(old_spec, "tolerations"), "spec.tolerations", errs);
  if (const json::array* gates = array_member(spec, "schedulingGates"); gates && !gates->empty()) {
    const auto before = gate_names(array_member(old_spec, "schedulingGates"));
    std::map<std::string, std::size_t> added;
    for (std::size_t i = 0; i < gates->size(); ++i) {
      const std::string name(string_member(object_or_empty((*gates)[i]), "name"));
      if (!before.contains(name)) added[name] = i;
    }
    for (const auto& [name, i] : added) {
      errs.push_back(api::forbidden(
          path_of(api::index("spec.schedulingGates", i), "name"),
          fmt::format("only deletion is allowed, but found new scheduling gate '{}'", name)));
    }
  }
  const api::schema::Type& pod_spec = pod_spec_type();
  if (semantic_equal(spec, old_spec, pod_spec)) return errs;

  // Carry over what may change, then compare the rest.
  json::object munged = spec;
  for (std::string_view key : {"containers", "initContainers"}) {
    json::array* list = mutable_array_member(munged, key);
    const json::array* old_list = array_member(old_spec, key);
    if (list == nullptr || old_list == nullptr) continue;
    for (std::size_t i = 0; i < list->size() && i < old_list->size(); ++i) {
      json::object* c = (*list)[i].if_object();
      const json::object& oc = object_or_empty((*old_list)[i]);
      if (c == nullptr) continue;
      if (const json::value* img = oc.if_contains("image")) {
        (*c)["image"] = *img;
      } else {
        c->erase("image");
      }
    }
  }
  for (std::string_view key : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
    if (const json::value* v = old_spec.if_contains(key)) {
      munged[key] = *v;
    } else {
      munged.erase(key);
    }
  }
  const auto old_grace = int_member(old_spec, "terminationGracePeriodSeconds");
  if (old_grace && *old_grace < 0 && int_member(munged, "terminationGracePeriodSeconds") == 1) {
    munged["terminationGracePeriodSeconds"] = *old_grace;
  }
  const json::array* old_gates = array_member(old_spec, "schedulingGates");
  if (old_gates != nullptr && !old_gates->empty()) {
    // Gated pods may add to nodeSelector and to required node affinity.
    if (!equal_member(munged, old_spec, "nodeSelector", pod_spec)) {
      const json::object* now_sel = object_member(munged, "nodeSelector");
      if (const json::object* old_sel = object_member(old_spec, "nodeSelector")) {
        for (const auto& kv : *old_sel) {
          const json::value* v = now_sel != nullptr ? now_sel->if_contains(kv.key()) : nullptr;
          if (v == nullptr || *v != kv.value()) {
            errs.push_back(invalid_go("spec.nodeSelector", go_string_map(now_sel),
                                      "only additions to spec.nodeSelector are allowed (no "
                                      "mutations or deletions)"));
            break;
          }
        }
      }
      if (const json::value* v = old_spec.if_contains("nodeSelector")) {
        munged["nodeSelector"] = *v;
      } else {
        munged.erase("nodeSelector");
      }
    }
    const json::object* old_aff = object_member(old_spec, "affinity");
    const json::object* new_aff = object_member(munged, "affinity");
    const json::value* old_na = old_aff != nullptr ? old_aff->if_contains("nodeAffinity") : nullptr;
    const json::value* new_na = new_aff != nullptr ? new_aff->if_contains("nodeAffinity") : nullptr;
    static const api::schema::Type& affinity = builtin_type("core/v1", "Affinity");
    if (!equal_member(old_na, new_na, "nodeAffinity", affinity)) {
      const json::array* old_terms =
          required_terms(old_na != nullptr ? old_na->if_object() : nullptr);
      const json::array* new_terms =
          required_terms(new_na != nullptr ? new_na->if_object() : nullptr);
      const std::string terms_path =
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
          "nodeSelectorTerms";
      if (old_terms != nullptr && !old_terms->empty()) {
        const std::size_t nl = new_terms != nullptr ? new_terms->size() : 0;
        if (nl != old_terms->size()) {
          errs.push_back(api::invalid(
              terms_path, new_terms != nullptr ? json::value(*new_terms) : json::value(nullptr),
              "no additions/deletions to non-empty NodeSelectorTerms list "
              "are allowed"));
        } else {
          for (std::size_t i = 0; i < nl; ++i) {
            if (!term_has_only_additions(object_or_empty((*new_terms)[i]),
                                         object_or_empty((*old_terms)[i]))) {
              errs.push_back(api::invalid(api::index(terms_path, i), (*new_terms)[i],
                                          "only additions are allowed (no mutations or "
                                          "deletions)"));
            }
          }
        }
      }
      json::object& aff = object_at(munged, "affinity");
      if (old_na != nullptr) {
        aff["nodeAffinity"] = *old_na;
      } else {
        aff.erase("nodeAffinity");
      }
    }
  }
  if (!semantic_equal(munged, old_spec, pod_spec)) {
    errs.push_back(api::forbidden(
        "spec",
        "pod updates may not change fields other than `spec.containers[*].image`,"
        "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
        "additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be "
        "set to 1 if it was previously negative)\n" +
            pod_spec_diff(old_spec, munged)));
  }
  return errs;
}

api::FieldErrors validate_pod_status_update(const json::object& pod, const json::object& old) {
  Errs errs;
  PodValidationOptions opts;
  opts.resource_is_pod = true;
  opts.allow_invalid_pod_deletion_cost = has_invalid_deletion_cost(old);
  validate_kube_finalizer_names(pod, errs);
  validate_annotation_updates(pod, old, opts, errs);
  static const json::object kEmpty;
  const json::object* s = object_member(pod, "status");
  const json::object* os = object_member(old, "status");
  const json::object& status = s != nullptr ? *s : kEmpty;
  const json::object& old_status = os != nullptr ? *os : kEmpty;
  if (const json::array* conditions = array_member(status, "conditions")) {
    for (std::size_t i = 0; i < conditions->size(); ++i) {
      const std::string_view type = string_member(object_or_empty((*conditions)[i]), "type");
      if (type == "PodScheduled" || type == "Ready" || type == "Initialized") continue;
      // Upstream reports these under metadata.conditions.
      validate_qualified_name(type, path_of(api::index("metadata.conditions", i), "Type"), errs);
    }
  }
  const json::object& spec = spec_of(pod);
  const json::object& old_spec = spec_of(old);
  if (string_member(spec, "nodeName") != string_member(old_spec, "nodeName")) {
    errs.push_back(api::forbidden("status.nodeName", "may not be changed directly"));
  }
  const std::string_view nominated = string_member(status, "nominatedNodeName");
  if (nominated != string_member(old_status, "nominatedNodeName") && !nominated.empty()) {
    append_invalid("status.nominatedNodeName", nominated,
                   api::name_is_dns_subdomain(nominated, false), errs);
  }
  if (string_member(status, "qosClass") != string_member(old_status, "qosClass")) {
    errs.push_back(api::invalid("status.qosClass", json::value(string_member(status, "qosClass")),
                                std::string(kFieldImmutableErrorMsg)));
  }
  const std::string_view restart = string_member(old_spec, "restartPolicy");
  validate_state_transitions(array_member(status, "containerStatuses"),
                             array_member(old_status, "containerStatuses"), restart, nullptr,
                             "status.containerStatuses", errs);
  validate_state_transitions(array_member(status, "initContainerStatuses"),
                             array_member(old_status, "initContainerStatuses"), restart, &old_spec,
                             "status.initContainerStatuses", errs);
  validate_state_transitions(array_member(status, "ephemeralContainerStatuses"),
                             array_member(old_status, "ephemeralContainerStatuses"), "Never",
                             nullptr, "status.ephemeralContainerStatuses", errs);
  validate_status_ips(status, "podIP", "podIPs", "PodIP", errs);
  validate_status_ips(status, "hostIP", "hostIPs", "HostIP", errs);
  return errs;
}

}  // namespace kcm::local::registry
