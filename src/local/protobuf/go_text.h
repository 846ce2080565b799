// How Go's encoding/json prints the scalar values a protobuf body decodes to:
// strings with invalid UTF-8 coerced, and metav1.Time / MicroTime from the
// seconds and nanoseconds of their Timestamp message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::local::protobuf {

// `s` with every byte that does not start a valid UTF-8 sequence replaced by
// U+FFFD, as encoding/json writes Go strings (valid text is unchanged).
std::string go_json_text(std::string_view s);

// The Unix time `seconds` + `nanos` (nanos may be out of [0, 1e9): Go's
// time.Unix normalizes it).
struct GoInstant {
  std::int64_t seconds = 0;
  std::int64_t nanos = 0;
};

// Go's zero time.Time (0001-01-01T00:00:00Z), which metav1 prints as null.
bool is_go_zero_time(const GoInstant& t);

// RFC 3339 in UTC as metav1.Time prints it ("2026-11-30T10:00:00Z", whole
// seconds) or, with `micros`, as metav1.MicroTime does (six fraction digits,
// truncated). Years outside 0000..9999 are an error: Go would print them but
// could not parse them back.
Result<std::string> format_go_time(const GoInstant& t, bool micros);

}  // namespace kcm::local::protobuf
