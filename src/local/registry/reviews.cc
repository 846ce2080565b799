#include "local/registry/reviews.h"

#include <fmt/format.h>

#include "api/field_error.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"

namespace kcm::local::registry {
namespace {

constexpr std::string_view kAccessReview = "SelfSubjectAccessReview";
constexpr std::string_view kRulesReview = "SelfSubjectRulesReview";

// The object as Go writes the typed struct back: known fields only, empty
// strings left out (every field here is omitempty), in declaration order.
json::object copy_strings(const json::object& from, std::initializer_list<std::string_view> keys) {
  json::object out;
  for (const auto key : keys) {
    if (const auto s = string_member(from, key); !s.empty()) out[key] = s;
  }
  return out;
}

json::object echoed_spec(const json::object& spec) {
  json::object out;
  if (const json::object* ra = api::find_object(spec, "resourceAttributes")) {
    json::object attrs = copy_strings(
        *ra, {"namespace", "verb", "group", "version", "resource", "subresource", "name"});
    for (const std::string_view selector : {"fieldSelector", "labelSelector"}) {
      if (const json::object* s = api::find_object(*ra, selector)) attrs[selector] = *s;
    }
    out["resourceAttributes"] = std::move(attrs);
  }
  if (const json::object* nra = api::find_object(spec, "nonResourceAttributes")) {
    out["nonResourceAttributes"] = copy_strings(*nra, {"path", "verb"});
  }
  return out;
}

// ValidateSelfSubjectAccessReviewSpec: exactly one of the two attribute sets.
api::FieldErrors validate_access_review_spec(const json::object& spec) {
  api::FieldErrors errs;
  const json::object* ra = api::find_object(spec, "resourceAttributes");
  const json::object* nra = api::find_object(spec, "nonResourceAttributes");
  if (ra != nullptr && nra != nullptr) {
    // field.Invalid prints the pointed-to internal struct with %#v.
    errs.push_back(invalid_go("spec.nonResourceAttributes",
                              fmt::format("authorization.NonResourceAttributes{{Path:{}, Verb:{}}}",
                                          api::go_quote(string_member(*nra, "path")),
                                          api::go_quote(string_member(*nra, "verb"))),
                              "cannot be specified in combination with resourceAttributes"));
  }
  if (ra == nullptr && nra == nullptr) {
    // ... and a nil pointer as the string "null".
    errs.push_back(invalid_go("spec.resourceAttributes", "\"null\"",
                              "exactly one of nonResourceAttributes or resourceAttributes "
                              "must be specified"));
  }
  return errs;
}

json::object object_metadata(const json::object& request) {
  json::object metadata;
  if (const json::object* m = api::find_object(request, "metadata")) metadata = *m;
  // metav1.ObjectMeta's creationTimestamp has no omitempty.
  if (!metadata.contains("creationTimestamp")) metadata["creationTimestamp"] = nullptr;
  return metadata;
}

json::array strings(std::initializer_list<std::string_view> values) {
  json::array out;
  for (const auto v : values)
    out.emplace_back(v);
  return out;
}

}  // namespace

Result<json::object, api::Status> answer_review(const ResourceInfo& info,
                                                const json::object& request,
                                                const RequestUser& user, std::string_view now) {
  if (user.name.empty()) return fail(api::bad_request("no user present on request"));
  json::object out{{"kind", info.kind}, {"apiVersion", info.api_version()}};
  const json::object& spec = member_or_empty(request, "spec");

  if (info.kind == kAccessReview) {
    if (auto errs = validate_access_review_spec(spec); !errs.empty()) {
      return fail(api::invalid({info.gvr.group, info.kind}, "", errs));
    }
    out["metadata"] = object_metadata(request);
    out["spec"] = echoed_spec(spec);
    // AlwaysAllow: allowed, with no reason.
    out["status"] = json::object{{"allowed", true}};
    return out;
  }
  if (info.kind == kRulesReview) {
    if (string_member(spec, "namespace").empty()) {
      return fail(api::bad_request("no namespace on request"));
    }
    // The answer is a new object: no metadata or spec from the request.
    out["metadata"] = json::object{{"creationTimestamp", nullptr}};
    out["spec"] = json::object();
    out["status"] = json::object{
        {"resourceRules", json::array{json::object{{"verbs", strings({"*"})},
                                                   {"apiGroups", strings({"*"})},
                                                   {"resources", strings({"*"})}}}},
        {"nonResourceRules",
         json::array{json::object{{"verbs", strings({"*"})}, {"nonResourceURLs", strings({"*"})}}}},
        {"incomplete", false}};
    return out;
  }
  // SelfSubjectReview: who the user is, stamped with the time of the answer.
  json::object user_info{{"username", user.name}};
  if (!user.groups.empty()) {
    json::array groups;
    for (const auto& g : user.groups)
      groups.emplace_back(g);
    user_info["groups"] = std::move(groups);
  }
  out["metadata"] = json::object{{"creationTimestamp", now}};
  out["status"] = json::object{{"userInfo", std::move(user_info)}};
  return out;
}

std::shared_ptr<const Strategy> review_strategy() {
  return std::make_shared<const Strategy>();
}

}  // namespace kcm::local::registry
