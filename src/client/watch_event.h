// A stream of watch events, as decoded from the API server's chunked JSON
// (see watch_decoder.h for the decoder and resource_client.h for the source).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::client {

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

struct WatchEvent {
  WatchEventType type;
  // The object; for kError the Status (see api::Status::from_json).
  boost::json::value object;
};

class WatchStream {
 public:
  virtual ~WatchStream() = default;
  // Blocks for the next event. nullopt when the stream ended: the server
  // closed it (timeoutSeconds), the connection dropped, or stop() was called
  // (as client-go, a dropped connection is an ordinary end: re-watch from the
  // last resourceVersion). An error (code 500, reason InternalError, client-go's
  // "unable to decode an event from the watch stream: ..." message) when the
  // stream could not be decoded.
  virtual Result<std::optional<WatchEvent>, api::Status> next() = 0;
  // Ends the stream from any thread; a blocked next() returns nullopt.
  virtual void stop() = 0;
};

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR": the wire names.
std::string_view to_string(WatchEventType type);
// The inverse of to_string; nullopt for anything else.
std::optional<WatchEventType> parse_watch_event_type(std::string_view text);

}  // namespace kcm::client
