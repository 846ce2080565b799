#include "api/condition.h"

#include <algorithm>

namespace kcm::api {

bool set_condition(std::vector<Condition>& conditions, Condition c, Time now) {
  Condition* existing = find_condition(conditions, c.type);
  if (existing == nullptr) {
    if (c.last_transition_time.is_zero()) c.last_transition_time = now;
    conditions.push_back(std::move(c));
    return true;
  }
  bool changed = false;
  if (existing->status != c.status) {
    existing->status = std::move(c.status);
    existing->last_transition_time =
        c.last_transition_time.is_zero() ? now : c.last_transition_time;
    changed = true;
  }
  if (existing->reason != c.reason) {
    existing->reason = std::move(c.reason);
    changed = true;
  }
  if (existing->message != c.message) {
    existing->message = std::move(c.message);
    changed = true;
  }
  if (existing->observed_generation != c.observed_generation) {
    existing->observed_generation = c.observed_generation;
    changed = true;
  }
  return changed;
}

bool remove_condition(std::vector<Condition>& conditions, std::string_view type) {
  const auto removed =
      std::erase_if(conditions, [&](const Condition& c) { return c.type == type; });
  return removed > 0;
}

Condition* find_condition(std::vector<Condition>& conditions, std::string_view type) {
  for (Condition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  for (const Condition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

bool is_condition_present_and_equal(const std::vector<Condition>& conditions, std::string_view type,
                                    std::string_view status) {
  const Condition* c = find_condition(conditions, type);
  return c != nullptr && c->status == status;
}

}  // namespace kcm::api
