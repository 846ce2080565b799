// The JSON merge patches the garbage collector sends (upstream patch.go).
// Each carries the resourceVersion it was computed from, so a concurrent
// change makes it fail with a Conflict instead of being overwritten.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"

namespace kcm::controllers::garbagecollector {

// Drops the owner references with these uids from `latest`.
std::string delete_owner_refs_patch(const api::json::value& latest,
                                    const std::vector<std::string>& owner_uids);
// Sets blockOwnerDeletion=false on every reference of `latest` that has it true.
std::string unblock_owner_refs_patch(const api::json::value& latest);
// Drops `finalizer` from `latest`'s finalizers.
std::string remove_finalizer_patch(const api::json::value& latest, std::string_view finalizer);

}  // namespace kcm::controllers::garbagecollector
