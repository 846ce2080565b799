// Go-style durations: time.ParseDuration and time.Duration.String(), the text
// form of every duration flag and of metav1.Duration fields ("1m30s", "300ms").
// A Go Duration is an int64 count of nanoseconds, as std::chrono::nanoseconds.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

// Parses "1m30s", "1.5h", "-300ms", "0", ... with Go's grammar
// [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, units ns, us (µs, μs), ms, s, m, h.
// Errors are Go's, e.g. `time: missing unit in duration "1"`.
Result<std::chrono::nanoseconds> parse_duration(std::string_view s);

// Go's Duration.String(): "1h2m3.5s", "1.5ms", "0s"; the largest unit is hours.
std::string format_duration(std::chrono::nanoseconds d);

// metav1.Duration on the wire: a JSON string in Go's duration syntax.
Result<std::chrono::nanoseconds> duration_from_json(const json::value& v);
json::value duration_to_json(std::chrono::nanoseconds d);

// The quoting Go's time package uses in its error messages: double quotes,
// `"` and `\` escaped, and every byte below 0x20 or above 0x7f as \xHH.
std::string go_time_quote(std::string_view s);

}  // namespace kcm::api
