#include "client/watch_decoder.h"

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

Result<std::optional<WatchEvent>> WatchDecoder::next() {
  if (error_) return fail(*error_);
  while (scan_ < buffer_.size()) {
    const char c = buffer_[scan_];
    if (!in_frame_) {
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
      depth_ = 1;
      ++scan_;
      continue;
    }
    ++scan_;
    if (in_string_) {
      if (escape_) {
        escape_ = false;
      } else if (c == '\\') {
        escape_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (c == '}' || c == ']') {
      if (--depth_ == 0) {
        const std::string_view frame(buffer_.data() + start_, scan_ - start_);
        in_frame_ = false;
        start_ = scan_;
        std::string parse_error;
        // Each event's tree is built in its own arena, freed in one go once
        // the last value from it is gone: an informer keeps only what it
        // extracts from the event, so freeing node by node would be waste.
        auto value = api::parse_json(
            frame, &parse_error,
            boost::json::make_shared_resource<boost::json::monotonic_resource>(2 * frame.size()));
        if (!value) {
          error_ = "unable to decode watch event: " + parse_error;
          return fail(*error_);
        }
        auto event = watch_event_from_json(std::move(*value));
        if (!event) {
          error_ = event.error();
          return fail(*error_);
        }
        return std::optional<WatchEvent>(std::move(*event));
      }
    }
  }
  return std::optional<WatchEvent>();
}

}  // namespace kcm::client
