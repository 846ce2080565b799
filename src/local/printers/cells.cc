#include "local/printers/cells.h"

#include <cstddef>

#include "api/utf8.h"

namespace kcm::local::printers {

const json::object* object_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return nullptr;
  return api::find_object(*o, key);
}

const json::array* array_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return nullptr;
  return api::find_array(*o, key);
}

std::string_view string_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  return api::as_string_view(o->if_contains(key));
}

std::int64_t int_at(const json::object* o, std::string_view key, std::int64_t zero) {
  if (o == nullptr) return zero;
  return api::find_int(*o, key).value_or(zero);
}

bool bool_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return false;
  return api::find_bool(*o, key).value_or(false);
}

std::int64_t map_len_at(const json::object* o, std::string_view key) {
  const json::object* map = object_at(o, key);
  return map == nullptr ? 0 : static_cast<std::int64_t>(map->size());
}

bool present(const json::object* o, std::string_view key) {
  if (o == nullptr) return false;
  const json::value* v = o->if_contains(key);
  return v != nullptr && !v->is_null();
}

api::Time time_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  const json::value* v = o->if_contains(key);
  if (v == nullptr) return {};
  // RFC 3339 with or without fractions covers both Time and MicroTime.
  auto t = api::Time::from_json(*v);
  return t ? *t : api::Time();
}

std::string age(const api::Time& t, TimePoint now) {
  return api::human_age(t, now);
}

std::string creation_age(const json::object& object, TimePoint now) {
  return age(time_at(api::find_object(object, "metadata"), "creationTimestamp"), now);
}

std::string_view object_name(const json::object& object) {
  return string_at(api::find_object(object, "metadata"), "name");
}

std::pair<std::string, std::string> layout_container_cells(const json::array* containers) {
  std::pair<std::string, std::string> out;
  if (containers == nullptr) return out;
  bool first = true;
  for (const json::value& c : *containers) {
    if (!first) {
      out.first += ',';
      out.second += ',';
    }
    first = false;
    const json::object* container = c.if_object();
    out.first += string_at(container, "name");
    out.second += string_at(container, "image");
  }
  return out;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

namespace {

// Decodes the UTF-8 sequence at s[i] (0 and length 1 when invalid, where Go
// decodes utf8.RuneError).
char32_t decode_at(std::string_view s, std::size_t i, std::size_t& len) {
  const auto rune = api::decode_rune(s, i);
  len = rune ? rune->second : 1;
  return rune ? rune->first : 0;
}

// unicode.IsSpace.
bool is_space(char32_t c) {
  switch (c) {
    case U'\t':
    case U'\n':
    case U'\v':
    case U'\f':
    case U'\r':
    case U' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

}  // namespace

std::string_view trim_space(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t len = 0;
    if (!is_space(decode_at(s, begin, len))) break;
    begin += len;
  }
  std::size_t end = s.size();
  while (end > begin) {
    // Step back to the start of the last code point.
    std::size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80 &&
           end - start < 4) {
      --start;
    }
    std::size_t len = 0;
    const char32_t c = decode_at(s, start, len);
    if (start + len != end || !is_space(c)) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

}  // namespace kcm::local::printers
