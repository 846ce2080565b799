#include "local/protobuf/go_text.h"

#include <fmt/format.h>

#include "api/utf8.h"

namespace kcm::local::protobuf {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day
// number counted from 1970-01-01.
struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {y + (m <= 2 ? 1 : 0), m, d};
}

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kSecondsPerDay = 86'400;
// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in Unix seconds.
constexpr std::int64_t kMinSeconds = -62'167'219'200;
constexpr std::int64_t kEndSeconds = 253'402'300'800;
// Go's zero time, 0001-01-01T00:00:00Z.
constexpr std::int64_t kGoZeroSeconds = -62'135'596'800;

// time.Unix's normalization of (seconds, nanos).
GoInstant normalize(const GoInstant& t) {
  GoInstant n = t;
  if (n.nanos < 0 || n.nanos >= kNanosPerSecond) {
    std::int64_t carry = n.nanos / kNanosPerSecond;
    n.nanos -= carry * kNanosPerSecond;
    if (n.nanos < 0) {
      n.nanos += kNanosPerSecond;
      --carry;
    }
    n.seconds += carry;
  }
  return n;
}

}  // namespace

std::string go_json_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    if (const auto rune = api::decode_rune(s, i)) {
      out.append(s.substr(i, rune->second));
      i += rune->second;
    } else {
      out.append(kReplacement);
      ++i;
    }
  }
  return out;
}

bool is_go_zero_time(const GoInstant& t) {
  const GoInstant n = normalize(t);
  return n.seconds == kGoZeroSeconds && n.nanos == 0;
}

Result<std::string> format_go_time(const GoInstant& t, bool micros) {
  // Seconds near the int64 limits would overflow the normalization.
  if (t.seconds < kMinSeconds - 1 || t.seconds > kEndSeconds + 1) {
    return fail(fmt::format("time out of range: {} seconds since 1970", t.seconds));
  }
  const GoInstant n = normalize(t);
  if (n.seconds < kMinSeconds || n.seconds >= kEndSeconds) {
    return fail(fmt::format("time out of range: {} seconds since 1970", t.seconds));
  }
  std::int64_t days = n.seconds / kSecondsPerDay;
  std::int64_t secs = n.seconds % kSecondsPerDay;
  if (secs < 0) {
    secs += kSecondsPerDay;
    --days;
  }
  const Civil c = civil_from_days(days);
  std::string out = fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}", c.year, c.month, c.day,
                                secs / 3600, secs / 60 % 60, secs % 60);
  if (micros) out += fmt::format(".{:06d}", n.nanos / 1000);
  out += 'Z';
  return out;
}

}  // namespace kcm::local::protobuf
