#include "api/go_json_syntax.h"

#include <fmt/format.h>

#include <vector>

namespace kcm::api {
namespace {

// Go's quoteChar.
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  switch (c) {
    case '\n':
      return "'\\n'";
    case '\r':
      return "'\\r'";
    case '\t':
      return "'\\t'";
    case '\\':
      return "'\\\\'";
    default:
      break;
  }
  if (c < 0x20 || c == 0x7f) return fmt::format("'\\x{:02x}'", c);
  if (c >= 0x80) return "'\\ufffd'";  // an invalid UTF-8 start, as Go decodes it
  return fmt::format("'{}'", static_cast<char>(c));
}

class SyntaxScanner {
 public:
  explicit SyntaxScanner(std::string_view text) : s_(text) {}

  std::string run() {
    skip_space();
    if (i_ == s_.size()) return "unexpected end of JSON input";
    if (auto e = value("looking for beginning of value"); !e.empty()) return e;
    skip_space();
    if (i_ != s_.size()) return invalid(s_[i_], "after top-level value");
    return {};
  }

 private:
  static constexpr int kMaxDepth = 10000;

  std::string invalid(unsigned char c, std::string_view context) {
    return fmt::format("invalid character {} {}", quote_char(c), context);
  }
  bool at_end() const { return i_ >= s_.size(); }
  void skip_space() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  static constexpr const char* kEnd = "unexpected end of JSON input";

  std::string value(std::string_view context) {
    if (++depth_ > kMaxDepth) return "exceeded max depth";
    skip_space();
    if (at_end()) return kEnd;
    const unsigned char c = s_[i_];
    std::string e;
    switch (c) {
      case '{':
        e = object();
        break;
      case '[':
        e = array();
        break;
      case '"':
        e = string();
        break;
      case 't':
        e = literal("true");
        break;
      case 'f':
        e = literal("false");
        break;
      case 'n':
        e = literal("null");
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          e = number();
        } else {
          e = invalid(c, context);
        }
    }
    --depth_;
    return e;
  }

  std::string literal(std::string_view word) {
    for (std::size_t k = 0; k < word.size(); ++k, ++i_) {
      if (at_end()) return kEnd;
      if (s_[i_] != word[k]) {
        return invalid(s_[i_], fmt::format("in literal {} (expecting '{}')", word, word[k]));
      }
    }
    return {};
  }

  std::string number() {
    if (s_[i_] == '-') {
      ++i_;
      if (at_end()) return kEnd;
      if (!(s_[i_] >= '0' && s_[i_] <= '9')) return invalid(s_[i_], "in numeric literal");
    }
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9')
        ++i_;
    }
    if (!at_end() && s_[i_] == '.') {
      ++i_;
      if (at_end()) return kEnd;
      if (!(s_[i_] >= '0' && s_[i_] <= '9')) {
        return invalid(s_[i_], "after decimal point in numeric literal");
      }
      while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9')
        ++i_;
    }
    if (!at_end() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!at_end() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (at_end()) return kEnd;
      if (!(s_[i_] >= '0' && s_[i_] <= '9')) {
        return invalid(s_[i_], "in exponent of numeric literal");
      }
      while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9')
        ++i_;
    }
    return {};
  }

  static bool hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  std::string string() {
    ++i_;  // opening quote
    while (true) {
      if (at_end()) return kEnd;
      const unsigned char c = s_[i_];
      if (c == '"') {
        ++i_;
        return {};
      }
      if (c < 0x20) return invalid(c, "in string literal");
      if (c == '\\') {
        ++i_;
        if (at_end()) return kEnd;
        const unsigned char e = s_[i_];
        if (e == 'u') {
          ++i_;
          for (int k = 0; k < 4; ++k, ++i_) {
            if (at_end()) return kEnd;
            if (!hex(s_[i_])) return invalid(s_[i_], "in \\u hexadecimal character escape");
          }
          continue;
        }
        if (std::string_view("\"\\/bfnrt").find(static_cast<char>(e)) == std::string_view::npos) {
          return invalid(e, "in string escape code");
        }
      }
      ++i_;
    }
  }

  std::string object() {
    ++i_;  // '{'
    skip_space();
    if (at_end()) return kEnd;
    if (s_[i_] == '}') {
      ++i_;
      return {};
    }
    while (true) {
      skip_space();
      if (at_end()) return kEnd;
      if (s_[i_] != '"') return invalid(s_[i_], "looking for beginning of object key string");
      if (auto e = string(); !e.empty()) return e;
      skip_space();
      if (at_end()) return kEnd;
      if (s_[i_] != ':') return invalid(s_[i_], "after object key");
      ++i_;
      if (auto e = value("looking for beginning of value"); !e.empty()) return e;
      skip_space();
      if (at_end()) return kEnd;
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == '}') {
        ++i_;
        return {};
      }
      return invalid(s_[i_], "after object key:value pair");
    }
  }

  std::string array() {
    ++i_;  // '['
    skip_space();
    if (at_end()) return kEnd;
    if (s_[i_] == ']') {
      ++i_;
      return {};
    }
    while (true) {
      if (auto e = value("looking for beginning of value"); !e.empty()) return e;
      skip_space();
      if (at_end()) return kEnd;
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == ']') {
        ++i_;
        return {};
      }
      return invalid(s_[i_], "after array element");
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string go_json_syntax_error(std::string_view text) {
  return SyntaxScanner(text).run();
}

}  // namespace kcm::api
