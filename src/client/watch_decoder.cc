#include "client/watch_decoder.h"

#include <algorithm>

#include "api/json_parse.h"

namespace kcm::client {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 0xf];
}

}  // namespace

Result<WatchEvent> watch_event_from_json(boost::json::value frame) {
  auto* o = frame.if_object();
  if (o == nullptr) return fail("unable to decode watch event: the frame is not a JSON object");
  const auto type_text = api::find_string(*o, "type");
  const auto type = parse_watch_event_type(type_text.value_or(""));
  if (!type) {
    return fail("got invalid watch event type: " + std::string(type_text.value_or("")));
  }
  auto* object = o->if_contains("object");
  if (object == nullptr || object->is_null()) {
    return fail("unable to decode watch event: Object 'Kind' is missing in ''");
  }
  const auto* object_fields = object->if_object();
  if (object_fields == nullptr) {
    return fail("unable to decode watch event: the object is not a JSON object: " +
                api::to_json_string(*object));
  }
  if (api::find_string(*object_fields, "kind").value_or("").empty()) {
    return fail("unable to decode watch event: Object 'Kind' is missing in '" +
                api::to_json_string(*object) + "'");
  }
  return WatchEvent{*type, std::move(*object)};
}

void WatchDecoder::feed(std::string_view bytes) {
  if (error_) return;
  // Drop consumed bytes once they dominate the buffer, keeping appends amortized O(1).
  if (start_ > 0 && start_ >= buffer_.size() / 2) {
    buffer_.erase(0, start_);
    scan_ -= start_;
    start_ = 0;
  }
  buffer_.append(bytes);
}

bool WatchDecoder::has_partial() const {
  for (std::size_t i = start_; i < buffer_.size(); ++i) {
    if (!is_space(buffer_[i])) return true;
  }
  return false;
}

WatchDecoder::WatchDecoder() : parser_({}, api::json_parse_options()) {}

Result<std::optional<WatchEvent>> WatchDecoder::next() {
  if (error_) return fail(*error_);
  if (frame_failed_) return report_failed_frame();
  while (scan_ < buffer_.size()) {
    if (!in_frame_) {
      const char c = buffer_[scan_];
      if (is_space(c)) {
        ++scan_;
        start_ = scan_;
        continue;
      }
      if (c != '{') {
        error_ = "unable to decode watch event: unexpected " + printable(c) +
                 " where a JSON object should start";
        return fail(*error_);
      }
      in_frame_ = true;
      // Each event's tree is built in its own arena, freed in one go once
      // the last value from it is gone: an informer keeps only what it
      // extracts from the event, so freeing node by node would be waste.
      parser_.reset(
          boost::json::make_shared_resource<boost::json::monotonic_resource>(next_arena_size_));
    }
    // The frame is parsed as its bytes arrive: no separate scan for its end.
    boost::system::error_code ec;
    scan_ += parser_.write_some(buffer_.data() + scan_, buffer_.size() - scan_, ec);
    if (ec) {
      frame_failed_ = true;
      return report_failed_frame();
    }
    if (!parser_.done()) break;  // the rest of the frame is still to come
    // Frames of one watch are alike: the next arena starts at twice this
    // frame's text, which held this frame's tree.
    next_arena_size_ = std::clamp<std::size_t>(2 * (scan_ - start_), 1024, 1 << 20);
    in_frame_ = false;
    start_ = scan_;
    auto event = watch_event_from_json(parser_.release());
    if (!event) {
      error_ = event.error();
      return fail(*error_);
    }
    return std::optional<WatchEvent>(std::move(*event));
  }
  return std::optional<WatchEvent>();
}

Result<std::optional<WatchEvent>> WatchDecoder::report_failed_frame() {
  // Where the stream parser reports an error depends on where the reads
  // split (inside a UTF-8 sequence or a literal, say). So the frame is
  // reported once its closing brace is here, parsed alone: the same message
  // for every split.
  const std::string_view rest = std::string_view(buffer_).substr(start_);
  const std::optional<std::size_t> size = balanced_object_size(rest);
  if (!size) {
    scan_ = buffer_.size();
    return std::optional<WatchEvent>();
  }
  std::string parse_error;
  if (api::parse_json(rest.substr(0, *size), &parse_error)) {
    parse_error = "invalid JSON";  // not expected: the stream parser refused these bytes
  }
  error_ = "unable to decode watch event: " + parse_error;
  return fail(*error_);
}

std::optional<std::size_t> WatchDecoder::balanced_object_size(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escape = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::nullopt;
}

}  // namespace kcm::client
