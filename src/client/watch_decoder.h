// Incremental decoder of a watch response body: a sequence of JSON objects
// {"type": "ADDED", "object": {...}} (the API server writes one per line, but
// frames may arrive split across reads or several in one read). Pure: no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "api/result.h"
#include "client/watch_event.h"

namespace kcm::client {

class WatchDecoder {
 public:
  // Appends body bytes as they arrive.
  void feed(std::string_view bytes);

  // The next complete event; nullopt when more bytes are needed. After an
  // error the decoder stays failed and returns the same error again.
  // Errors follow client-go: "got invalid watch event type: X",
  // "unable to decode watch event: ...".
  Result<std::optional<WatchEvent>> next();

  // True when bytes of an incomplete frame are buffered (at the end of the
  // body this means the stream was cut mid-event).
  bool has_partial() const;

 private:
  std::string buffer_;
  std::size_t start_ = 0;  // first byte not yet consumed
  std::size_t scan_ = 0;   // where the frame scan resumes
  int depth_ = 0;
  bool in_frame_ = false;
  bool in_string_ = false;
  bool escape_ = false;
  std::optional<std::string> error_;
};

// Converts one decoded frame to an event (exposed for tests); the event's
// object is moved out of the frame.
Result<WatchEvent> watch_event_from_json(boost::json::value frame);

}  // namespace kcm::client
