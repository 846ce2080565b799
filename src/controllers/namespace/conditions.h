// The namespace status conditions the namespace controller maintains while it
// empties a terminating namespace (upstream deletion/status_condition_utils.go):
// each of the five types is always present, True with a failure reason while
// the problem lasts and False with its "ok" reason and message otherwise.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"

namespace kcm::controllers::ns {

inline constexpr std::string_view kDeletionDiscoveryFailure = "NamespaceDeletionDiscoveryFailure";
inline constexpr std::string_view kDeletionGroupVersionParsingFailure =
    "NamespaceDeletionGroupVersionParsingFailure";
inline constexpr std::string_view kDeletionContentFailure = "NamespaceDeletionContentFailure";
inline constexpr std::string_view kContentRemaining = "NamespaceContentRemaining";
inline constexpr std::string_view kFinalizersRemaining = "NamespaceFinalizersRemaining";

// What is left in a namespace after one pass, summed over every resource.
struct ContentTotals {
  // (group, version, resource) -> instances remaining.
  std::map<std::tuple<std::string, std::string, std::string>, int> resource_remaining;
  // finalizer -> instances it holds.
  std::map<std::string, int> finalizer_remaining;
};

struct NamespaceCondition {
  std::string type;
  std::string status;  // "True" or "False"
  std::string last_transition_time;
  std::string reason;
  std::string message;
};

// Collects the failures of one deletion pass and turns them into conditions
// (upstream namespaceConditionUpdater).
class ConditionUpdater {
 public:
  // `now` stamps lastTransitionTime (RFC 3339); unset: the wall clock.
  explicit ConditionUpdater(std::function<std::string()> now = {});

  // Discovery failed: `message` is the error's text; with `failed_groups` > 0
  // it was a partial failure (upstream ErrGroupDiscoveryFailed).
  void process_discovery_error(std::string_view message, std::size_t failed_groups);
  void process_group_version_error(std::string_view message);
  void process_delete_content_error(std::string message);
  void process_content_totals(const ContentTotals& totals);

  // Sets the five conditions in `namespace_object`'s status.conditions,
  // keeping any other condition; true when something changed.
  bool update(boost::json::object& namespace_object);

  const std::vector<NamespaceCondition>& new_conditions() const { return new_conditions_; }

 private:
  std::function<std::string()> now_;
  std::vector<NamespaceCondition> new_conditions_;
  std::vector<std::string> delete_content_errors_;
};

// The condition a successful pass sets for `type` (status False).
NamespaceCondition successful_condition(std::string_view type, std::string now);

}  // namespace kcm::controllers::ns
