#include "api/strconv.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "api/field_error.h"

namespace kcm::api {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

std::string strconv_error(std::string_view fn, std::string_view s, std::string_view what) {
  return fmt::format("strconv.{}: parsing {}: {}", fn, go_quote(s), what);
}

}  // namespace

Result<bool> parse_go_bool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return fail(strconv_error("ParseBool", s, "invalid syntax"));
}

// strconv.ParseInt(s, 0, bits): sign, base prefix (0x, 0o, 0b, or a leading
// 0 for octal), underscores between digits.
Result<std::int64_t> parse_go_int(std::string_view s, int bits) {
  return parse_go_int(s, 0, bits);
}

Result<std::int64_t> parse_go_int(std::string_view s, int base_in, int bits) {
  const auto syntax = [&] { return fail(strconv_error("ParseInt", s, "invalid syntax")); };
  std::string_view d = s;
  bool negative = false;
  if (!d.empty() && (d[0] == '+' || d[0] == '-')) {
    negative = d[0] == '-';
    d.remove_prefix(1);
  }
  if (d.empty()) return syntax();
  int base = 10;
  bool prefixed = false;
  if (base_in == 0 && d.size() >= 2 && d[0] == '0') {
    const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(d[1])));
    if (p == 'x' || p == 'o' || p == 'b') {
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      d.remove_prefix(2);
      prefixed = true;
    } else {
      base = 8;
      d.remove_prefix(1);
      prefixed = true;  // the leading 0 counts as a prefix for underscores
    }
  }
  if (d.empty() && base != 8) return syntax();
  unsigned __int128 value = 0;
  const unsigned __int128 cap = static_cast<unsigned __int128>(1) << 64;
  bool saw_digit = prefixed && base == 8;  // "0" alone is a number
  bool last_underscore = false;
  for (const char c : d) {
    if (c == '_') {
      // Only with a base prefix, and only before a digit.
      if (!prefixed || last_underscore) return syntax();
      last_underscore = true;
      continue;
    }
    const int v = digit_value(c);
    if (v >= base) return syntax();
    value = std::min(cap, value * static_cast<unsigned>(base) + static_cast<unsigned>(v));
    saw_digit = true;
    last_underscore = false;
  }
  if (!saw_digit || last_underscore) return syntax();
  const unsigned __int128 limit = static_cast<unsigned __int128>(1) << (bits - 1);
  if ((!negative && value >= limit) || (negative && value > limit)) {
    return fail(strconv_error("ParseInt", s, "value out of range"));
  }
  const auto signed_value = static_cast<__int128>(value);
  return static_cast<std::int64_t>(negative ? -signed_value : signed_value);
}

// strconv.ParseFloat(s, bits) for the decimal forms flags take, plus inf/nan.
Result<double> parse_go_float(std::string_view s, int bits) {
  const auto syntax = [&] { return fail(strconv_error("ParseFloat", s, "invalid syntax")); };
  std::string lower;
  for (const char c : s)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view body = lower;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "infinity") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (body == "nan" && s.size() == 3) return std::numeric_limits<double>::quiet_NaN();
  std::string digits;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '_') {
      const bool between = i > 0 && i + 1 < body.size() &&
                           std::isxdigit(static_cast<unsigned char>(body[i - 1])) &&
                           std::isxdigit(static_cast<unsigned char>(body[i + 1]));
      if (!between) return syntax();
      continue;
    }
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '+' ||
          c == '-')) {
      return syntax();
    }
    digits += c;
  }
  if (digits.empty() ||
      !(std::isdigit(static_cast<unsigned char>(digits[0])) || digits[0] == '.')) {
    return syntax();
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (end != digits.data() + digits.size()) return syntax();
  if (ec == std::errc::result_out_of_range) {
    return fail(strconv_error("ParseFloat", s, "value out of range"));
  }
  if (ec != std::errc()) return syntax();
  if (bits == 32 && std::isfinite(v) &&
      std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
    return fail(strconv_error("ParseFloat", s, "value out of range"));
  }
  return negative ? -v : v;
}

}  // namespace kcm::api
