#include "client/watch_event.h"

namespace kcm::client {

std::string_view to_string(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
    case WatchEventType::kError:
      return "ERROR";
  }
  return "ERROR";
}

std::optional<WatchEventType> parse_watch_event_type(std::string_view text) {
  for (const auto t : {WatchEventType::kAdded, WatchEventType::kModified, WatchEventType::kDeleted,
                       WatchEventType::kBookmark, WatchEventType::kError}) {
    if (to_string(t) == text) return t;
  }
  return std::nullopt;
}

}  // namespace kcm::client
