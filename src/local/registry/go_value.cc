#include "local/registry/go_value.h"

#include <fmt/format.h>

#include <algorithm>

#include "local/registry/field_access.h"

namespace kcm::local::registry {
namespace {

std::string string_of(const json::value& v) {
  return v.is_string() ? std::string(v.get_string()) : std::string();
}

}  // namespace

std::string go_string_map(const json::object* m) {
  if (m == nullptr) return "map[string]string(nil)";
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& kv : *m)
    entries.emplace_back(std::string(kv.key()), string_of(kv.value()));
  std::sort(entries.begin(), entries.end());
  std::string out = "map[string]string{";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += ", ";
    out += api::go_quote(entries[i].first) + ":" + api::go_quote(entries[i].second);
  }
  return out + "}";
}

std::string go_string_slice(const json::array* a) {
  if (a == nullptr) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < a->size(); ++i) {
    if (i > 0) out += ", ";
    out += api::go_quote(string_of((*a)[i]));
  }
  return out + "}";
}

std::string go_label_selector(const json::value& selector) {
  const json::object* sel = selector.if_object();
  const json::value* ml = sel != nullptr ? sel->if_contains("matchLabels") : nullptr;
  const json::value* me = sel != nullptr ? sel->if_contains("matchExpressions") : nullptr;
  std::string out =
      "v1.LabelSelector{MatchLabels:" + go_string_map(ml != nullptr ? ml->if_object() : nullptr) +
      ", MatchExpressions:";
  const json::array* exprs = me != nullptr ? me->if_array() : nullptr;
  if (exprs == nullptr) {
    out += "[]v1.LabelSelectorRequirement(nil)";
  } else {
    out += "[]v1.LabelSelectorRequirement{";
    for (std::size_t i = 0; i < exprs->size(); ++i) {
      if (i > 0) out += ", ";
      const json::object* r = (*exprs)[i].if_object();
      static const json::object kEmpty;
      const json::object& req = r != nullptr ? *r : kEmpty;
      const json::value* values = req.if_contains("values");
      out += fmt::format("v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{}}}",
                         api::go_quote(string_member(req, "key")),
                         api::go_quote(string_member(req, "operator")),
                         go_string_slice(values != nullptr ? values->if_array() : nullptr));
    }
    out += "}";
  }
  return out + "}";
}

std::string go_int_or_string(const json::value& v) {
  if (v.is_string()) {
    return fmt::format("intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
                       api::go_quote(v.get_string()));
  }
  std::int64_t n = 0;
  if (v.is_int64()) n = v.get_int64();
  if (v.is_uint64()) n = static_cast<std::int64_t>(v.get_uint64());
  return fmt::format("intstr.IntOrString{{Type:0, IntVal:{}, StrVal:\"\"}}",
                     static_cast<std::int32_t>(n));
}

api::FieldError invalid_go(std::string field, std::string go_value, std::string detail) {
  std::string body = std::move(go_value);
  if (!detail.empty()) body += ": " + detail;
  return {api::FieldErrorType::kInvalid, std::move(field), std::nullopt, std::move(body)};
}

api::FieldError not_supported_go(std::string field, std::string go_value,
                                 const std::vector<std::string>& supported) {
  api::FieldError e = api::not_supported(std::move(field), json::value(nullptr), supported);
  e.detail = e.detail.empty() ? std::move(go_value) : go_value + ": " + e.detail;
  e.bad_value.reset();
  return e;
}

}  // namespace kcm::local::registry
