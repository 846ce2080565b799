#include "controllers/podcounter/node_label.h"

#include "api/json.h"

namespace kcm::controllers::podcounter {

bool is_control_plane_node(const cache::CachedObject& node) {
  return node.label_value(kControlPlaneLabel).has_value();
}

std::optional<std::string> wanted_pod_count_label(const cache::CachedObject& node,
                                                  std::size_t pods) {
  if (!is_control_plane_node(node)) return std::nullopt;
  return std::to_string(pods);
}

std::optional<std::string> pod_count_label_patch(const cache::CachedObject& node,
                                                 std::size_t pods) {
  const std::optional<std::string> want = wanted_pod_count_label(node, pods);
  const std::optional<std::string_view> have = node.label_value(kPodCountLabel);
  if (want == have) return std::nullopt;
  boost::json::object labels;
  if (want)
    labels[kPodCountLabel] = *want;
  else
    labels[kPodCountLabel] = nullptr;  // merge patch: null deletes the key
  boost::json::object metadata;
  metadata["labels"] = std::move(labels);
  boost::json::object patch;
  patch["metadata"] = std::move(metadata);
  return boost::json::serialize(patch);
}

bool node_add_needs_sync(const cache::CachedObject& node) {
  return is_control_plane_node(node) || node.label_value(kPodCountLabel).has_value();
}

bool node_update_needs_sync(const cache::CachedObject& old_node,
                            const cache::CachedObject& new_node) {
  return is_control_plane_node(old_node) != is_control_plane_node(new_node) ||
         old_node.label_value(kPodCountLabel) != new_node.label_value(kPodCountLabel);
}

}  // namespace kcm::controllers::podcounter
