// metav1.Condition, the standard status condition of custom kinds, and
// upstream's meta.SetStatusCondition family of helpers (apimachinery
// pkg/api/meta/conditions.go).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/described_json.h"
#include "api/time.h"

namespace kcm::api {

namespace condition_status {
inline constexpr std::string_view kTrue = "True";
inline constexpr std::string_view kFalse = "False";
inline constexpr std::string_view kUnknown = "Unknown";
}  // namespace condition_status

struct Condition {
  std::string type;
  std::string status;  // condition_status::kTrue, kFalse or kUnknown
  std::int64_t observed_generation = 0;
  Time last_transition_time;
  std::string reason;   // CamelCase, required by the API's validation
  std::string message;  // required too, but may be ""
  UnknownFields extra;

  // Go's struct has omitempty on observedGeneration only.
  static constexpr JsonMember json_members[] = {
      {.member = "type", .keep_empty = true},
      {.member = "status", .keep_empty = true},
      {.member = "last_transition_time", .keep_empty = true},
      {.member = "reason", .keep_empty = true},
      {.member = "message", .keep_empty = true},
  };

  friend bool operator==(const Condition&, const Condition&) = default;
};
BOOST_DESCRIBE_STRUCT(Condition, (),
                      (type, status, observed_generation, last_transition_time, reason, message,
                       extra))

// Adds `c` or updates the condition of its type, and says whether anything
// changed. lastTransitionTime changes only when the status does: it becomes
// c.last_transition_time, or `now` when that is zero (also for a new
// condition). Reason, message and observedGeneration are copied when they
// differ. `now` defaults to the current time in whole seconds, as it will
// read back from the server.
bool set_condition(std::vector<Condition>& conditions, Condition c,
                   Time now = Time::now().rfc3339_copy());
// Removes the condition of `type`; whether there was one.
bool remove_condition(std::vector<Condition>& conditions, std::string_view type);
// The condition of `type`, or nullptr.
Condition* find_condition(std::vector<Condition>& conditions, std::string_view type);
const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type);
// Whether the condition of `type` is present with `status`.
bool is_condition_present_and_equal(const std::vector<Condition>& conditions, std::string_view type,
                                    std::string_view status);
inline bool is_condition_true(const std::vector<Condition>& conditions, std::string_view type) {
  return is_condition_present_and_equal(conditions, type, condition_status::kTrue);
}
inline bool is_condition_false(const std::vector<Condition>& conditions, std::string_view type) {
  return is_condition_present_and_equal(conditions, type, condition_status::kFalse);
}

}  // namespace kcm::api
