#include "controllers/podcounter/counted_pods.h"

#include <fmt/format.h>

namespace kcm::controllers::podcounter {

std::string pod_counted_message(std::size_t pods) {
  return fmt::format("Pod counted ({} {} in the cluster)", pods, pods == 1 ? "pod" : "pods");
}

std::vector<std::string> counted_pod_uids(const std::vector<boost::json::value>& events) {
  std::vector<std::string> uids;
  for (const boost::json::value& event : events) {
    if (api::as_string_view(api::find_path(event, {"reason"})) != kPodCountedReason) continue;
    if (api::as_string_view(api::find_path(event, {"involvedObject", "kind"})) != "Pod") continue;
    const std::string_view uid =
        api::as_string_view(api::find_path(event, {"involvedObject", "uid"}));
    if (!uid.empty()) uids.emplace_back(uid);
  }
  return uids;
}

void CountedPods::remember(std::string uid) {
  uids_.try_emplace(std::move(uid), 0);
}

std::vector<cache::ObjectPtr> CountedPods::count(const std::vector<cache::ObjectPtr>& pods) {
  const std::uint64_t now = ++generation_;
  std::vector<cache::ObjectPtr> fresh;
  for (const cache::ObjectPtr& pod : pods) {
    if (auto it = uids_.find(pod->uid()); it != uids_.end()) {
      it->second = now;
    } else {
      uids_.emplace(std::string(pod->uid()), now);
      fresh.push_back(pod);
    }
  }
  std::erase_if(uids_, [now](const auto& entry) { return entry.second != now; });
  return fresh;
}

}  // namespace kcm::controllers::podcounter
