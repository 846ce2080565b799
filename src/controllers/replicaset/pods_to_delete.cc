#include "controllers/replicaset/pods_to_delete.h"

#include <map>

namespace kcm::controllers::replicaset {

std::vector<int> ranks_by_related_pods_on_same_node(const std::vector<const CachedPod*>& pods,
                                                    const std::vector<const CachedPod*>& related) {
  std::map<std::string_view, int, std::less<>> pods_on_node;
  for (const CachedPod* p : related) {
    if (controller::is_pod_active(*p)) ++pods_on_node[p->facts().node_name];
  }
  std::vector<int> ranks;
  ranks.reserve(pods.size());
  for (const CachedPod* p : pods) {
    const auto it = pods_on_node.find(p->facts().node_name);
    ranks.push_back(it == pods_on_node.end() ? 0 : it->second);
  }
  return ranks;
}

std::vector<const CachedPod*> get_pods_to_delete(std::vector<const CachedPod*> pods,
                                                 const std::vector<const CachedPod*>& related,
                                                 std::size_t diff, api::Time now,
                                                 const controller::RankOptions& options) {
  // No need to rank the pods when all of them go.
  if (diff < pods.size()) {
    std::vector<int> ranks = ranks_by_related_pods_on_same_node(pods, related);
    controller::sort_active_pods_with_ranks(pods, ranks, now, options);
    pods.resize(diff);
  }
  return pods;
}

std::vector<std::string> get_pod_keys(const std::vector<const CachedPod*>& pods) {
  std::vector<std::string> keys;
  keys.reserve(pods.size());
  for (const CachedPod* p : pods) {
    // PodKey is "namespace/name" even for a pod without a namespace.
    const cache::CachedObject& o = p->object();
    keys.push_back(std::string(o.namespace_()) + "/" + std::string(o.name()));
  }
  return keys;
}

}  // namespace kcm::controllers::replicaset
