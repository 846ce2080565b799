#include "api/label_selector.h"

#include <algorithm>

#include "api/name_validation.h"

namespace kcm::api {

namespace {

// Builds Go's UnmarshalTypeError text for a member inside the LabelSelector.
class TypeErrors {
 public:
  explicit TypeErrors(std::string_view json_path) : path_(json_path) {}

  std::string field(std::string_view go_struct, std::string_view rel, const json::value& v,
                    std::string_view go_type) const {
    std::string full(go_struct);
    full += '.';
    if (!path_.empty()) {
      full += path_;
      full += '.';
    }
    full += rel;
    return "json: cannot unmarshal " + std::string(go_json_type_name(v)) +
           " into Go struct field " + full + " of type " + std::string(go_type);
  }

  std::string top(const json::value& v) const {
    if (path_.empty()) {
      return "json: cannot unmarshal " + std::string(go_json_type_name(v)) +
             " into Go value of type v1.LabelSelector";
    }
    return "json: cannot unmarshal " + std::string(go_json_type_name(v)) +
           " into Go struct field " + std::string(path_) + " of type v1.LabelSelector";
  }

 private:
  std::string_view path_;
};

// Go decodes null into a string as "no change", i.e. "".
bool read_selector_string(const json::value& v, std::string& out) {
  if (v.is_null()) return true;
  const json::string* s = v.if_string();
  if (s == nullptr) return false;
  out.assign(s->data(), s->size());
  return true;
}

void set_label(labels::LabelSet& set, std::string key, std::string value) {
  const auto it = std::lower_bound(set.begin(), set.end(), key,
                                   [](const auto& e, const std::string& k) { return e.first < k; });
  if (it != set.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    set.emplace(it, std::move(key), std::move(value));
  }
}

}  // namespace

Result<LabelSelector> LabelSelector::from_json(const json::value& v, std::string_view json_path) {
  const TypeErrors errors(json_path);
  LabelSelector out;
  if (v.is_null()) return out;
  const json::object* obj = v.if_object();
  if (obj == nullptr) return fail(errors.top(v));

  if (const json::value* ml = obj->if_contains("matchLabels"); ml != nullptr && !ml->is_null()) {
    const json::object* m = ml->if_object();
    if (m == nullptr) {
      return fail(errors.field("LabelSelector", "matchLabels", *ml, "map[string]string"));
    }
    for (const auto& kv : *m) {
      std::string value;
      if (!read_selector_string(kv.value(), value)) {
        return fail(errors.field("LabelSelector", "matchLabels", kv.value(), "string"));
      }
      set_label(out.match_labels, std::string(kv.key()), std::move(value));
    }
  }

  if (const json::value* me = obj->if_contains("matchExpressions");
      me != nullptr && !me->is_null()) {
    const json::array* arr = me->if_array();
    if (arr == nullptr) {
      return fail(
          errors.field("LabelSelector", "matchExpressions", *me, "[]v1.LabelSelectorRequirement"));
    }
    for (const json::value& item : *arr) {
      LabelSelectorRequirement req;
      if (!item.is_null()) {
        const json::object* e = item.if_object();
        if (e == nullptr) {
          return fail(errors.field("LabelSelector", "matchExpressions", item,
                                   "v1.LabelSelectorRequirement"));
        }
        if (const json::value* k = e->if_contains("key"); k && !read_selector_string(*k, req.key)) {
          return fail(
              errors.field("LabelSelectorRequirement", "matchExpressions.key", *k, "string"));
        }
        if (const json::value* o = e->if_contains("operator");
            o && !read_selector_string(*o, req.op)) {
          return fail(errors.field("LabelSelectorRequirement", "matchExpressions.operator", *o,
                                   "v1.LabelSelectorOperator"));
        }
        if (const json::value* vs = e->if_contains("values"); vs != nullptr && !vs->is_null()) {
          const json::array* values = vs->if_array();
          if (values == nullptr) {
            return fail(errors.field("LabelSelectorRequirement", "matchExpressions.values", *vs,
                                     "[]string"));
          }
          for (const json::value& s : *values) {
            std::string value;
            if (!read_selector_string(s, value)) {
              return fail(
                  errors.field("LabelSelectorRequirement", "matchExpressions.values", s, "string"));
            }
            req.values.push_back(std::move(value));
          }
        }
      }
      out.match_expressions.push_back(std::move(req));
    }
  }
  return out;
}

json::value LabelSelector::to_json() const {
  json::object out;
  if (!match_labels.empty()) {
    json::object ml;
    for (const auto& [k, v] : match_labels)
      ml[k] = v;
    out["matchLabels"] = std::move(ml);
  }
  if (!match_expressions.empty()) {
    json::array exprs;
    for (const auto& e : match_expressions) {
      json::object o;
      o["key"] = e.key;
      o["operator"] = e.op;
      if (!e.values.empty()) {
        json::array values;
        for (const auto& v : e.values)
          values.emplace_back(v);
        o["values"] = std::move(values);
      }
      exprs.emplace_back(std::move(o));
    }
    out["matchExpressions"] = std::move(exprs);
  }
  return out;
}

Result<std::optional<LabelSelector>> label_selector_from_json(const json::value* v,
                                                              std::string_view json_path) {
  if (v == nullptr || v->is_null()) return std::optional<LabelSelector>();
  auto s = LabelSelector::from_json(*v, json_path);
  if (!s) return fail(std::move(s).error());
  return std::optional<LabelSelector>(std::move(s).value());
}

Result<labels::Selector> as_selector(const LabelSelector& selector) {
  if (selector.empty()) return labels::Selector::everything();
  std::vector<labels::Requirement> reqs;
  reqs.reserve(selector.match_labels.size() + selector.match_expressions.size());
  for (const auto& [k, v] : selector.match_labels) {
    auto r = labels::Requirement::create(k, labels::Operator::kEquals, {v});
    if (!r) return fail(std::move(r).error());
    reqs.push_back(std::move(r).value());
  }
  for (const auto& e : selector.match_expressions) {
    labels::Operator op;
    if (e.op == kLabelSelectorOpIn) {
      op = labels::Operator::kIn;
    } else if (e.op == kLabelSelectorOpNotIn) {
      op = labels::Operator::kNotIn;
    } else if (e.op == kLabelSelectorOpExists) {
      op = labels::Operator::kExists;
    } else if (e.op == kLabelSelectorOpDoesNotExist) {
      op = labels::Operator::kDoesNotExist;
    } else {
      return fail(go_quote(e.op) + " is not a valid pod selector operator");
    }
    auto r = labels::Requirement::create(e.key, op, e.values);
    if (!r) return fail(std::move(r).error());
    reqs.push_back(std::move(r).value());
  }
  return labels::Selector::from_requirements(std::move(reqs));
}

Result<labels::Selector> as_selector(const std::optional<LabelSelector>& selector) {
  if (!selector.has_value()) return labels::Selector::nothing();
  return as_selector(*selector);
}

Result<std::string> to_selector_string(const LabelSelector& selector) {
  auto s = as_selector(selector);
  if (!s) return fail(std::move(s).error());
  return labels::to_string(*s);
}

std::string format_label_selector(const std::optional<LabelSelector>& selector) {
  auto s = as_selector(selector);
  if (!s) return "<error>";
  std::string out = labels::to_string(*s);
  return out.empty() ? "<none>" : out;
}

Result<LabelSelector> parse_label_selector(std::string_view selector) {
  auto parsed = labels::parse(selector);
  if (!parsed) {
    return fail("couldn't parse the selector string \"" + std::string(selector) +
                "\": " + parsed.error());
  }
  LabelSelector out;
  for (const labels::Requirement& r : parsed->requirements()) {
    std::string_view op;
    switch (r.op()) {
      case labels::Operator::kEquals:
      case labels::Operator::kDoubleEquals:
        if (r.values().size() != 1) return fail("equals operator must have exactly one value");
        set_label(out.match_labels, r.key(), r.values().front());
        continue;
      case labels::Operator::kIn:
        op = kLabelSelectorOpIn;
        break;
      case labels::Operator::kNotIn:
        op = kLabelSelectorOpNotIn;
        break;
      case labels::Operator::kExists:
        op = kLabelSelectorOpExists;
        break;
      case labels::Operator::kDoesNotExist:
        op = kLabelSelectorOpDoesNotExist;
        break;
      case labels::Operator::kGreaterThan:
      case labels::Operator::kLessThan:
        return fail(go_quote(labels::operator_name(r.op())) +
                    " isn't supported in label selectors");
      case labels::Operator::kNotEquals:
        return fail(go_quote(labels::operator_name(r.op())) +
                    " is not a valid label selector operator");
    }
    std::vector<std::string> values = r.values();
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    out.match_expressions.push_back({r.key(), std::string(op), std::move(values)});
  }
  return out;
}

FieldErrors validate_label_selector(const LabelSelector& selector, std::string_view field,
                                    LabelSelectorValidationOptions options) {
  FieldErrors errs = validate_labels(selector.match_labels, child(field, "matchLabels"));
  const std::string exprs_path = child(field, "matchExpressions");
  for (std::size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const LabelSelectorRequirement& e = selector.match_expressions[i];
    const std::string path = index(exprs_path, i);
    const std::string values_path = child(path, "values");
    if (e.op == kLabelSelectorOpIn || e.op == kLabelSelectorOpNotIn) {
      if (e.values.empty()) {
        errs.push_back(
            required(values_path, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
    } else if (e.op == kLabelSelectorOpExists || e.op == kLabelSelectorOpDoesNotExist) {
      if (!e.values.empty()) {
        errs.push_back(forbidden(
            values_path, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
    } else {
      errs.push_back(
          invalid(child(path, "operator"), json::value(e.op), "not a valid selector operator"));
    }
    for (FieldError& err : validate_label_name(e.key, child(path, "key"))) {
      errs.push_back(std::move(err));
    }
    if (!options.allow_invalid_label_value_in_selector) {
      for (std::size_t v = 0; v < e.values.size(); ++v) {
        for (std::string& msg : is_valid_label_value(e.values[v])) {
          errs.push_back(invalid(index(values_path, v), json::value(e.values[v]), std::move(msg)));
        }
      }
    }
  }
  return errs;
}

FieldErrors validate_label_selector(const std::optional<LabelSelector>& selector,
                                    std::string_view field,
                                    LabelSelectorValidationOptions options) {
  if (!selector.has_value()) return {};
  return validate_label_selector(*selector, field, options);
}

bool label_selector_has_invalid_label_value(const LabelSelector& selector) {
  for (const auto& e : selector.match_expressions) {
    for (const auto& v : e.values) {
      if (!is_valid_label_value(v).empty()) return true;
    }
  }
  return false;
}

}  // namespace kcm::api
