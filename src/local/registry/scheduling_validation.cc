#include "local/registry/scheduling_validation.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "api/label_selector.h"
#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

void validate_node_selector_requirement(const json::object& req, bool allow_invalid_value,
                                        std::string_view field, Errs& errs) {
  const std::string_view op = string_member(req, "operator");
  const json::array* values = array_member(req, "values");
  const std::size_t n = values != nullptr ? values->size() : 0;
  const std::string values_path = path_of(field, "values");
  if (op == "In" || op == "NotIn") {
    if (n == 0) {
      errs.push_back(
          api::required(values_path, "must be specified when `operator` is 'In' or 'NotIn'"));
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (n > 0) {
      errs.push_back(api::forbidden(
          values_path, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  } else if (op == "Gt" || op == "Lt") {
    if (n != 1) {
      errs.push_back(api::required(
          values_path, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    }
  } else {
    errs.push_back(
        api::invalid(path_of(field, "operator"), json::value(op), "not a valid selector operator"));
  }
  append(errs, api::validate_label_name(string_member(req, "key"), path_of(field, "key")));
  if (!allow_invalid_value) {
    const auto vs = strings_of(values);
    for (std::size_t i = 0; i < vs.size(); ++i) {
      append_invalid(api::index(values_path, i), vs[i], api::is_valid_label_value(vs[i]), errs);
    }
  }
}

void validate_node_field_selector_requirement(const json::object& req, std::string_view field,
                                              Errs& errs) {
  const std::string_view op = string_member(req, "operator");
  const auto values = strings_of(array_member(req, "values"));
  if (op == "In" || op == "NotIn") {
    if (values.size() != 1) {
      errs.push_back(api::required(
          path_of(field, "values"),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    }
  } else {
    errs.push_back(
        api::invalid(path_of(field, "operator"), json::value(op), "not a valid selector operator"));
  }
  const std::string_view key = string_member(req, "key");
  if (key != "metadata.name") {
    errs.push_back(
        api::invalid(path_of(field, "key"), json::value(key), "not a valid field selector key"));
    return;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    append_invalid(api::index(path_of(field, "values"), i), values[i],
                   api::name_is_dns_subdomain(values[i], false), errs);
  }
}

void validate_node_selector_term(const json::object& term, bool allow_invalid_value,
                                 std::string_view field, Errs& errs) {
  if (const json::array* exprs = array_member(term, "matchExpressions")) {
    for (std::size_t j = 0; j < exprs->size(); ++j) {
      validate_node_selector_requirement(object_or_empty((*exprs)[j]), allow_invalid_value,
                                         api::index(path_of(field, "matchExpressions"), j), errs);
    }
  }
  if (const json::array* fields = array_member(term, "matchFields")) {
    for (std::size_t j = 0; j < fields->size(); ++j) {
      validate_node_field_selector_requirement(object_or_empty((*fields)[j]),
                                               api::index(path_of(field, "matchFields"), j), errs);
    }
  }
}

void validate_node_affinity(const json::object& na, const PodValidationOptions& opts,
                            std::string_view field, Errs& errs) {
  if (const json::object* req =
          object_member(na, "requiredDuringSchedulingIgnoredDuringExecution")) {
    const std::string terms_path = path_of(
        path_of(field, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
    const json::array* terms = array_member(*req, "nodeSelectorTerms");
    if (terms == nullptr || terms->empty()) {
      errs.push_back(api::required(terms_path, "must have at least one node selector term"));
    } else {
      for (std::size_t i = 0; i < terms->size(); ++i) {
        validate_node_selector_term(object_or_empty((*terms)[i]),
                                    opts.allow_invalid_label_value_in_required_node_affinity,
                                    api::index(terms_path, i), errs);
      }
    }
  }
  if (const json::array* pref = array_member(na, "preferredDuringSchedulingIgnoredDuringExecution");
      pref && !pref->empty()) {
    const std::string base = path_of(field, "preferredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < pref->size(); ++i) {
      const json::object& term = object_or_empty((*pref)[i]);
      const std::int64_t weight = int_member(term, "weight").value_or(0);
      if (weight <= 0 || weight > 100) {
        errs.push_back(api::invalid(path_of(api::index(base, i), "weight"), json::value(weight),
                                    "must be in the range 1-100"));
      }
      // Preferred terms may carry invalid label values (they can still match).
      const json::object* preference = object_member(term, "preference");
      static const json::object kEmpty;
      validate_node_selector_term(preference != nullptr ? *preference : kEmpty, true,
                                  path_of(api::index(base, i), "preference"), errs);
    }
  }
}

void validate_label_keys(const json::array* keys, const json::value* selector,
                         std::string_view field, Errs& errs) {
  if (keys == nullptr || keys->empty()) return;
  if (selector == nullptr) {
    errs.push_back(
        api::forbidden(std::string(field), "must not be specified when labelSelector is not set"));
    return;
  }
  const auto ks = strings_of(keys);
  for (std::size_t i = 0; i < ks.size(); ++i) {
    append(errs, api::validate_label_name(ks[i], api::index(field, i)));
  }
}

void validate_pod_affinity_term(const json::object& term, bool allow_invalid_value,
                                std::string_view field, Errs& errs) {
  const json::value* selector = member(term, "labelSelector");
  validate_json_label_selector(selector, allow_invalid_value, path_of(field, "labelSelector"),
                               errs);
  validate_json_label_selector(member(term, "namespaceSelector"), allow_invalid_value,
                               path_of(field, "namespaceSelector"), errs);
  for (const auto& ns : strings_of(array_member(term, "namespaces"))) {
    append_invalid(path_of(field, "namespace"), ns, api::name_is_dns_label(ns, false), errs);
  }
  const json::array* match = array_member(term, "matchLabelKeys");
  const json::array* mismatch = array_member(term, "mismatchLabelKeys");
  validate_label_keys(match, selector, path_of(field, "matchLabelKeys"), errs);
  validate_label_keys(mismatch, selector, path_of(field, "mismatchLabelKeys"), errs);
  const auto match_keys = strings_of(match);
  if (selector != nullptr && selector->is_object()) {
    std::map<std::string, std::size_t> key_index;
    for (std::size_t i = 0; i < match_keys.size(); ++i)
      key_index[match_keys[i]] = i;
    std::set<std::string> selector_keys;
    if (const json::object* ml = object_member(selector->get_object(), "matchLabels")) {
      for (const auto& kv : *ml)
        selector_keys.insert(std::string(kv.key()));
    }
    if (const json::array* exprs = array_member(selector->get_object(), "matchExpressions")) {
      for (const auto& e : *exprs) {
        const std::string key(string_member(object_or_empty(e), "key"));
        auto it = key_index.find(key);
        if (it != key_index.end() && selector_keys.contains(key)) {
          errs.push_back(api::invalid(api::index(field, it->second), json::value(key),
                                      "exists in both matchLabelKeys and labelSelector"));
        }
        selector_keys.insert(key);
      }
    }
  }
  const auto mismatch_keys = strings_of(mismatch);
  const std::set<std::string> mismatch_set(mismatch_keys.begin(), mismatch_keys.end());
  for (std::size_t i = 0; i < match_keys.size(); ++i) {
    if (mismatch_set.contains(match_keys[i])) {
      errs.push_back(api::invalid(api::index(path_of(field, "matchLabelKeys"), i),
                                  json::value(match_keys[i]),
                                  "exists in both matchLabelKeys and mismatchLabelKeys"));
    }
  }
  const std::string_view topology_key = string_member(term, "topologyKey");
  if (topology_key.empty()) {
    errs.push_back(api::required(path_of(field, "topologyKey"), "can not be empty"));
  }
  append(errs, api::validate_label_name(topology_key, path_of(field, "topologyKey")));
}

void validate_pod_affinity(const json::object& pa, bool allow_invalid_value, std::string_view field,
                           Errs& errs) {
  if (const json::array* req = array_member(pa, "requiredDuringSchedulingIgnoredDuringExecution")) {
    const std::string base = path_of(field, "requiredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < req->size(); ++i) {
      validate_pod_affinity_term(object_or_empty((*req)[i]), allow_invalid_value,
                                 api::index(base, i), errs);
    }
  }
  if (const json::array* pref =
          array_member(pa, "preferredDuringSchedulingIgnoredDuringExecution")) {
    const std::string base = path_of(field, "preferredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < pref->size(); ++i) {
      const json::object& wt = object_or_empty((*pref)[i]);
      const std::int64_t weight = int_member(wt, "weight").value_or(0);
      if (weight <= 0 || weight > 100) {
        errs.push_back(api::invalid(path_of(api::index(base, i), "weight"), json::value(weight),
                                    "must be in the range 1-100"));
      }
      const json::object* term = object_member(wt, "podAffinityTerm");
      static const json::object kEmpty;
      validate_pod_affinity_term(term != nullptr ? *term : kEmpty, allow_invalid_value,
                                 path_of(api::index(base, i), "podAffinityTerm"), errs);
    }
  }
}

}  // namespace

void validate_json_label_selector(const json::value* selector, bool allow_invalid_label_value,
                                  std::string_view field, api::FieldErrors& errs) {
  if (selector == nullptr || selector->is_null()) return;
  auto parsed = api::LabelSelector::from_json(*selector, field);
  if (!parsed) {
    errs.push_back(api::invalid(std::string(field), *selector, parsed.error()));
    return;
  }
  api::LabelSelectorValidationOptions opts;
  opts.allow_invalid_label_value_in_selector = allow_invalid_label_value;
  append(errs, api::validate_label_selector(*parsed, field, opts));
}

void validate_taint_effect(const json::value* effect, bool allow_empty, std::string_view field,
                           api::FieldErrors& errs) {
  const std::string_view e = api::as_string_view(effect);
  if (!allow_empty && e.empty()) {
    errs.push_back(api::required(std::string(field)));
    return;
  }
  if (e != "NoSchedule" && e != "PreferNoSchedule" && e != "NoExecute") {
    errs.push_back(api::not_supported(std::string(field), json::value(e),
                                      {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
}

void validate_affinity(const json::object* affinity, const PodValidationOptions& opts,
                       std::string_view field, api::FieldErrors& errs) {
  if (affinity == nullptr) return;
  if (const json::object* na = object_member(*affinity, "nodeAffinity")) {
    validate_node_affinity(*na, opts, path_of(field, "nodeAffinity"), errs);
  }
  if (const json::object* pa = object_member(*affinity, "podAffinity")) {
    validate_pod_affinity(*pa, opts.allow_invalid_label_value_in_selector,
                          path_of(field, "podAffinity"), errs);
  }
  if (const json::object* pa = object_member(*affinity, "podAntiAffinity")) {
    validate_pod_affinity(*pa, opts.allow_invalid_label_value_in_selector,
                          path_of(field, "podAntiAffinity"), errs);
  }
}

void validate_tolerations(const json::array& tolerations, std::string_view field,
                          api::FieldErrors& errs) {
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    const json::object& t = object_or_empty(tolerations[i]);
    const std::string idx = api::index(field, i);
    const std::string_view key = string_member(t, "key");
    const std::string_view op = string_member(t, "operator");
    const std::string_view value = string_member(t, "value");
    const std::string_view effect = string_member(t, "effect");
    if (!key.empty()) append(errs, api::validate_label_name(key, path_of(idx, "key")));
    if (key.empty() && op != "Exists") {
      errs.push_back(api::invalid(path_of(idx, "operator"), json::value(op),
                                  "operator must be Exists when `key` is empty, which means "
                                  "\"match all values and all keys\""));
    }
    if (has(t, "tolerationSeconds") && effect != "NoExecute") {
      errs.push_back(api::invalid(path_of(idx, "effect"), json::value(effect),
                                  "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op == "Equal" || op.empty()) {
      const auto msgs = api::is_valid_label_value(value);
      if (!msgs.empty()) {
        errs.push_back(api::invalid(path_of(idx, "operator"), json::value(value), join(msgs, ";")));
      }
    } else if (op == "Exists") {
      if (!value.empty()) {
        errs.push_back(api::invalid(path_of(idx, "operator"), json::value(value),
                                    "value must be empty when `operator` is 'Exists'"));
      }
    } else {
      errs.push_back(
          api::not_supported(path_of(idx, "operator"), json::value(op), {"Equal", "Exists"}));
    }
    if (!effect.empty())
      validate_taint_effect(member(t, "effect"), true, path_of(idx, "effect"), errs);
  }
}

void validate_topology_spread_constraints(const json::array* constraints,
                                          const PodValidationOptions& opts, std::string_view field,
                                          api::FieldErrors& errs) {
  if (constraints == nullptr) return;
  for (std::size_t i = 0; i < constraints->size(); ++i) {
    const json::object& c = object_or_empty((*constraints)[i]);
    const std::string sub = api::index(field, i);
    const std::int64_t max_skew = int_member(c, "maxSkew").value_or(0);
    if (max_skew <= 0) {
      errs.push_back(api::invalid(path_of(sub, "maxSkew"), json::value(max_skew),
                                  std::string(kNotPositiveErrorMsg)));
    }
    const std::string_view topology_key = string_member(c, "topologyKey");
    if (topology_key.empty()) {
      errs.push_back(api::required(path_of(sub, "topologyKey"), "can not be empty"));
    }
    const std::string_view action = string_member(c, "whenUnsatisfiable");
    if (action != "DoNotSchedule" && action != "ScheduleAnyway") {
      errs.push_back(api::not_supported(path_of(sub, "whenUnsatisfiable"), json::value(action),
                                        {"DoNotSchedule", "ScheduleAnyway"}));
    }
    for (std::size_t j = i + 1; j < constraints->size(); ++j) {
      const json::object& rest = object_or_empty((*constraints)[j]);
      if (string_member(rest, "topologyKey") == topology_key &&
          string_member(rest, "whenUnsatisfiable") == action) {
        errs.push_back(
            api::duplicate(path_of(sub, "{topologyKey, whenUnsatisfiable}"),
                           json::value(fmt::format("{{{}, {}}}", topology_key, action))));
        break;
      }
    }
    if (auto min_domains = int_member(c, "minDomains")) {
      if (*min_domains <= 0) {
        errs.push_back(api::invalid(path_of(sub, "minDomains"), json::value(*min_domains),
                                    std::string(kNotPositiveErrorMsg)));
      }
      if (action != "DoNotSchedule") {
        errs.push_back(api::invalid(
            path_of(sub, "minDomains"), json::value(*min_domains),
            fmt::format("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        action)));
      }
    }
    for (std::string_view policy : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      if (const json::value* p = member(c, policy)) {
        const std::string_view s = api::as_string_view(p);
        if (s != "Honor" && s != "Ignore") {
          errs.push_back(api::not_supported(path_of(sub, policy), *p, {"Honor", "Ignore"}));
        }
      }
    }
    const json::value* selector = member(c, "labelSelector");
    if (const json::array* keys = array_member(c, "matchLabelKeys"); keys && !keys->empty()) {
      const std::string keys_path = path_of(sub, "matchLabelKeys");
      std::set<std::string> selector_keys;
      if (selector != nullptr && selector->is_object()) {
        if (const json::object* ml = object_member(selector->get_object(), "matchLabels")) {
          for (const auto& kv : *ml)
            selector_keys.insert(std::string(kv.key()));
        }
        if (const json::array* exprs = array_member(selector->get_object(), "matchExpressions")) {
          for (const auto& e : *exprs) {
            selector_keys.insert(std::string(string_member(object_or_empty(e), "key")));
          }
        }
      } else {
        errs.push_back(
            api::forbidden(keys_path, "must not be specified when labelSelector is not set"));
      }
      const auto ks = strings_of(keys);
      for (std::size_t k = 0; k < ks.size(); ++k) {
        append(errs, api::validate_label_name(ks[k], api::index(keys_path, k)));
        if (selector_keys.contains(ks[k])) {
          errs.push_back(api::invalid(api::index(keys_path, k), json::value(ks[k]),
                                      "exists in both matchLabelKeys and labelSelector"));
        }
      }
    }
    if (!opts.allow_invalid_topology_spread_constraint_label_selector) {
      validate_json_label_selector(selector, false, path_of(sub, "labelSelector"), errs);
    }
  }
}

}  // namespace kcm::local::registry
