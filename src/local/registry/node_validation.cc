#include "local/registry/node_validation.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/resource_validation.h"
#include "local/registry/scheduling_validation.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

constexpr std::string_view kTaintsAnnotation = "scheduler.alpha.kubernetes.io/taints";

void validate_taints(const json::array& taints, std::string_view field, Errs& errs) {
  std::map<std::string, std::set<std::string>> unique;  // effect -> keys
  for (std::size_t i = 0; i < taints.size(); ++i) {
    static const json::object kEmpty;
    const json::object* t = taints[i].if_object();
    const json::object& taint = t != nullptr ? *t : kEmpty;
    const std::string idx = api::index(field, i);
    const std::string key(string_member(taint, "key"));
    const std::string effect(string_member(taint, "effect"));
    append(errs, api::validate_label_name(key, path_of(idx, "key")));
    const std::string_view value = string_member(taint, "value");
    const auto msgs = api::is_valid_label_value(value);
    if (!msgs.empty()) {
      std::string joined;
      for (const auto& m : msgs)
        joined += (joined.empty() ? "" : ";") + m;
      errs.push_back(api::invalid(path_of(idx, "value"), json::value(value), joined));
    }
    validate_taint_effect(member(taint, "effect"), false, path_of(idx, "effect"), errs);
    if (unique[effect].contains(key)) {
      // Upstream prints the Taint struct; TimeAdded is a pointer.
      const std::string rendering =
          fmt::format("core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:(*v1.Time)({})}}",
                      api::go_quote(key), api::go_quote(value), api::go_quote(effect),
                      has(taint, "timeAdded") ? "0xc000000000" : "nil");
      errs.push_back({api::FieldErrorType::kDuplicate, idx, std::nullopt,
                      rendering + ": taints must be unique by key and effect pair"});
      continue;
    }
    unique[effect].insert(key);
  }
}

void validate_node_annotations(const json::object& node, Errs& errs) {
  const json::object& annotations =
      member_or_empty(member_or_empty(node, "metadata"), "annotations");
  const std::string_view taints = string_member(annotations, kTaintsAnnotation);
  if (taints.empty()) return;
  std::string error;
  auto parsed = api::parse_json(taints, &error);
  if (!parsed || !parsed->is_array()) {
    errs.push_back(api::invalid("metadata.annotations", json::value(kTaintsAnnotation),
                                parsed ? "json: cannot unmarshal into []core.Taint" : error));
    return;
  }
  validate_taints(parsed->get_array(), path_of("metadata.annotations", kTaintsAnnotation), errs);
}

void validate_node_resources(const json::object& node, Errs& errs) {
  const json::object& status = member_or_empty(node, "status");
  for (std::string_view which : {"capacity", "allocatable"}) {
    for (const auto& kv : member_or_empty(status, which)) {
      const std::string path = path_of(path_of("status", which), kv.key());
      if (auto q = quantity_of(kv.value(), path, errs)) {
        validate_resource_quantity_value(kv.key(), *q, path, errs);
      }
    }
  }
}

void validate_spec_taints(const json::object& node, Errs& errs) {
  const json::array* taints = array_member(member_or_empty(node, "spec"), "taints");
  // Upstream reports spec taints under "metadata.taints".
  if (taints != nullptr && !taints->empty()) validate_taints(*taints, "metadata.taints", errs);
}

}  // namespace

api::FieldErrors validate_node(const json::object& node) {
  Errs errs;
  validate_kube_finalizer_names(node, errs);
  validate_node_annotations(node, errs);
  validate_spec_taints(node, errs);
  validate_node_resources(node, errs);
  const json::array* cidr_list = array_member(member_or_empty(node, "spec"), "podCIDRs");
  const auto cidrs = strings_of(cidr_list);
  for (std::size_t i = 0; i < cidrs.size(); ++i) {
    validate_cidr(cidrs[i], api::index("spec.podCIDRs", i), errs);
  }
  if (cidrs.size() > 1) {
    bool v6_a = false, v6_b = false;
    const bool dual =
        parse_cidr_sloppy(cidrs[0], &v6_a) && parse_cidr_sloppy(cidrs[1], &v6_b) && v6_a != v6_b;
    if (!dual || cidrs.size() > 2) {
      errs.push_back(invalid_go("spec.podCIDRs", go_string_slice(cidr_list),
                                "may specify no more than one CIDR for each IP family"));
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < cidrs.size(); ++i) {
      if (!seen.insert(cidrs[i]).second) {
        errs.push_back(api::duplicate(api::index("spec.podCIDRs", i), json::value(cidrs[i])));
      }
    }
  }
  return errs;
}

api::FieldErrors validate_node_update(const json::object& node, const json::object& old) {
  Errs errs;
  validate_kube_finalizer_names(node, errs);
  validate_node_annotations(node, errs);
  validate_node_resources(node, errs);
  if (const json::array* addresses = array_member(member_or_empty(node, "status"), "addresses")) {
    std::set<std::pair<std::string, std::string>> seen;
    for (std::size_t i = 0; i < addresses->size(); ++i) {
      static const json::object kEmpty;
      const json::object* a = (*addresses)[i].if_object();
      const json::object& address = a != nullptr ? *a : kEmpty;
      const std::string type(string_member(address, "type"));
      const std::string value(string_member(address, "address"));
      if (!seen.insert({type, value}).second) {
        errs.push_back({api::FieldErrorType::kDuplicate, api::index("status.addresses", i),
                        std::nullopt,
                        fmt::format("core.NodeAddress{{Type:{}, Address:{}}}", api::go_quote(type),
                                    api::go_quote(value))});
      }
    }
  }
  const json::object& spec = member_or_empty(node, "spec");
  const json::object& old_spec = member_or_empty(old, "spec");
  const auto old_cidrs = strings_of(array_member(old_spec, "podCIDRs"));
  const auto cidrs = strings_of(array_member(spec, "podCIDRs"));
  constexpr std::string_view kCidrMsg =
      "node updates may not change podCIDR except from \"\" to valid";
  if (!old_cidrs.empty()) {
    if (old_cidrs.size() != cidrs.size()) {
      errs.push_back(api::forbidden("spec.podCIDRs", std::string(kCidrMsg)));
    } else {
      for (std::size_t i = 0; i < old_cidrs.size(); ++i) {
        if (old_cidrs[i] != cidrs[i])
          errs.push_back(api::forbidden("spec.podCIDRs", std::string(kCidrMsg)));
      }
    }
  }
  const std::string_view old_provider = string_member(old_spec, "providerID");
  if (!old_provider.empty() && old_provider != string_member(spec, "providerID")) {
    errs.push_back(api::forbidden(
        "spec.providerID", "node updates may not change providerID except from \"\" to valid"));
  }
  validate_spec_taints(node, errs);
  if (string_member(spec, "externalID") != string_member(old_spec, "externalID")) {
    errs.push_back(api::forbidden("spec.externalID", "may not be updated"));
  }
  return errs;
}

}  // namespace kcm::local::registry
