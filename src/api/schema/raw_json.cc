#include "api/schema/raw_json.h"

#include <fmt/format.h>

#include "api/utf8.h"

namespace kcm::api::schema {
namespace {

constexpr int kMaxRawDepth = 10000;

class RawParser {
 public:
  explicit RawParser(std::string_view s) : s_(s) {}

  Result<RawValue> document() {
    RawValue v;
    skip_space();
    if (!value(v, 0)) return fail(error_);
    skip_space();
    if (pos_ != s_.size()) return fail(at("unexpected data after the JSON value"));
    return v;
  }

 private:
  std::string at(std::string_view what) const {
    return fmt::format("invalid JSON at offset {}: {}", pos_, what);
  }
  bool error(std::string_view what) {
    error_ = at(what);
    return false;
  }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return error("invalid literal");
    pos_ += word.size();
    return true;
  }

  bool value(RawValue& v, int depth) {
    if (depth > kMaxRawDepth) return error("nesting too deep");
    if (pos_ >= s_.size()) return error("unexpected end of input");
    switch (s_[pos_]) {
      case 'n':
        v.kind = RawValue::Kind::kNull;
        return literal("null");
      case 't':
        v.kind = RawValue::Kind::kBool;
        v.boolean = true;
        return literal("true");
      case 'f':
        v.kind = RawValue::Kind::kBool;
        return literal("false");
      case '"':
        v.kind = RawValue::Kind::kString;
        return string(v.text);
      case '[':
        return array(v, depth);
      case '{':
        return object(v, depth);
      default:
        v.kind = RawValue::Kind::kNumber;
        return number(v.text);
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  bool number(std::string& out) {
    const std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ >= s_.size() || !digit(s_[pos_])) return error("invalid number");
    if (s_[pos_] == '0') {
      ++pos_;
    } else {
      while (pos_ < s_.size() && digit(s_[pos_]))
        ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (pos_ >= s_.size() || !digit(s_[pos_])) return error("invalid number");
      while (pos_ < s_.size() && digit(s_[pos_]))
        ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ >= s_.size() || !digit(s_[pos_])) return error("invalid number");
      while (pos_ < s_.size() && digit(s_[pos_]))
        ++pos_;
    }
    out.assign(s_.substr(start, pos_ - start));
    return true;
  }

  bool hex4(unsigned& out) {
    if (pos_ + 4 > s_.size()) return error("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      out <<= 4;
      if (c >= '0' && c <= '9') {
        out |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        out |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        out |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        return error("invalid \\u escape");
      }
    }
    return true;
  }

  bool string(std::string& out) {
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= s_.size()) return error("unterminated string");
      const char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return error("control character in string");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      if (++pos_ >= s_.size()) return error("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            const std::size_t save = pos_;
            pos_ += 2;
            unsigned lo = 0;
            if (!hex4(lo)) return false;
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              pos_ = save;
              cp = api::kRuneError;
            }
          } else if (cp >= 0xD800 && cp < 0xE000) {
            cp = api::kRuneError;  // lone surrogate, as Go replaces it
          }
          api::append_rune(out, cp);
          break;
        }
        default:
          return error("invalid escape");
      }
    }
  }

  bool array(RawValue& v, int depth) {
    v.kind = RawValue::Kind::kArray;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      RawValue& item = v.items.emplace_back();
      if (!value(item, depth + 1)) return false;
      skip_space();
      if (pos_ >= s_.size()) return error("unterminated array");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return error("expected ',' or ']'");
    }
  }

  bool object(RawValue& v, int depth) {
    v.kind = RawValue::Kind::kObject;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') return error("expected a member name");
      auto& member = v.members.emplace_back();
      if (!string(member.key)) return false;
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ':') return error("expected ':'");
      ++pos_;
      skip_space();
      if (!value(member.value, depth + 1)) return false;
      skip_space();
      if (pos_ >= s_.size()) return error("unterminated object");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return error("expected ',' or '}'");
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

Result<RawValue> parse_raw_json(std::string_view text) {
  return RawParser(text).document();
}

RawValue to_raw(const json::value& v) {
  RawValue out;
  switch (v.kind()) {
    case json::kind::null:
      break;
    case json::kind::bool_:
      out.kind = RawValue::Kind::kBool;
      out.boolean = v.get_bool();
      break;
    case json::kind::int64:
      out.kind = RawValue::Kind::kNumber;
      out.text = std::to_string(v.get_int64());
      break;
    case json::kind::uint64:
      out.kind = RawValue::Kind::kNumber;
      out.text = std::to_string(v.get_uint64());
      break;
    case json::kind::double_:
      out.kind = RawValue::Kind::kNumber;
      out.text = fmt::format("{}", v.get_double());
      break;
    case json::kind::string:
      out.kind = RawValue::Kind::kString;
      out.text = std::string(v.get_string());
      break;
    case json::kind::array:
      out.kind = RawValue::Kind::kArray;
      out.items.reserve(v.get_array().size());
      for (const auto& item : v.get_array())
        out.items.push_back(to_raw(item));
      break;
    case json::kind::object:
      out.kind = RawValue::Kind::kObject;
      out.members.reserve(v.get_object().size());
      for (const auto& m : v.get_object()) {
        out.members.push_back(RawMember{std::string(m.key()), to_raw(m.value())});
      }
      break;
  }
  return out;
}

}  // namespace kcm::api::schema
