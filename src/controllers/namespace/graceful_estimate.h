// How long a terminating namespace's content may still take to go away on
// its own (upstream estimateGracefulTermination): only pods terminate
// gracefully, for at most their terminationGracePeriodSeconds.
#pragma once

#include <cstdint>
#include <vector>

#include "api/json.h"
#include "api/time.h"

namespace kcm::controllers::ns {

// The largest spec.terminationGracePeriodSeconds of the pods not yet
// Succeeded or Failed; 0 when none sets one.
std::int64_t pods_grace_estimate(const std::vector<boost::json::value>& pods);

// `estimate` seconds, or 0 once the namespace has been terminating for at
// least that long (the pods should be gone by then).
std::int64_t remaining_estimate(std::int64_t estimate, const api::Time& deleted_at,
                                api::Time::TimePoint now);

}  // namespace kcm::controllers::ns
