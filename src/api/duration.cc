#include "api/duration.h"

#include <array>
#include <cstdint>

#include "api/ascii.h"

namespace kcm::api {

namespace {

constexpr std::uint64_t kOverflow = std::uint64_t{1} << 63;

struct Unit {
  std::string_view name;
  std::uint64_t nanos;
};

// Go's unitMap, including both spellings of micro (U+00B5 and U+03BC).
constexpr std::array<Unit, 8> kUnits = {{
    {"ns", 1},
    {"us", 1'000},
    {"\xc2\xb5s", 1'000},
    {"\xce\xbcs", 1'000},
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"m", 60'000'000'000},
    {"h", 3'600'000'000'000},
}};

std::string invalid_duration(std::string_view orig) {
  return "time: invalid duration " + go_time_quote(orig);
}

// Consumes [0-9]*; false on overflow past 1<<63 (Go's leadingInt).
bool leading_int(std::string_view& s, std::uint64_t& x) {
  x = 0;
  std::size_t i = 0;
  for (; i < s.size() && is_ascii_digit(s[i]); ++i) {
    if (x > kOverflow / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > kOverflow) return false;
  }
  s.remove_prefix(i);
  return true;
}

// Consumes [0-9]* after a decimal point; stops accumulating precision on
// overflow instead of failing (Go's leadingFraction).
void leading_fraction(std::string_view& s, std::uint64_t& x, double& scale) {
  x = 0;
  scale = 1;
  bool overflow = false;
  std::size_t i = 0;
  for (; i < s.size() && is_ascii_digit(s[i]); ++i) {
    if (overflow) continue;
    if (x > (kOverflow - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (y > kOverflow) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

// Writes the fraction v/10^prec without trailing zeros (nor the point when it
// is zero) in front of `out`, and returns v/10^prec (Go's fmtFrac).
std::uint64_t prepend_fraction(std::string& out, std::uint64_t v, int prec) {
  bool print = false;
  std::string frac;
  for (int i = 0; i < prec; ++i) {
    const auto digit = static_cast<char>(v % 10);
    print = print || digit != 0;
    if (print) frac.insert(frac.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  if (print) out.insert(0, "." + frac);
  return v;
}

void prepend_int(std::string& out, std::uint64_t v) {
  out.insert(0, std::to_string(v));
}

}  // namespace

std::string go_time_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || c < 0x20) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += ch;
  }
  out += '"';
  return out;
}

Result<std::chrono::nanoseconds> parse_duration(std::string_view s) {
  const std::string_view orig = s;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return fail(invalid_duration(orig));

  std::uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_ascii_digit(s[0]))) return fail(invalid_duration(orig));

    std::uint64_t v = 0;
    const std::size_t before_int = s.size();
    if (!leading_int(s, v)) return fail(invalid_duration(orig));
    const bool pre = before_int != s.size();

    std::uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      const std::size_t before_frac = s.size();
      leading_fraction(s, f, scale);
      post = before_frac != s.size();
    }
    if (!pre && !post) return fail(invalid_duration(orig));

    std::size_t i = 0;
    while (i < s.size() && s[i] != '.' && !is_ascii_digit(s[i]))
      ++i;
    if (i == 0) return fail("time: missing unit in duration " + go_time_quote(orig));
    const std::string_view name = s.substr(0, i);
    s.remove_prefix(i);
    std::uint64_t unit = 0;
    for (const Unit& u : kUnits) {
      if (u.name == name) unit = u.nanos;
    }
    if (unit == 0) {
      return fail("time: unknown unit " + go_time_quote(name) + " in duration " +
                  go_time_quote(orig));
    }
    if (v > kOverflow / unit) return fail(invalid_duration(orig));
    v *= unit;
    if (f > 0) {
      // Go computes the fractional part in float64 (exact to the nanosecond
      // for every fraction of an hour); doing the same keeps rounding identical.
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kOverflow) return fail(invalid_duration(orig));
    }
    d += v;
    if (d > kOverflow) return fail(invalid_duration(orig));
  }
  if (neg) {
    // -(1<<63) is representable; wrap-around negation of the unsigned value.
    return std::chrono::nanoseconds(static_cast<std::int64_t>(~d + 1));
  }
  if (d > kOverflow - 1) return fail(invalid_duration(orig));
  return std::chrono::nanoseconds(static_cast<std::int64_t>(d));
}

std::string format_duration(std::chrono::nanoseconds d) {
  const std::int64_t n = d.count();
  const bool neg = n < 0;
  std::uint64_t u = static_cast<std::uint64_t>(n);
  if (neg) u = ~u + 1;

  std::string out;
  if (u < 1'000'000'000) {
    // Below a second Go switches to the largest sub-second unit: "1.2ms".
    int prec = 0;
    if (u == 0) return "0s";
    if (u < 1'000) {
      out = "ns";
      prec = 0;
    } else if (u < 1'000'000) {
      out = "\xc2\xb5s";
      prec = 3;
    } else {
      out = "ms";
      prec = 6;
    }
    u = prepend_fraction(out, u, prec);
    prepend_int(out, u);
  } else {
    out = "s";
    u = prepend_fraction(out, u, 9);
    prepend_int(out, u % 60);
    u /= 60;
    if (u > 0) {
      out.insert(0, "m");
      prepend_int(out, u % 60);
      u /= 60;
      // Go stops at hours: days have different lengths.
      if (u > 0) {
        out.insert(0, "h");
        prepend_int(out, u);
      }
    }
  }
  if (neg) out.insert(0, "-");
  return out;
}

Result<std::chrono::nanoseconds> duration_from_json(const json::value& v) {
  if (v.is_null()) return parse_duration("");
  const json::string* s = v.if_string();
  if (s == nullptr) {
    const char* kind = v.is_bool()     ? "bool"
                       : v.is_object() ? "object"
                       : v.is_array()  ? "array"
                                       : "number";
    return fail(std::string("json: cannot unmarshal ") + kind + " into Go value of type string");
  }
  return parse_duration(std::string_view(s->data(), s->size()));
}

json::value duration_to_json(std::chrono::nanoseconds d) {
  return json::string(format_duration(d));
}

}  // namespace kcm::api
