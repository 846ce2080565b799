#include "api/time.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "api/duration.h"

namespace kcm::api {

namespace {

using std::chrono::nanoseconds;
using TimePoint = std::chrono::system_clock::time_point;

constexpr std::string_view kRfc3339 = "2006-01-02T15:04:05Z07:00";
constexpr std::string_view kRfc3339Micro = "2006-01-02T15:04:05.000000Z07:00";

// Seconds from the Unix epoch to Go's zero time, 0001-01-01T00:00:00Z.
constexpr std::int64_t kZeroTimeUnixSeconds = -62135596800;

// The layout elements of the two layouts above, in the order Go's parser
// walks them.
enum class Elem { kYear, kMonth, kDay, kHour, kMinute, kSecond, kFrac6, kZone, kEnd };

struct Chunk {
  std::string_view prefix;  // literal text before the element
  Elem elem;
  std::string_view text;  // the element as written in the layout
};

constexpr Chunk kSecondsLayout[] = {
    {"", Elem::kYear, "2006"},   {"-", Elem::kMonth, "01"},  {"-", Elem::kDay, "02"},
    {"T", Elem::kHour, "15"},    {":", Elem::kMinute, "04"}, {":", Elem::kSecond, "05"},
    {"", Elem::kZone, "Z07:00"}, {"", Elem::kEnd, ""},
};
constexpr Chunk kMicroLayout[] = {
    {"", Elem::kYear, "2006"},     {"-", Elem::kMonth, "01"},   {"-", Elem::kDay, "02"},
    {"T", Elem::kHour, "15"},      {":", Elem::kMinute, "04"},  {":", Elem::kSecond, "05"},
    {"", Elem::kFrac6, ".000000"}, {"", Elem::kZone, "Z07:00"}, {"", Elem::kEnd, ""},
};

bool digit_at(std::string_view s, std::size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

// Go's time.getnum: one or two digits (exactly two when `fixed`).
bool getnum(std::string_view& s, bool fixed, int& out) {
  if (!digit_at(s, 0)) return false;
  if (!digit_at(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

// Go's time.atoi: optional sign then only digits.
bool time_atoi(std::string_view s, std::int64_t& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t x = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    if (x > (std::uint64_t{1} << 63) / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(c - '0');
    if (x > (std::uint64_t{1} << 63)) return false;
  }
  out = static_cast<std::int64_t>(x);
  if (neg) out = -out;
  return true;
}

// Go's parseNanoseconds: value[0] is the separator, then nbytes-1 digits of
// which only the first nine count.
bool parse_nanoseconds(std::string_view value, std::size_t nbytes, std::int64_t& ns,
                       std::string& range_err) {
  if (value.empty() || (value[0] != '.' && value[0] != ',')) return false;
  if (nbytes > 10) nbytes = 10;
  if (!time_atoi(value.substr(1, nbytes - 1), ns)) return false;
  if (ns < 0) {
    range_err = "fractional second";
    return true;
  }
  for (std::size_t i = nbytes; i < 10; ++i)
    ns *= 10;
  return true;
}

bool is_leap(std::int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in(int month, std::int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap(year)) return 29;
  return kDays[month - 1];
}

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar.
std::int64_t days_from_civil(std::int64_t y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string parse_error(std::string_view layout, std::string_view value, std::string_view elem,
                        std::string_view value_elem) {
  return "parsing time " + go_time_quote(value) + " as " + go_time_quote(layout) +
         ": cannot parse " + go_time_quote(value_elem) + " as " + go_time_quote(elem);
}

std::string parse_error_msg(std::string_view value, std::string_view message) {
  return "parsing time " + go_time_quote(value) + std::string(message);
}

// Go's generic time.parse for the two RFC 3339 layouts, including its
// leniencies (one-digit hours, ',' before fractions, offsets up to 24:60).
// Returns TimePoint::min() for Go's zero time.
template <std::size_t N>
Result<TimePoint> parse_layout(const Chunk (&chunks)[N], std::string_view layout,
                               std::string_view avalue) {
  std::string_view value = avalue;
  std::int64_t year = 0;
  int month = -1, day = -1, hour = 0, minute = 0, sec = 0;
  std::int64_t nsec = 0;
  std::int64_t zone_offset = 0;

  for (std::size_t ci = 0; ci < N; ++ci) {
    const Chunk& c = chunks[ci];
    // The literal prefix must match byte for byte.
    for (const char p : c.prefix) {
      if (value.empty() || value[0] != p) return fail(parse_error(layout, avalue, c.prefix, value));
      value.remove_prefix(1);
    }
    if (c.elem == Elem::kEnd) {
      if (!value.empty()) {
        return fail(parse_error_msg(avalue, ": extra text: " + go_time_quote(value)));
      }
      break;
    }
    const std::string_view hold = value;
    bool ok = true;
    std::string range_err;
    switch (c.elem) {
      case Elem::kYear:
        if (value.size() < 4 || !digit_at(value, 0)) {
          ok = false;
          break;
        }
        ok = time_atoi(value.substr(0, 4), year);
        value.remove_prefix(4);
        break;
      case Elem::kMonth:
        ok = getnum(value, true, month);
        if (ok && (month <= 0 || month > 12)) range_err = "month";
        break;
      case Elem::kDay:
        // Any one- or two-digit day; checked against the month below.
        ok = getnum(value, true, day);
        break;
      case Elem::kHour:
        ok = getnum(value, false, hour);
        if (hour < 0 || hour >= 24) range_err = "hour";
        break;
      case Elem::kMinute:
        ok = getnum(value, true, minute);
        if (minute < 0 || minute >= 60) range_err = "minute";
        break;
      case Elem::kSecond: {
        ok = getnum(value, true, sec);
        if (!ok) break;
        if (sec < 0 || sec >= 60) {
          range_err = "second";
          break;
        }
        // A fraction the layout does not mention is accepted after seconds.
        const bool layout_has_frac = chunks[ci + 1].elem == Elem::kFrac6;
        if (value.size() >= 2 && (value[0] == '.' || value[0] == ',') && digit_at(value, 1) &&
            !layout_has_frac) {
          std::size_t n = 2;
          while (digit_at(value, n))
            ++n;
          ok = parse_nanoseconds(value, n, nsec, range_err);
          value.remove_prefix(n);
        }
        break;
      }
      case Elem::kFrac6:
        // The layout's fraction needs exactly its number of digits.
        if (value.size() < 7) {
          ok = false;
          break;
        }
        ok = parse_nanoseconds(value, 7, nsec, range_err);
        value.remove_prefix(7);
        break;
      case Elem::kZone: {
        if (!value.empty() && value[0] == 'Z') {
          value.remove_prefix(1);
          break;
        }
        if (value.size() < 6 || value[3] != ':') {
          ok = false;
          break;
        }
        const char sign = value[0];
        std::string_view hh = value.substr(1, 2);
        std::string_view mm = value.substr(4, 2);
        value.remove_prefix(6);
        int hr = 0, mi = 0;
        ok = getnum(hh, true, hr) && getnum(mm, true, mi);
        // Go accepts offsets of 24 hours or 60 minutes.
        if (hr > 24) range_err = "time zone offset hour";
        if (mi > 60) range_err = "time zone offset minute";
        zone_offset = (static_cast<std::int64_t>(hr) * 60 + mi) * 60;
        if (sign == '-') {
          zone_offset = -zone_offset;
        } else if (sign != '+') {
          ok = false;
        }
        break;
      }
      case Elem::kEnd:
        break;
    }
    if (!range_err.empty())
      return fail(parse_error_msg(avalue, ": " + range_err + " out of range"));
    if (!ok) return fail(parse_error(layout, avalue, c.text, hold));
  }

  if (day < 1 || day > days_in(month, year)) {
    return fail(parse_error_msg(avalue, ": day out of range"));
  }
  const std::int64_t secs = days_from_civil(year, month, day) * 86400 +
                            static_cast<std::int64_t>(hour) * 3600 + minute * 60 + sec -
                            zone_offset;
  if (secs == kZeroTimeUnixSeconds && nsec == 0) return TimePoint::min();
  // system_clock counts int64 nanoseconds: about 1677-09-21 to 2262-04-11.
  constexpr std::int64_t kMaxSecs = std::numeric_limits<std::int64_t>::max() / 1'000'000'000;
  if (secs >= kMaxSecs || secs <= -kMaxSecs) {
    return fail(parse_error_msg(avalue,
                                ": outside the range of a nanosecond time point "
                                "(1677-09-21T00:12:45Z to 2262-04-11T23:47:15Z)"));
  }
  return TimePoint(
      std::chrono::duration_cast<TimePoint::duration>(nanoseconds(secs * 1'000'000'000 + nsec)));
}

std::string format_time(TimePoint tp, bool micro) {
  if (tp == TimePoint::min()) {
    return micro ? "0001-01-01T00:00:00.000000Z" : "0001-01-01T00:00:00Z";
  }
  using namespace std::chrono;
  const auto secs = floor<seconds>(tp);
  const auto day = floor<days>(secs);
  const year_month_day ymd{day};
  const hh_mm_ss hms{secs - day};
  std::string out =
      fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  hms.hours().count(), hms.minutes().count(), hms.seconds().count());
  if (micro) out += fmt::format(".{:06}", duration_cast<microseconds>(tp - secs).count());
  out += 'Z';
  return out;
}

std::string_view json_kind_for_go(const json::value& v) {
  switch (v.kind()) {
    case json::kind::bool_:
      return "bool";
    case json::kind::object:
      return "object";
    case json::kind::array:
      return "array";
    default:
      return "number";
  }
}

// What Go's Time/MicroTime.UnmarshalJSON accepts: null or a string.
Result<TimePoint> time_from_json(const json::value& v, bool micro) {
  if (v.is_null()) return TimePoint::min();
  const json::string* s = v.if_string();
  if (s == nullptr) {
    return fail("json: cannot unmarshal " + std::string(json_kind_for_go(v)) +
                " into Go value of type string");
  }
  const std::string_view text(s->data(), s->size());
  return micro ? parse_layout(kMicroLayout, kRfc3339Micro, text)
               : parse_layout(kSecondsLayout, kRfc3339, text);
}

// Go's Duration.Seconds/Minutes/Hours: whole units plus the float remainder.
double go_unit_float(std::int64_t n, std::int64_t unit) {
  return static_cast<double>(n / unit) + static_cast<double>(n % unit) / static_cast<double>(unit);
}

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kMinute = 60 * kSecond;
constexpr std::int64_t kHour = 60 * kMinute;

}  // namespace

Time Time::rfc3339_copy() const {
  if (is_zero()) return Time();
  return Time(std::chrono::floor<std::chrono::seconds>(tp_));
}

Result<Time> Time::parse(std::string_view s) {
  auto tp = parse_layout(kSecondsLayout, kRfc3339, s);
  if (!tp) return fail(tp.error());
  return Time(*tp);
}

std::string Time::to_string() const {
  return format_time(tp_, false);
}

Result<Time> Time::from_json(const json::value& v) {
  auto tp = time_from_json(v, false);
  if (!tp) return fail(tp.error());
  return Time(*tp);
}

json::value Time::to_json() const {
  if (is_zero()) return nullptr;
  return json::string(to_string());
}

Result<MicroTime> MicroTime::parse(std::string_view s) {
  auto tp = parse_layout(kMicroLayout, kRfc3339Micro, s);
  if (!tp) return fail(tp.error());
  return MicroTime(*tp);
}

std::string MicroTime::to_string() const {
  return format_time(tp_, true);
}

Result<MicroTime> MicroTime::from_json(const json::value& v) {
  auto tp = time_from_json(v, true);
  if (!tp) return fail(tp.error());
  return MicroTime(*tp);
}

json::value MicroTime::to_json() const {
  if (is_zero()) return nullptr;
  return json::string(to_string());
}

std::string human_duration(std::chrono::nanoseconds d) {
  const std::int64_t n = d.count();
  const auto seconds = static_cast<std::int64_t>(go_unit_float(n, kSecond));
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return fmt::format("{}s", seconds);
  const std::int64_t minutes = n / kMinute;
  if (minutes < 10) {
    const std::int64_t s = (n / kSecond) % 60;
    if (s == 0) return fmt::format("{}m", minutes);
    return fmt::format("{}m{}s", minutes, s);
  }
  if (minutes < 60 * 3) return fmt::format("{}m", minutes);
  const std::int64_t hours = n / kHour;
  if (hours < 8) {
    const std::int64_t m = (n / kMinute) % 60;
    if (m == 0) return fmt::format("{}h", hours);
    return fmt::format("{}h{}m", hours, m);
  }
  if (hours < 48) return fmt::format("{}h", hours);
  if (hours < 24 * 8) {
    const std::int64_t h = hours % 24;
    if (h == 0) return fmt::format("{}d", hours / 24);
    return fmt::format("{}d{}h", hours / 24, h);
  }
  if (hours < 24 * 365 * 2) return fmt::format("{}d", hours / 24);
  if (hours < 24 * 365 * 8) {
    const std::int64_t dy = (hours / 24) % 365;
    if (dy == 0) return fmt::format("{}y", hours / 24 / 365);
    return fmt::format("{}y{}d", hours / 24 / 365, dy);
  }
  return fmt::format("{}y", hours / 24 / 365);
}

std::string short_human_duration(std::chrono::nanoseconds d) {
  const std::int64_t n = d.count();
  const auto seconds = static_cast<std::int64_t>(go_unit_float(n, kSecond));
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60) return fmt::format("{}s", seconds);
  const auto minutes = static_cast<std::int64_t>(go_unit_float(n, kMinute));
  if (minutes < 60) return fmt::format("{}m", minutes);
  const double hours_f = go_unit_float(n, kHour);
  const auto hours = static_cast<std::int64_t>(hours_f);
  if (hours < 24) return fmt::format("{}h", hours);
  if (hours < 24 * 365) return fmt::format("{}d", hours / 24);
  return fmt::format("{}y", static_cast<std::int64_t>(hours_f / 24 / 365));
}

std::string human_age(const Time& t, Time::TimePoint now) {
  if (t.is_zero()) return "<unknown>";
  return human_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(now - t.time_point()));
}

}  // namespace kcm::api
