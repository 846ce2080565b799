#include "controllers/namespace/conditions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "api/time.h"

namespace kcm::controllers::ns {

namespace json = boost::json;

namespace {

struct OkVariant {
  std::string_view type;
  std::string_view reason;
  std::string_view message;
};

// The order conditions are added in, with what a success sets.
constexpr std::array<OkVariant, 5> kOk = {{
    {kDeletionDiscoveryFailure, "ResourcesDiscovered", "All resources successfully discovered"},
    {kDeletionGroupVersionParsingFailure, "ParsedGroupVersions",
     "All legacy kube types successfully parsed"},
    {kDeletionContentFailure, "ContentDeleted",
     "All content successfully deleted, may be waiting on finalization"},
    {kContentRemaining, "ContentRemoved", "All content successfully removed"},
    {kFinalizersRemaining, "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
}};

const NamespaceCondition* find_condition(const std::vector<NamespaceCondition>& conditions,
                                         std::string_view type) {
  const auto it = std::find_if(conditions.begin(), conditions.end(),
                               [&](const NamespaceCondition& c) { return c.type == type; });
  return it == conditions.end() ? nullptr : &*it;
}

json::object to_json(const NamespaceCondition& c) {
  return {{"type", c.type},
          {"status", c.status},
          {"lastTransitionTime", c.last_transition_time},
          {"reason", c.reason},
          {"message", c.message}};
}

std::string join_sorted(std::vector<std::string> parts) {
  std::sort(parts.begin(), parts.end());  // sorted for stable updates
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

NamespaceCondition successful_condition(std::string_view type, std::string now) {
  for (const OkVariant& ok : kOk) {
    if (ok.type == type) {
      return {std::string(type), "False", std::move(now), std::string(ok.reason),
              std::string(ok.message)};
    }
  }
  return {std::string(type), "False", std::move(now), "", ""};
}

ConditionUpdater::ConditionUpdater(std::function<std::string()> now) : now_(std::move(now)) {
  if (!now_) now_ = [] { return api::Time::now().to_string(); };
}

void ConditionUpdater::process_discovery_error(std::string_view message,
                                               std::size_t failed_groups) {
  std::string text =
      failed_groups > 0
          ? fmt::format("Discovery failed for some groups, {} failing: {}", failed_groups, message)
          : std::string(message);
  new_conditions_.push_back(
      {std::string(kDeletionDiscoveryFailure), "True", now_(), "DiscoveryFailed", std::move(text)});
}

void ConditionUpdater::process_group_version_error(std::string_view message) {
  new_conditions_.push_back({std::string(kDeletionGroupVersionParsingFailure), "True", now_(),
                             "GroupVersionParsingFailed", std::string(message)});
}

void ConditionUpdater::process_delete_content_error(std::string message) {
  delete_content_errors_.push_back(std::move(message));
}

void ConditionUpdater::process_content_totals(const ContentTotals& totals) {
  std::vector<std::string> resources;
  for (const auto& [gvr, remaining] : totals.resource_remaining) {
    if (remaining == 0) continue;
    resources.push_back(fmt::format("{}.{} has {} resource instances", std::get<2>(gvr),
                                    std::get<0>(gvr), remaining));
  }
  if (!totals.resource_remaining.empty()) {
    new_conditions_.push_back(
        {std::string(kContentRemaining), "True", now_(), "SomeResourcesRemain",
         fmt::format("Some resources are remaining: {}", join_sorted(std::move(resources)))});
  }
  std::vector<std::string> finalizers;
  for (const auto& [finalizer, remaining] : totals.finalizer_remaining) {
    if (remaining == 0) continue;
    finalizers.push_back(fmt::format("{} in {} resource instances", finalizer, remaining));
  }
  if (!totals.finalizer_remaining.empty()) {
    new_conditions_.push_back(
        {std::string(kFinalizersRemaining), "True", now_(), "SomeFinalizersRemain",
         fmt::format("Some content in the namespace has finalizers remaining: {}",
                     join_sorted(std::move(finalizers)))});
  }
}

bool ConditionUpdater::update(json::object& namespace_object) {
  if (find_condition(new_conditions_, kDeletionContentFailure) == nullptr &&
      !delete_content_errors_.empty()) {
    new_conditions_.push_back(
        {std::string(kDeletionContentFailure), "True", now_(), "ContentDeletionFailed",
         fmt::format("Failed to delete all resource types, {} remaining: {}",
                     delete_content_errors_.size(), join_sorted(delete_content_errors_))});
  }
  json::object& status = api::ensure_object(namespace_object, "status");
  json::value& conditions_value = status["conditions"];
  if (!conditions_value.is_array()) conditions_value = json::array();
  json::array& conditions = conditions_value.get_array();

  bool changed = false;
  for (const OkVariant& ok : kOk) {
    const NamespaceCondition* found = find_condition(new_conditions_, ok.type);
    const NamespaceCondition wanted = found ? *found : successful_condition(ok.type, now_());
    const auto old = std::find_if(conditions.begin(), conditions.end(), [&](const json::value& c) {
      return c.is_object() && api::as_string_view(c.as_object().if_contains("type")) == ok.type;
    });
    if (old == conditions.end()) {
      conditions.push_back(to_json(wanted));
      changed = true;
      continue;
    }
    json::object& current = old->as_object();
    const auto field = [&](std::string_view key) {
      return api::as_string_view(current.if_contains(key));
    };
    if (field("status") == wanted.status && field("reason") == wanted.reason &&
        field("message") == wanted.message) {
      continue;
    }
    if (field("status") != wanted.status) current["lastTransitionTime"] = now_();
    current["status"] = wanted.status;
    current["reason"] = wanted.reason;
    current["message"] = wanted.message;
    changed = true;
  }
  return changed;
}

}  // namespace kcm::controllers::ns
