#include "local/registry/resource_validation.h"

#include <fmt/format.h>

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/resource_names.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

// IsHugePageResourceValueDivisible.
bool huge_page_value_divisible(std::string_view name, const api::Quantity& q) {
  auto page = api::Quantity::parse(name.substr(std::string_view("hugepages-").size()));
  if (!page || page->sign() <= 0 || page->milli_value() % 1000 != 0) return false;
  const std::int64_t size = page->value();
  return size != 0 && q.value() % size == 0;
}

}  // namespace

std::optional<api::Quantity> quantity_of(const json::value& v, std::string_view field,
                                         api::FieldErrors& errs) {
  auto q = api::Quantity::from_json(v);
  if (!q) {
    errs.push_back(api::invalid(std::string(field), v, q.error()));
    return std::nullopt;
  }
  return std::move(*q);
}

void validate_resource_name(std::string_view name, std::string_view field, api::FieldErrors& errs) {
  const std::size_t before = errs.size();
  append_invalid(field, name, api::is_qualified_name(name), errs);
  if (errs.size() != before) return;
  if (name.find('/') == std::string_view::npos && !is_standard_resource(name)) {
    errs.push_back(api::invalid(std::string(field), json::value(name),
                                "must be a standard resource type or fully qualified"));
  }
}

void validate_container_resource_name(std::string_view name, std::string_view field,
                                      api::FieldErrors& errs) {
  validate_resource_name(name, field, errs);
  if (name.find('/') == std::string_view::npos) {
    if (!is_standard_container_resource(name)) {
      errs.push_back(api::invalid(std::string(field), json::value(name),
                                  "must be a standard resource for containers"));
    }
  } else if (!is_native_resource(name) && !is_extended_resource(name)) {
    errs.push_back(api::invalid(std::string(field), json::value(name),
                                "doesn't follow extended resource name standard"));
  }
}

void validate_resource_quantity_value(std::string_view name, const api::Quantity& q,
                                      std::string_view field, api::FieldErrors& errs) {
  if (q.sign() < 0) {
    errs.push_back(api::invalid(std::string(field), json::value(q.to_string()),
                                std::string(kNegativeErrorMsg)));
  }
  // Upstream prints the Quantity struct here; its text is the closest
  // readable equivalent.
  if (is_integer_resource(name) && q.milli_value() % 1000 != 0) {
    errs.push_back(
        api::invalid(std::string(field), json::value(q.to_string()), "must be an integer"));
  }
}

void validate_resource_requirements(const json::object* resources, std::string_view field,
                                    const std::set<std::string>& pod_claim_names,
                                    ResourceLevel level, api::FieldErrors& errs) {
  if (resources == nullptr) return;
  const std::string lim_path = path_of(field, "limits");
  const std::string req_path = path_of(field, "requests");
  auto check_name = [&](std::string_view name, const std::string& path) {
    if (level == ResourceLevel::kContainer) {
      validate_container_resource_name(name, path, errs);
      return;
    }
    const std::size_t before = errs.size();
    validate_resource_name(name, path, errs);
    if (errs.size() == before && !is_qos_compute_resource(name) && !is_huge_page_resource(name)) {
      errs.push_back(api::not_supported(path, json::value(name), {"cpu", "memory"}));
    }
  };
  bool lim_cpu_mem = false, req_cpu_mem = false, lim_huge = false, req_huge = false;
  const json::object* limits = object_member(*resources, "limits");
  const json::object* requests = object_member(*resources, "requests");
  if (limits != nullptr) {
    for (const auto& kv : *limits) {
      const std::string name(kv.key());
      const std::string path = api::key(lim_path, name);
      check_name(name, path);
      auto q = quantity_of(kv.value(), path, errs);
      if (!q) continue;
      validate_resource_quantity_value(name, *q, path, errs);
      if (is_huge_page_resource(name)) {
        lim_huge = true;
        if (!huge_page_value_divisible(name, *q)) {
          errs.push_back(api::invalid(
              path, json::value(q->to_string()),
              fmt::format("{} is not positive integer multiple of {}", q->to_string(), name)));
        }
      }
      if (is_qos_compute_resource(name)) lim_cpu_mem = true;
    }
  }
  if (requests != nullptr) {
    for (const auto& kv : *requests) {
      const std::string name(kv.key());
      const std::string path = api::key(req_path, name);
      check_name(name, path);
      auto q = quantity_of(kv.value(), path, errs);
      if (!q) continue;
      validate_resource_quantity_value(name, *q, path, errs);
      const json::value* limit_value = limits != nullptr ? member(*limits, name) : nullptr;
      if (limit_value != nullptr) {
        auto limit = api::Quantity::from_json(*limit_value);
        if (limit) {
          if (q->cmp(*limit) != 0 && !is_overcommit_allowed(name)) {
            errs.push_back(api::invalid(
                req_path, json::value(q->to_string()),
                fmt::format("must be equal to {} limit of {}", name, limit->to_string())));
          } else if (q->cmp(*limit) > 0) {
            errs.push_back(api::invalid(req_path, json::value(q->to_string()),
                                        fmt::format("must be less than or equal to {} limit of {}",
                                                    name, limit->to_string())));
          }
        }
      } else if (!is_overcommit_allowed(name)) {
        errs.push_back(
            api::required(lim_path, "Limit must be set for non overcommitable resources"));
      }
      if (is_huge_page_resource(name)) {
        req_huge = true;
        if (!huge_page_value_divisible(name, *q)) {
          errs.push_back(api::invalid(
              path, json::value(q->to_string()),
              fmt::format("{} is not positive integer multiple of {}", q->to_string(), name)));
        }
      }
      if (is_qos_compute_resource(name)) req_cpu_mem = true;
    }
  }
  if (!lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge)) {
    errs.push_back(api::forbidden(std::string(field), "HugePages require cpu or memory"));
  }
  // resources.claims must name entries of spec.resourceClaims.
  if (const json::array* claims = array_member(*resources, "claims")) {
    std::set<std::string> seen;
    const std::string claims_path = path_of(field, "claims");
    for (std::size_t i = 0; i < claims->size(); ++i) {
      const std::string path = api::index(claims_path, i);
      const json::object* claim = (*claims)[i].if_object();
      const std::string name(claim != nullptr ? string_member(*claim, "name") : "");
      if (name.empty()) {
        errs.push_back(api::required(path));
        continue;
      }
      const std::string request(claim != nullptr ? string_member(*claim, "request") : "");
      std::string key = name;
      if (seen.contains(name)) {
        errs.push_back(api::duplicate(path, json::value(name)));
      } else {
        if (!request.empty()) {
          validate_dns1123_label(request, path_of(path, "request"), errs);
          key += "/" + request;
        }
        if (seen.contains(key)) {
          errs.push_back(api::duplicate(path, json::value(key)));
        } else if (request.empty()) {
          for (const auto& k : seen) {
            if (k.starts_with(name + "/")) errs.push_back(api::duplicate(path, json::value(name)));
          }
        }
        seen.insert(key);
      }
      if (!pod_claim_names.contains(name)) {
        api::FieldError e{api::FieldErrorType::kNotFound, path, json::value(name),
                          "must be one of the names in pod.spec.resourceClaims"};
        if (pod_claim_names.empty()) {
          e.detail += " which is empty";
        } else {
          std::string joined;
          for (const auto& n : pod_claim_names)
            joined += (joined.empty() ? "" : ", ") + n;
          e.detail += ": " + joined;
        }
        errs.push_back(std::move(e));
      }
    }
  }
}

}  // namespace kcm::local::registry
