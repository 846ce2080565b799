#include "controllers/replicaset/pods_to_delete.h"

#include <map>

#include "controller/pod_util.h"

namespace kcm::controllers::replicaset {

std::vector<int> ranks_by_related_pods_on_same_node(
    const std::vector<const json::object*>& pods, const std::vector<const json::object*>& related) {
  std::map<std::string_view, int, std::less<>> pods_on_node;
  for (const json::object* p : related) {
    if (controller::is_pod_active(*p)) ++pods_on_node[controller::pod_node_name(*p)];
  }
  std::vector<int> ranks;
  ranks.reserve(pods.size());
  for (const json::object* p : pods) {
    const auto it = pods_on_node.find(controller::pod_node_name(*p));
    ranks.push_back(it == pods_on_node.end() ? 0 : it->second);
  }
  return ranks;
}

std::vector<const json::object*> get_pods_to_delete(std::vector<const json::object*> pods,
                                                    const std::vector<const json::object*>& related,
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

std::vector<std::string> get_pod_keys(const std::vector<const json::object*>& pods) {
  std::vector<std::string> keys;
  keys.reserve(pods.size());
  for (const json::object* p : pods)
    keys.push_back(controller::pod_key(*p));
  return keys;
}

}  // namespace kcm::controllers::replicaset
