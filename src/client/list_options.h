// Query options of list and watch requests (metav1.ListOptions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kcm::client {

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;        // "", "0" or a resourceVersion
  std::string resource_version_match;  // "", "NotOlderThan", "Exact"
  std::int64_t limit = 0;
  std::string continue_token;
  // Watches only.
  std::optional<std::int64_t> timeout_seconds;
  bool allow_watch_bookmarks = false;
  std::optional<bool> send_initial_events;
};

}  // namespace kcm::client
