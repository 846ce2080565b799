// metav1.Time and metav1.MicroTime: instants on the wire as RFC 3339 strings,
// plus the human-readable ages kubectl and the API server's tables print.
//
// Go's zero time (year 1) is outside what a nanosecond system_clock can hold,
// so it is the sentinel TimePoint::min(): it sorts before every real instant,
// exactly like Go's zero time, and encodes as JSON null.
#pragma once

#include <chrono>
#include <compare>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

class Time {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  Time() = default;  // the zero time
  explicit Time(TimePoint tp) : tp_(tp) {}
  static Time now() { return Time(std::chrono::system_clock::now()); }

  bool is_zero() const { return tp_ == TimePoint::min(); }
  // The instant; TimePoint::min() for the zero time.
  TimePoint time_point() const { return tp_; }
  // The same instant truncated to whole seconds: what survives a round trip
  // through JSON (upstream's Rfc3339Copy).
  Time rfc3339_copy() const;

  // time.Parse(time.RFC3339, s): offsets, fractional seconds (kept), "Z".
  // "0001-01-01T00:00:00Z" is the zero time. Errors are Go's ParseError text.
  static Result<Time> parse(std::string_view s);
  // RFC 3339 in UTC with whole seconds: "2026-11-30T10:00:00Z".
  std::string to_string() const;

  // JSON: a string, or null for the zero time (both directions).
  static Result<Time> from_json(const json::value& v);
  json::value to_json() const;

  friend bool operator==(const Time&, const Time&) = default;
  friend auto operator<=>(const Time&, const Time&) = default;

 private:
  TimePoint tp_ = TimePoint::min();
};

// Microsecond precision on the wire ("2006-01-02T15:04:05.000000Z07:00"),
// used by Lease and Event timestamps.
class MicroTime {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  MicroTime() = default;  // the zero time
  explicit MicroTime(TimePoint tp) : tp_(tp) {}
  static MicroTime now() { return MicroTime(std::chrono::system_clock::now()); }

  bool is_zero() const { return tp_ == TimePoint::min(); }
  TimePoint time_point() const { return tp_; }

  // time.Parse("2006-01-02T15:04:05.000000Z07:00", s): exactly six fraction digits.
  static Result<MicroTime> parse(std::string_view s);
  // "2026-11-30T10:00:00.123456Z" (always UTC, always six digits).
  std::string to_string() const;

  static Result<MicroTime> from_json(const json::value& v);
  json::value to_json() const;

  friend bool operator==(const MicroTime&, const MicroTime&) = default;
  friend auto operator<=>(const MicroTime&, const MicroTime&) = default;

 private:
  TimePoint tp_ = TimePoint::min();
};

// apimachinery's duration.HumanDuration: about 2-3 significant figures,
// "5s", "119s", "3m2s", "45h", "2d1h", "367d", "4y100d"; "<invalid>" below -1s.
std::string human_duration(std::chrono::nanoseconds d);
// duration.ShortHumanDuration: one unit only, "59s", "1m", "23h", "364d", "2y".
std::string short_human_duration(std::chrono::nanoseconds d);
// The AGE column: human_duration(now - t), or "<unknown>" for the zero time.
std::string human_age(const Time& t, Time::TimePoint now);

}  // namespace kcm::api
