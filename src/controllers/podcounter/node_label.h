// The pod counter's decisions about nodes: which nodes carry the count, what
// their label should read, and which informer notifications can change that.
// Pure functions of cached objects, so they are tested without a cluster.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "cache/cached_object.h"

namespace kcm::controllers::podcounter {

// Where the count is kept, and on which nodes.
inline constexpr std::string_view kPodCountLabel = "kcm.dev/pod-count";
inline constexpr std::string_view kControlPlaneLabel = "node-role.kubernetes.io/control-plane";

// A node carrying the control-plane role label, whatever its value (kubeadm
// and kcm-local set it to "").
bool is_control_plane_node(const cache::CachedObject& node);

// What the node's kcm.dev/pod-count label should read when the cluster has
// `pods` pods: the count on control-plane nodes, nothing elsewhere (a node
// that lost the role loses the label).
std::optional<std::string> wanted_pod_count_label(const cache::CachedObject& node,
                                                  std::size_t pods);

// The JSON merge patch that makes the node's label what it should be
// (`{"metadata":{"labels":{"kcm.dev/pod-count":"3"}}}`, or `null` to remove
// it), or nullopt when it already is: sync writes only what is wrong.
std::optional<std::string> pod_count_label_patch(const cache::CachedObject& node, std::size_t pods);

// Whether a node notification can change what sync writes: a node that has
// or should have the label appeared, or the role label or the count label
// changed. Status heartbeats and resyncs change neither and are dropped.
bool node_add_needs_sync(const cache::CachedObject& node);
bool node_update_needs_sync(const cache::CachedObject& old_node,
                            const cache::CachedObject& new_node);

}  // namespace kcm::controllers::podcounter
