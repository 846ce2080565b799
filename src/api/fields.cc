#include "api/fields.h"

#include <algorithm>

#include "api/field_error.h"
#include "api/utf8.h"

namespace kcm::api::fields {

namespace {

// Splits on commas not preceded by an escaping backslash; the backslashes stay.
std::vector<std::string_view> split_terms(std::string_view selector) {
  std::vector<std::string_view> terms;
  if (selector.empty()) return terms;
  std::size_t start = 0;
  bool in_slash = false;
  for (std::size_t i = 0; i < selector.size(); ++i) {
    const char c = selector[i];
    if (in_slash) {
      in_slash = false;
    } else if (c == '\\') {
      in_slash = true;
    } else if (c == ',') {
      terms.push_back(selector.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(selector.substr(start));
  return terms;
}

struct SplitTerm {
  std::string_view lhs;
  Operator op;
  std::string_view rhs;
};

// The field has no escaping: the first operator found splits the term. At each
// position "!=" is tried before "==" before "=".
std::optional<SplitTerm> split_term(std::string_view term) {
  for (std::size_t i = 0; i < term.size(); ++i) {
    const std::string_view rest = term.substr(i);
    if (rest.starts_with("!="))
      return SplitTerm{term.substr(0, i), Operator::kNotEquals, rest.substr(2)};
    if (rest.starts_with("=="))
      return SplitTerm{term.substr(0, i), Operator::kEquals, rest.substr(2)};
    if (rest.starts_with("="))
      return SplitTerm{term.substr(0, i), Operator::kEquals, rest.substr(1)};
  }
  return std::nullopt;
}

}  // namespace

Selector Selector::one_term_equal(std::string field, std::string value) {
  Selector s;
  s.terms_.push_back({std::move(field), Operator::kEquals, std::move(value)});
  return s;
}

Selector Selector::from_requirements(std::vector<Requirement> reqs) {
  Selector s;
  s.terms_ = std::move(reqs);
  return s;
}

std::optional<std::string_view> Selector::requires_exact_match(std::string_view field) const {
  for (const Requirement& r : terms_) {
    if (r.op == Operator::kEquals && r.field == field) return std::string_view(r.value);
  }
  return std::nullopt;
}

std::string escape_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

Result<std::string> unescape_value(std::string_view value) {
  if (value.find_first_of("\\,=") == std::string_view::npos) return std::string(value);
  std::string out;
  out.reserve(value.size());
  bool in_slash = false;
  for (std::size_t i = 0; i < value.size();) {
    // Go walks runes: an invalid byte is one RuneError.
    const auto [c, width] = decode_rune(value, i).value_or(std::pair{kRuneError, std::size_t{1}});
    i += width;
    if (in_slash) {
      if (c != '\\' && c != ',' && c != '=') {
        std::string seq = "\\";
        append_rune(seq, c);
        return fail("invalid field selector: invalid escape sequence: " + seq);
      }
      out += static_cast<char>(c);
      in_slash = false;
      continue;
    }
    if (c == '\\') {
      in_slash = true;
    } else if (c == ',' || c == '=') {
      // Upstream prints the rune with %v: its number.
      return fail("invalid field selector: unescaped character in value: " +
                  std::to_string(static_cast<std::uint32_t>(c)));
    } else {
      append_rune(out, c);  // an invalid byte becomes U+FFFD, as upstream's WriteRune
    }
  }
  if (in_slash) return fail("invalid field selector: invalid escape sequence: \\");
  return out;
}

Result<Selector> parse(std::string_view selector) {
  std::vector<std::string_view> parts = split_terms(selector);
  std::sort(parts.begin(), parts.end());
  std::vector<Requirement> terms;
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    const auto split = split_term(part);
    if (!split) {
      return fail("invalid selector: '" + std::string(selector) + "'; can't understand '" +
                  std::string(part) + "'");
    }
    auto value = unescape_value(split->rhs);
    if (!value) return fail(std::move(value).error());
    // Upstream's transform drops a term whose field and value are both empty.
    if (split->lhs.empty() && value->empty()) continue;
    terms.push_back({std::string(split->lhs), split->op, std::move(value).value()});
  }
  return Selector::from_requirements(std::move(terms));
}

std::string to_string(const Selector& selector) {
  std::string out;
  const auto& terms = selector.requirements();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) out += ',';
    out += terms[i].field;
    out += terms[i].op == Operator::kNotEquals ? "!=" : "=";
    out += escape_value(terms[i].value);
  }
  return out;
}

bool matches(const Selector& selector, const FieldGetter& get) {
  for (const Requirement& r : selector.requirements()) {
    const bool equal = get(r.field) == r.value;
    if (equal != (r.op == Operator::kEquals)) return false;
  }
  return true;
}

bool matches(const Selector& selector, std::span<const std::pair<std::string, std::string>> set) {
  for (const Requirement& r : selector.requirements()) {
    std::string_view actual;
    for (const auto& [field, value] : set) {
      if (field == r.field) {
        actual = value;
        break;
      }
    }
    if ((actual == r.value) != (r.op == Operator::kEquals)) return false;
  }
  return true;
}

Result<void> check_supported_fields(const Selector& selector,
                                    std::span<const std::string_view> supported) {
  for (const Requirement& r : selector.requirements()) {
    if (std::find(supported.begin(), supported.end(), r.field) == supported.end()) {
      return fail("field label not supported: " + r.field);
    }
  }
  return {};
}

Result<void> check_metadata_fields(const Selector& selector) {
  for (const Requirement& r : selector.requirements()) {
    if (r.field != "metadata.name" && r.field != "metadata.namespace") {
      return fail(go_quote(r.field) +
                  " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
    }
  }
  return {};
}

}  // namespace kcm::api::fields
