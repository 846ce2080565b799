#include "api/go_json_marshal.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "api/utf8.h"

namespace kcm::api {
namespace {

void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          // Control characters and the HTML-sensitive <, >, &.
          if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
          } else {
            out += static_cast<char>(c);
          }
      }
      continue;
    }
    const auto rune = decode_rune(s, i);
    if (!rune) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (rune->first == 0x2028 || rune->first == 0x2029) {
      out += rune->first == 0x2028 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s.substr(i, rune->second));
    }
    i += rune->second;
  }
  out += '"';
}

// strconv.FormatFloat(f, 'g', -1, 64) for the values Marshal refuses.
std::string unsupported(double d) {
  if (std::isnan(d)) return "NaN";
  return d > 0 ? "+Inf" : "-Inf";
}

Result<void> append_double(std::string& out, double d) {
  if (!std::isfinite(d)) return fail("json: unsupported value: " + unsupported(d));
  const double a = std::fabs(d);
  const bool exponent = a != 0 && (a < 1e-6 || a >= 1e21);
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, d,
                               exponent ? std::chars_format::scientific : std::chars_format::fixed);
  if (r.ec != std::errc()) return fail("json: cannot format a number");
  std::string text(buf, r.ptr);
  // Go writes e-7, not e-07 (and e+21 as it is).
  if (const std::size_t n = text.size();
      exponent && n >= 4 && text[n - 4] == 'e' && text[n - 3] == '-' && text[n - 2] == '0') {
    text.erase(n - 2, 1);
  }
  out += text;
  return {};
}

Result<void> append_value(std::string& out, const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      out += "null";
      return {};
    case json::kind::bool_:
      out += v.get_bool() ? "true" : "false";
      return {};
    case json::kind::int64:
      out += std::to_string(v.get_int64());
      return {};
    case json::kind::uint64:
      out += std::to_string(v.get_uint64());
      return {};
    case json::kind::double_:
      return append_double(out, v.get_double());
    case json::kind::string:
      append_string(out, v.get_string());
      return {};
    case json::kind::array: {
      out += '[';
      bool first = true;
      for (const json::value& e : v.get_array()) {
        if (!first) out += ',';
        first = false;
        if (auto ok = append_value(out, e); !ok) return ok;
      }
      out += ']';
      return {};
    }
    case json::kind::object: {
      out += '{';
      bool first = true;
      for (const auto& member : v.get_object()) {
        if (!first) out += ',';
        first = false;
        append_string(out, member.key());
        out += ':';
        if (auto ok = append_value(out, member.value()); !ok) return ok;
      }
      out += '}';
      return {};
    }
  }
  return {};
}

}  // namespace

Result<std::string> go_json_marshal(const json::value& v) {
  std::string out;
  if (auto ok = append_value(out, v); !ok) return fail(ok.error());
  return out;
}

double float32_for_json(float f) {
  if (!std::isfinite(f)) return static_cast<double>(f);
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  double d = 0;
  std::from_chars(buf, r.ptr, d);
  return d;
}

}  // namespace kcm::api
