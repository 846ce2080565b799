// What the pod registry writes into a new pod besides its status (upstream's
// podStrategy.PrepareForCreate): the PodScheduled=False/SchedulingGated
// condition of gated pods, and matchLabelKeys/mismatchLabelKeys of pod
// (anti-)affinity terms merged into their label selectors.
#pragma once

#include <string_view>

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Adds the condition to status.conditions when the pod has scheduling gates
// and no PodScheduled condition yet. `now` is the RFC 3339 transition time.
void apply_scheduling_gated_condition(json::object& pod, std::string_view now);
// For every pod (anti-)affinity term with a label selector: each
// matchLabelKeys key the pod has becomes "key In (value)", each
// mismatchLabelKeys key "key NotIn (value)".
void merge_affinity_label_keys(json::object& pod);

}  // namespace kcm::local::registry
