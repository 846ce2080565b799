#include "api/labels.h"

#include <algorithm>
#include <limits>

#include "api/field_error.h"
#include "api/name_validation.h"

namespace kcm::api::labels {

namespace {

// strconv.ParseInt(s, 10, 64): optional sign, at least one digit, no overflow.
std::optional<std::int64_t> parse_go_int64(std::string_view s) {
  std::size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return std::nullopt;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  std::uint64_t n = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (limit - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  if (negative) {
    // -(2^63) does not fit the positive range; compute it without overflow.
    return n == limit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(n);
  }
  return static_cast<std::int64_t>(n);
}

// field.Error.Error() for an Invalid error whose value is already formatted.
std::string invalid_message(std::string_view field, std::string_view formatted_value,
                            std::string_view detail) {
  std::string out(field);
  out += ": Invalid value: ";
  out += formatted_value;
  out += ": ";
  out += detail;
  return out;
}

// Go's %#v of a []string; upstream passes a nil slice whenever it is empty here.
std::string go_string_slice(const std::vector<std::string>& values) {
  if (values.empty()) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += go_quote(values[i]);
  }
  out += '}';
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// utilerrors.Aggregate.Error(): one message alone, several deduplicated in brackets.
std::string aggregate(const std::vector<std::string>& messages) {
  std::vector<std::string> seen;
  for (const auto& m : messages) {
    if (std::find(seen.begin(), seen.end(), m) == seen.end()) seen.push_back(m);
  }
  if (seen.size() == 1) return seen.front();
  return "[" + join(seen, ", ") + "]";
}

// field.Path printing for the parser's optional root path.
std::string path_or_nil(std::string_view path) {
  return path.empty() ? std::string("<nil>") : std::string(path);
}

std::optional<std::string> validate_label_key(std::string_view key, std::string_view field) {
  const auto errs = is_qualified_name(key);
  if (errs.empty()) return std::nullopt;
  return invalid_message(field, go_quote(key), join(errs, "; "));
}

// ---- Lexer (upstream's, byte for byte: a NUL byte reads as end of input). ----

enum class Token : std::uint8_t {
  kError,
  kEndOfString,
  kClosedPar,
  kComma,
  kDoesNotExist,
  kDoubleEquals,
  kEquals,
  kGreaterThan,
  kIdentifier,
  kIn,
  kLessThan,
  kNotEquals,
  kNotIn,
  kOpenPar,
};

std::optional<Token> symbol_token(std::string_view s) {
  if (s == ")") return Token::kClosedPar;
  if (s == ",") return Token::kComma;
  if (s == "!") return Token::kDoesNotExist;
  if (s == "==") return Token::kDoubleEquals;
  if (s == "=") return Token::kEquals;
  if (s == ">") return Token::kGreaterThan;
  if (s == "<") return Token::kLessThan;
  if (s == "!=") return Token::kNotEquals;
  if (s == "(") return Token::kOpenPar;
  return std::nullopt;
}

bool is_whitespace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_special_symbol(char c) {
  switch (c) {
    case '=':
    case '!':
    case '(':
    case ')':
    case ',':
    case '>':
    case '<':
      return true;
    default:
      return false;
  }
}

struct ScannedItem {
  Token tok;
  std::string_view literal;
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  ScannedItem lex() {
    char ch = read();
    while (is_whitespace(ch))
      ch = read();
    if (ch == 0) return {Token::kEndOfString, {}};
    unread();
    return is_special_symbol(ch) ? scan_special_symbol() : scan_id_or_keyword();
  }

 private:
  char read() {
    if (pos_ < s_.size()) return s_[pos_++];
    return 0;
  }
  void unread() { --pos_; }

  ScannedItem scan_id_or_keyword() {
    const std::size_t start = pos_;
    std::size_t end = start;
    for (;;) {
      const char ch = read();
      if (ch == 0) break;
      if (is_special_symbol(ch) || is_whitespace(ch)) {
        unread();
        break;
      }
      end = pos_;
    }
    const std::string_view lit = s_.substr(start, end - start);
    if (lit == "in") return {Token::kIn, lit};
    if (lit == "notin") return {Token::kNotIn, lit};
    return {Token::kIdentifier, lit};
  }

  // The longest run of special symbols that is still a token ("!=", "==", ...).
  ScannedItem scan_special_symbol() {
    const std::size_t start = pos_;
    std::size_t len = 0;
    ScannedItem last{Token::kError, {}};
    for (;;) {
      const char ch = read();
      if (ch == 0) break;
      if (!is_special_symbol(ch)) {
        unread();
        break;
      }
      ++len;
      const std::string_view buffer = s_.substr(start, len);
      if (auto tok = symbol_token(buffer)) {
        last = {*tok, buffer};
      } else if (last.tok != Token::kError) {
        unread();
        break;
      }
    }
    // Unreachable in practice: every single special symbol is a token.
    if (last.tok == Token::kError) return {Token::kError, s_.substr(start, len)};
    return last;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// ---- Parser ----

enum class Context { kKeyAndOperator, kValues };

class Parser {
 public:
  Parser(std::string_view input, std::string_view path) : path_(path) {
    Lexer lexer(input);
    for (;;) {
      const ScannedItem item = lexer.lex();
      items_.push_back(item);
      if (item.tok == Token::kEndOfString) break;
    }
  }

  Result<std::vector<Requirement>> parse() {
    std::vector<Requirement> requirements;
    for (;;) {
      const ScannedItem next = lookahead(Context::kValues);
      switch (next.tok) {
        case Token::kIdentifier:
        case Token::kDoesNotExist: {
          auto r = parse_requirement();
          if (!r) return fail("unable to parse requirement: " + r.error());
          requirements.push_back(std::move(r).value());
          const ScannedItem after = consume(Context::kValues);
          if (after.tok == Token::kEndOfString) return requirements;
          if (after.tok != Token::kComma) {
            return fail(quoted_found(after.literal) + ", expected: ',' or 'end of string'");
          }
          const ScannedItem following = lookahead(Context::kValues);
          if (following.tok != Token::kIdentifier && following.tok != Token::kDoesNotExist) {
            return fail(quoted_found(following.literal) + ", expected: identifier after ','");
          }
          break;
        }
        case Token::kEndOfString:
          return requirements;
        default:
          return fail(quoted_found(next.literal) + ", expected: !, identifier, or 'end of string'");
      }
    }
  }

 private:
  static std::string quoted_found(std::string_view lit) {
    return "found '" + std::string(lit) + "'";
  }

  // In a value position the keywords "in" and "notin" are plain identifiers.
  static ScannedItem in_context(ScannedItem item, Context context) {
    if (context == Context::kValues && (item.tok == Token::kIn || item.tok == Token::kNotIn)) {
      item.tok = Token::kIdentifier;
    }
    return item;
  }

  ScannedItem lookahead(Context context) const {
    if (position_ >= items_.size()) return {Token::kEndOfString, {}};
    return in_context(items_[position_], context);
  }

  ScannedItem consume(Context context) {
    if (position_ >= items_.size()) return {Token::kEndOfString, {}};
    return in_context(items_[position_++], context);
  }

  Result<Requirement> parse_requirement() {
    auto key_op = parse_key_and_infer_operator();
    if (!key_op) return fail(std::move(key_op).error());
    auto [key, op] = std::move(key_op).value();
    if (op == Operator::kExists || op == Operator::kDoesNotExist) {
      return Requirement::create(std::move(key), *op, {}, path_);
    }
    auto parsed_op = parse_operator();
    if (!parsed_op) return fail(std::move(parsed_op).error());
    Result<std::vector<std::string>> values =
        (*parsed_op == Operator::kIn || *parsed_op == Operator::kNotIn) ? parse_values()
                                                                        : parse_exact_value();
    if (!values) return fail(std::move(values).error());
    return Requirement::create(std::move(key), *parsed_op, std::move(values).value(), path_);
  }

  // A key, optionally preceded by '!'. With nothing after the key the operator is
  // inferred: exists (or does-not-exist after '!').
  Result<std::pair<std::string, std::optional<Operator>>> parse_key_and_infer_operator() {
    std::optional<Operator> op;
    ScannedItem item = consume(Context::kValues);
    if (item.tok == Token::kDoesNotExist) {
      op = Operator::kDoesNotExist;
      item = consume(Context::kValues);
    }
    if (item.tok != Token::kIdentifier) {
      return fail(quoted_found(item.literal) + ", expected: identifier");
    }
    if (auto err = validate_label_key(item.literal, path_or_nil(path_))) return fail(*err);
    const Token next = lookahead(Context::kValues).tok;
    if ((next == Token::kEndOfString || next == Token::kComma) && op != Operator::kDoesNotExist) {
      op = Operator::kExists;
    }
    return std::pair<std::string, std::optional<Operator>>{std::string(item.literal), op};
  }

  Result<Operator> parse_operator() {
    const ScannedItem item = consume(Context::kKeyAndOperator);
    switch (item.tok) {
      case Token::kIn:
        return Operator::kIn;
      case Token::kEquals:
        return Operator::kEquals;
      case Token::kDoubleEquals:
        return Operator::kDoubleEquals;
      case Token::kGreaterThan:
        return Operator::kGreaterThan;
      case Token::kLessThan:
        return Operator::kLessThan;
      case Token::kNotIn:
        return Operator::kNotIn;
      case Token::kNotEquals:
        return Operator::kNotEquals;
      default:
        return fail(quoted_found(item.literal) + ", expected: in, notin, =, ==, !=, gt, lt");
    }
  }

  // "(a,b,c)"; "()" is the set holding the empty value. Result: sorted, unique.
  Result<std::vector<std::string>> parse_values() {
    const ScannedItem open = consume(Context::kValues);
    if (open.tok != Token::kOpenPar) {
      // Upstream has no comma in this one message.
      return fail(quoted_found(open.literal) + " expected: '('");
    }
    const ScannedItem first = lookahead(Context::kValues);
    switch (first.tok) {
      case Token::kIdentifier:
      case Token::kComma: {
        auto values = parse_identifiers_list();
        if (!values) return values;
        if (consume(Context::kValues).tok != Token::kClosedPar) {
          return fail(quoted_found(first.literal) + ", expected: ')'");
        }
        return values;
      }
      case Token::kClosedPar:
        consume(Context::kValues);
        return std::vector<std::string>{""};
      default:
        return fail(quoted_found(first.literal) + ", expected: ',', ')' or identifier");
    }
  }

  // A possibly empty list of possibly empty identifiers separated by commas; stops
  // before the ')'.
  Result<std::vector<std::string>> parse_identifiers_list() {
    std::vector<std::string> set;
    const auto insert = [&set](std::string_view v) {
      const auto it = std::lower_bound(set.begin(), set.end(), v);
      if (it == set.end() || *it != v) set.insert(it, std::string(v));
    };
    for (;;) {
      const ScannedItem item = consume(Context::kValues);
      switch (item.tok) {
        case Token::kIdentifier: {
          insert(item.literal);
          const ScannedItem next = lookahead(Context::kValues);
          if (next.tok == Token::kComma) continue;
          if (next.tok == Token::kClosedPar) return set;
          return fail(quoted_found(next.literal) + ", expected: ',' or ')'");
        }
        case Token::kComma: {
          if (set.empty()) insert("");  // "(,"
          const Token next = lookahead(Context::kValues).tok;
          if (next == Token::kClosedPar) {
            insert("");  // ",)"
            return set;
          }
          if (next == Token::kComma) insert("");  // ",,"
          break;
        }
        default:
          return fail(quoted_found(item.literal) + ", expected: ',', or identifier");
      }
    }
  }

  // The single value after =, ==, !=, > or <; nothing at all means "".
  Result<std::vector<std::string>> parse_exact_value() {
    const Token next = lookahead(Context::kValues).tok;
    if (next == Token::kEndOfString || next == Token::kComma) return std::vector<std::string>{""};
    const ScannedItem item = consume(Context::kValues);
    if (item.tok == Token::kIdentifier) return std::vector<std::string>{std::string(item.literal)};
    return fail(quoted_found(item.literal) + ", expected: identifier");
  }

  std::string_view path_;
  std::vector<ScannedItem> items_;
  std::size_t position_ = 0;
};

template <class Lookup>
bool matches_impl(const Selector& selector, const Lookup& lookup) {
  if (selector.matches_nothing()) return false;
  for (const Requirement& r : selector.requirements()) {
    if (!r.matches(lookup(r.key()))) return false;
  }
  return true;
}

void sort_by_key(std::vector<Requirement>& reqs) {
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key() < b.key(); });
}

}  // namespace

std::string_view operator_name(Operator op) {
  switch (op) {
    case Operator::kEquals:
      return "=";
    case Operator::kDoubleEquals:
      return "==";
    case Operator::kNotEquals:
      return "!=";
    case Operator::kIn:
      return "in";
    case Operator::kNotIn:
      return "notin";
    case Operator::kExists:
      return "exists";
    case Operator::kDoesNotExist:
      return "!";
    case Operator::kGreaterThan:
      return "gt";
    case Operator::kLessThan:
      return "lt";
  }
  return "";
}

LabelSet to_label_set(const json::object& labels) {
  LabelSet out;
  out.reserve(labels.size());
  for (const auto& kv : labels) {
    if (const json::string* v = kv.value().if_string()) {
      out.emplace_back(std::string(kv.key()), std::string(v->data(), v->size()));
    }
  }
  std::sort(out.begin(), out.end());
  // A JSON object may repeat a key; keep one entry per key like a Go map would.
  out.erase(std::unique(out.begin(), out.end(),
                        [](const auto& a, const auto& b) { return a.first == b.first; }),
            out.end());
  return out;
}

Requirement::Requirement(std::string key, Operator op, std::vector<std::string> values)
    : key_(std::move(key)), op_(op), values_(std::move(values)) {
  if ((op_ == Operator::kGreaterThan || op_ == Operator::kLessThan) && values_.size() == 1) {
    bound_ = parse_go_int64(values_.front());
  }
}

Requirement Requirement::make_unchecked(std::string key, Operator op,
                                        std::vector<std::string> values) {
  return Requirement(std::move(key), op, std::move(values));
}

Result<Requirement> Requirement::create(std::string key, Operator op,
                                        std::vector<std::string> values, std::string_view path) {
  std::vector<std::string> errs;
  if (auto err = validate_label_key(key, child(path, "key"))) errs.push_back(std::move(*err));

  const std::string values_path = child(path, "values");
  switch (op) {
    case Operator::kIn:
    case Operator::kNotIn:
      if (values.empty()) {
        errs.push_back(invalid_message(values_path, go_string_slice(values),
                                       "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case Operator::kEquals:
    case Operator::kDoubleEquals:
    case Operator::kNotEquals:
      if (values.size() != 1) {
        errs.push_back(invalid_message(values_path, go_string_slice(values),
                                       "exact-match compatibility requires one single value"));
      }
      break;
    case Operator::kExists:
    case Operator::kDoesNotExist:
      if (!values.empty()) {
        errs.push_back(invalid_message(values_path, go_string_slice(values),
                                       "values set must be empty for exists and does not exist"));
      }
      break;
    case Operator::kGreaterThan:
    case Operator::kLessThan:
      if (values.size() != 1) {
        errs.push_back(invalid_message(values_path, go_string_slice(values),
                                       "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!parse_go_int64(values[i])) {
          errs.push_back(invalid_message(index(values_path, i), go_quote(values[i]),
                                         "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
      break;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto msgs = is_valid_label_value(values[i]);
    if (!msgs.empty()) {
      errs.push_back(invalid_message(api::key(index(values_path, i), key), go_quote(values[i]),
                                     join(msgs, "; ")));
    }
  }
  if (!errs.empty()) return fail(aggregate(errs));
  return Requirement(std::move(key), op, std::move(values));
}

bool Requirement::matches(std::optional<std::string_view> value) const {
  const auto has_value = [this](std::string_view v) {
    return std::find(values_.begin(), values_.end(), v) != values_.end();
  };
  switch (op_) {
    case Operator::kIn:
    case Operator::kEquals:
    case Operator::kDoubleEquals:
      return value.has_value() && has_value(*value);
    case Operator::kNotIn:
    case Operator::kNotEquals:
      return !value.has_value() || !has_value(*value);
    case Operator::kExists:
      return value.has_value();
    case Operator::kDoesNotExist:
      return !value.has_value();
    case Operator::kGreaterThan:
    case Operator::kLessThan: {
      if (!value.has_value() || !bound_.has_value()) return false;
      const auto actual = parse_go_int64(*value);
      if (!actual) return false;
      return op_ == Operator::kGreaterThan ? *actual > *bound_ : *actual < *bound_;
    }
  }
  return false;
}

std::string Requirement::to_string() const {
  std::string out;
  if (op_ == Operator::kDoesNotExist) out += '!';
  out += key_;
  switch (op_) {
    case Operator::kEquals:
      out += '=';
      break;
    case Operator::kDoubleEquals:
      out += "==";
      break;
    case Operator::kNotEquals:
      out += "!=";
      break;
    case Operator::kIn:
      out += " in ";
      break;
    case Operator::kNotIn:
      out += " notin ";
      break;
    case Operator::kGreaterThan:
      out += '>';
      break;
    case Operator::kLessThan:
      out += '<';
      break;
    case Operator::kExists:
    case Operator::kDoesNotExist:
      return out;
  }
  const bool set = op_ == Operator::kIn || op_ == Operator::kNotIn;
  if (set) out += '(';
  if (values_.size() == 1) {
    out += values_.front();
  } else {
    std::vector<std::string_view> sorted(values_.begin(), values_.end());
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (i > 0) out += ',';
      out += sorted[i];
    }
  }
  if (set) out += ')';
  return out;
}

Selector Selector::nothing() {
  Selector s;
  s.nothing_ = true;
  return s;
}

Selector Selector::from_requirements(std::vector<Requirement> reqs) {
  Selector s;
  s.requirements_ = std::move(reqs);
  sort_by_key(s.requirements_);
  return s;
}

Selector Selector::from_set(const LabelSet& set) {
  Selector s;
  s.requirements_.reserve(set.size());
  for (const auto& [k, v] : set) {
    s.requirements_.push_back(Requirement::make_unchecked(k, Operator::kEquals, {v}));
  }
  sort_by_key(s.requirements_);
  return s;
}

Result<Selector> Selector::from_set_checked(const LabelSet& set) {
  Selector s;
  s.requirements_.reserve(set.size());
  for (const auto& [k, v] : set) {
    auto r = Requirement::create(k, Operator::kEquals, {v});
    if (!r) return fail(std::move(r).error());
    s.requirements_.push_back(std::move(r).value());
  }
  sort_by_key(s.requirements_);
  return s;
}

void Selector::add(Requirement r) {
  if (nothing_) return;
  const auto pos =
      std::upper_bound(requirements_.begin(), requirements_.end(), r.key(),
                       [](const std::string& k, const Requirement& e) { return k < e.key(); });
  requirements_.insert(pos, std::move(r));
}

std::optional<std::string_view> Selector::requires_exact_match(std::string_view label) const {
  for (const Requirement& r : requirements_) {
    if (r.key() != label) continue;
    const bool exact =
        r.op() == Operator::kEquals || r.op() == Operator::kDoubleEquals || r.op() == Operator::kIn;
    if (exact && r.values().size() == 1) return std::string_view(r.values().front());
    return std::nullopt;
  }
  return std::nullopt;
}

Result<Selector> parse(std::string_view selector, std::string_view path) {
  Parser parser(selector, path);
  auto reqs = parser.parse();
  if (!reqs) return fail(std::move(reqs).error());
  return Selector::from_requirements(std::move(reqs).value());
}

std::string to_string(const Selector& selector) {
  std::string out;
  const auto& reqs = selector.requirements();
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    if (i > 0) out += ',';
    out += reqs[i].to_string();
  }
  return out;
}

bool matches(const Selector& selector, const json::object& labels) {
  return matches_impl(selector, [&labels](std::string_view key) -> std::optional<std::string_view> {
    const json::value* v = labels.if_contains(key);
    if (v == nullptr) return std::nullopt;
    const json::string* s = v->if_string();
    if (s == nullptr) return std::nullopt;
    return std::string_view(s->data(), s->size());
  });
}

bool matches(const Selector& selector, const LabelSet& labels) {
  return matches_impl(selector, [&labels](std::string_view key) -> std::optional<std::string_view> {
    const auto it = std::lower_bound(labels.begin(), labels.end(), key,
                                     [](const std::pair<std::string, std::string>& e,
                                        std::string_view k) { return e.first < k; });
    if (it == labels.end() || it->first != key) return std::nullopt;
    return std::string_view(it->second);
  });
}

}  // namespace kcm::api::labels
