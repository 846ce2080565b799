// The managed fields of a write through the scale subresource, as upstream's
// ScaleHandler: the write is tracked on the Scale, whose entries are the
// parent's entries that own its replicas field; the Scale's entries after the
// write then go back to the parent, where whoever changed the replicas owns
// them with subresource "scale".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "local/fieldmanager/managed_fields.h"

namespace kcm::local::fieldmanager {

inline constexpr std::string_view kScaleApiVersion = "autoscaling/v1";

// Where each API version of a scalable kind keeps its replicas; nullopt for a
// version that has no scale subresource (a custom resource's). Entries of
// versions not listed are dropped when the Scale's go back to the parent.
using ReplicasPaths = std::map<std::string, std::optional<Path>, std::less<>>;

// The Scale's entries: each parent entry that owns its version's replicas
// field, as owning the Scale's .spec.replicas in autoscaling/v1 (upstream's
// ToSubresource).
std::vector<ManagerEntry> scale_entries(const std::vector<ManagerEntry>& parent,
                                        const ReplicasPaths& paths);

// The parent's entries after a Scale write that left the Scale with `scale`
// entries (upstream's ToParent). `api_version`: the parent's version the
// request named. As upstream:
// - a parent entry whose manager (by identity, so Apply entries only) still
//   owns the Scale's replicas keeps them; other entries lose them;
// - each other Scale entry owning the replicas becomes a parent entry in
//   `api_version` that owns only them, with the time of a parent entry of the
//   same identity (none for Update entries, whose identity includes
//   autoscaling/v1).
std::vector<ManagerEntry> parent_entries(const std::vector<ManagerEntry>& parent,
                                         const std::vector<ManagerEntry>& scale,
                                         std::string_view api_version, const ReplicasPaths& paths);

}  // namespace kcm::local::fieldmanager
