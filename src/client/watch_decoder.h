// Incremental decoder of a watch response body: a sequence of JSON objects
// {"type": "ADDED", "object": {...}} (the API server writes one per line, but
// frames may arrive split across reads or several in one read). Pure: no I/O.
#pragma once

#include <boost/json/stream_parser.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "api/result.h"
#include "client/watch_event.h"

namespace kcm::client {

class WatchDecoder {
 public:
  WatchDecoder();

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
  Result<std::optional<WatchEvent>> report_failed_frame();
  // The size of the JSON object `text` starts with, counting brackets outside
  // strings; nullopt while its end has not arrived.
  static std::optional<std::size_t> balanced_object_size(std::string_view text);

  std::string buffer_;
  std::size_t start_ = 0;  // first byte of the current frame (or of what is left)
  std::size_t scan_ = 0;   // first byte not yet given to the parser
  bool in_frame_ = false;
  bool frame_failed_ = false;  // the parser refused the current frame
  boost::json::stream_parser parser_;
  std::size_t next_arena_size_ = 4096;
  std::optional<std::string> error_;
};

// Converts one decoded frame to an event (exposed for tests); the event's
// object is moved out of the frame.
Result<WatchEvent> watch_event_from_json(boost::json::value frame);

}  // namespace kcm::client
