#include "local/openapi_v2/extension_yaml.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace kcm::local::openapi_v2 {
namespace {

// Plain scalars that YAML 1.1 (go-yaml v2) resolves to booleans or null.
constexpr std::array<std::string_view, 10> kReserved = {"y",     "n",  "yes", "no",   "true",
                                                        "false", "on", "off", "null", "~"};

bool plain_safe(std::string_view s) {
  if (s.empty() || std::isalpha(static_cast<unsigned char>(s[0])) == 0) return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) == 0 && c != '.' && c != '_' && c != '/' && c != '-' && c != ',') {
      return false;
    }
  }
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(kReserved.begin(), kReserved.end(), lower) == kReserved.end();
}

std::string scalar(const json::value& v) {
  switch (v.kind()) {
    case json::kind::string: {
      const std::string_view s = v.get_string();
      // JSON's escapes are valid in YAML double-quoted scalars.
      return plain_safe(s) ? std::string(s) : json::serialize(v);
    }
    case json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(v.get_int64());
    case json::kind::uint64:
      return std::to_string(v.get_uint64());
    case json::kind::double_:
      return fmt::format("{}", v.get_double());
    case json::kind::null:
      return "null";
    case json::kind::array:
      return "[]";
    case json::kind::object:
      return "{}";
  }
  return "null";
}

bool is_block(const json::value& v) {
  return (v.is_array() && !v.get_array().empty()) || (v.is_object() && !v.get_object().empty());
}

// Writes `v` as lines that each start with `indent` spaces.
void emit(const json::value& v, std::size_t indent, std::string& out) {
  const std::string pad(indent, ' ');
  if (!is_block(v)) {
    out += pad + scalar(v) + "\n";
    return;
  }
  if (v.is_array()) {
    for (const auto& e : v.get_array()) {
      // The element is written two columns in, then its first line's
      // indentation becomes the "- " marker.
      std::string child;
      emit(e, indent + 2, child);
      out += pad + "- " + child.substr(indent + 2);
    }
    return;
  }
  for (const auto& [k, e] : v.get_object()) {
    out += pad + scalar(json::value(k)) + ":";
    if (!is_block(e)) {
      out += " " + scalar(e) + "\n";
    } else if (e.is_array()) {
      out += "\n";
      emit(e, indent, out);  // go-yaml keeps a sequence under a key at the key's column
    } else {
      out += "\n";
      emit(e, indent + 2, out);
    }
  }
}

}  // namespace

std::string extension_yaml(const json::value& value) {
  std::string out;
  emit(value, 0, out);
  return out;
}

}  // namespace kcm::local::openapi_v2
