#include "controllers/namespace/graceful_estimate.h"

#include <algorithm>
#include <chrono>

namespace kcm::controllers::ns {

std::int64_t pods_grace_estimate(const std::vector<boost::json::value>& pods) {
  std::int64_t estimate = 0;
  for (const boost::json::value& pod : pods) {
    const std::string_view phase = api::as_string_view(api::find_path(pod, {"status", "phase"}));
    if (phase == "Succeeded" || phase == "Failed") continue;
    const boost::json::value* grace =
        api::find_path(pod, {"spec", "terminationGracePeriodSeconds"});
    if (grace == nullptr || !grace->is_number()) continue;
    std::error_code ec;
    const auto seconds = grace->to_number<std::int64_t>(ec);
    if (!ec) estimate = std::max(estimate, seconds);
  }
  return estimate;
}

std::int64_t remaining_estimate(std::int64_t estimate, const api::Time& deleted_at,
                                api::Time::TimePoint now) {
  // A zero deletion time means "deleting since forever" (Go's time.Since of
  // the zero time saturates): nothing is left to wait for.
  if (deleted_at.is_zero()) return 0;
  const auto since = now - deleted_at.time_point();
  return since >= std::chrono::seconds(estimate) ? 0 : estimate;
}

}  // namespace kcm::controllers::ns
