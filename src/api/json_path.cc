#include "api/json_path.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "api/field_error.h"

namespace kcm::api {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<std::vector<JsonPath::Step>> parse_path(bool in_filter) {
    std::vector<JsonPath::Step> steps;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (in_filter && (c == ' ' || c == '=' || c == '!' || c == '<' || c == '>' || c == ')')) {
        break;
      }
      if (c == '.') {
        ++pos_;
        if (pos_ < s_.size() && s_[pos_] == '.')
          return error("recursive descent (..) is not supported");
        if (pos_ == s_.size()) break;  // "." alone: the whole object
        if (s_[pos_] == '*') {
          ++pos_;
          steps.push_back({.kind = JsonPath::Step::Kind::kWildcard});
          continue;
        }
        std::string field;
        while (pos_ < s_.size() && is_field_char(s_[pos_]))
          field += s_[pos_++];
        if (field.empty()) return error_here("expected a field name");
        steps.push_back({.kind = JsonPath::Step::Kind::kField, .field = std::move(field)});
        continue;
      }
      if (c == '[') {
        auto step = parse_bracket();
        if (!step) return fail(step.error());
        steps.push_back(std::move(*step));
        continue;
      }
      return error_here("unexpected character");
    }
    return steps;
  }

  std::size_t pos() const { return pos_; }

 private:
  static bool is_field_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$' ||
           c == '/';
  }

  template <class T = std::vector<JsonPath::Step>>
  Result<T> error(std::string_view what) const {
    return fail(fmt::format("invalid JSONPath {}: {}", go_quote(s_), what));
  }
  Result<std::vector<JsonPath::Step>> error_here(std::string_view what) const {
    if (pos_ >= s_.size()) return error(fmt::format("{} at end of input", what));
    return error(fmt::format("{} at {} ('{}')", what, pos_, s_[pos_]));
  }

  void skip_spaces() {
    while (pos_ < s_.size() && s_[pos_] == ' ')
      ++pos_;
  }

  std::optional<long long> parse_int() {
    const std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
    if (pos_ == start || (pos_ == start + 1 && s_[start] == '-')) {
      pos_ = start;
      return std::nullopt;
    }
    return std::strtoll(std::string(s_.substr(start, pos_ - start)).c_str(), nullptr, 10);
  }

  Result<std::string> parse_quoted() {
    const char quote = s_[pos_++];
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out += s_[pos_++];
    }
    if (pos_ == s_.size()) return error<std::string>("unterminated string");
    ++pos_;
    return out;
  }

  Result<JsonPath::Step> parse_bracket() {
    ++pos_;  // '['
    skip_spaces();
    if (pos_ == s_.size()) return error<JsonPath::Step>("unterminated [");
    JsonPath::Step step;
    const char c = s_[pos_];
    if (c == '\'' || c == '"') {
      auto field = parse_quoted();
      if (!field) return fail(field.error());
      step.kind = JsonPath::Step::Kind::kField;
      step.field = std::move(*field);
    } else if (c == '*') {
      ++pos_;
      step.kind = JsonPath::Step::Kind::kWildcard;
    } else if (c == '?') {
      auto filter = parse_filter();
      if (!filter) return fail(filter.error());
      step = std::move(*filter);
    } else {
      auto first = parse_int();
      skip_spaces();
      if (pos_ < s_.size() && s_[pos_] == ':') {
        ++pos_;
        skip_spaces();
        step.kind = JsonPath::Step::Kind::kSlice;
        step.start = first;
        step.end = parse_int();
      } else if (first) {
        step.kind = JsonPath::Step::Kind::kIndex;
        step.index = *first;
      } else {
        return error<JsonPath::Step>(fmt::format("invalid array index at {}", pos_));
      }
    }
    skip_spaces();
    if (pos_ == s_.size() || s_[pos_] != ']') {
      return error<JsonPath::Step>(fmt::format("expected ] at {}", pos_));
    }
    ++pos_;
    return step;
  }

  Result<JsonPath::Step> parse_filter() {
    ++pos_;  // '?'
    if (pos_ + 1 >= s_.size() || s_[pos_] != '(' || s_[pos_ + 1] != '@') {
      return error<JsonPath::Step>(fmt::format("expected (@ after ? at {}", pos_));
    }
    pos_ += 2;
    JsonPath::Step step;
    step.kind = JsonPath::Step::Kind::kFilter;
    auto path = parse_path(/*in_filter=*/true);
    if (!path) return fail(path.error());
    step.filter_path = std::move(*path);
    skip_spaces();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (s_.substr(pos_).starts_with(op)) {
        step.op = op;
        pos_ += step.op.size();
        break;
      }
    }
    if (!step.op.empty()) {
      skip_spaces();
      if (pos_ == s_.size()) return error<JsonPath::Step>("unterminated filter");
      if (s_[pos_] == '\'' || s_[pos_] == '"') {
        auto text = parse_quoted();
        if (!text) return fail(text.error());
        step.operand = json::string(*text);
      } else {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] != ')' && s_[pos_] != ' ')
          ++pos_;
        const std::string literal(s_.substr(start, pos_ - start));
        std::error_code ec;
        json::value v = json::parse(literal, ec);
        if (ec || !(v.is_number() || v.is_bool() || v.is_null())) {
          return error<JsonPath::Step>(fmt::format("invalid filter operand {}", go_quote(literal)));
        }
        step.operand = std::move(v);
      }
      skip_spaces();
    }
    if (pos_ == s_.size() || s_[pos_] != ')') {
      return error<JsonPath::Step>(fmt::format("expected ) at {}", pos_));
    }
    ++pos_;
    return step;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

std::optional<double> as_number(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_double()) return v.get_double();
  return std::nullopt;
}

bool compare(const json::value& left, std::string_view op, const json::value& right) {
  const auto l = as_number(left);
  const auto r = as_number(right);
  if (l && r) {
    if (op == "==") return *l == *r;
    if (op == "!=") return *l != *r;
    if (op == "<") return *l < *r;
    if (op == ">") return *l > *r;
    if (op == "<=") return *l <= *r;
    return *l >= *r;
  }
  if (left.is_string() && right.is_string()) {
    const std::string_view a = left.get_string(), b = right.get_string();
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<=") return a <= b;
    return a >= b;
  }
  if (op == "==") return left == right;
  if (op == "!=") return left != right;
  return false;
}

void walk(const json::value& v, const std::vector<JsonPath::Step>& steps, std::size_t i,
          std::vector<const json::value*>& out);

void walk_filter(const json::value& v, const JsonPath::Step& step,
                 const std::vector<JsonPath::Step>& steps, std::size_t i,
                 std::vector<const json::value*>& out) {
  const json::array* items = v.if_array();
  if (items == nullptr) return;
  for (const json::value& item : *items) {
    std::vector<const json::value*> selected;
    walk(item, step.filter_path, 0, selected);
    bool keep = false;
    if (step.op.empty()) {
      keep = !selected.empty();
    } else {
      for (const json::value* s : selected) {
        if (compare(*s, step.op, step.operand)) {
          keep = true;
          break;
        }
      }
    }
    if (keep) walk(item, steps, i + 1, out);
  }
}

void walk(const json::value& v, const std::vector<JsonPath::Step>& steps, std::size_t i,
          std::vector<const json::value*>& out) {
  if (i == steps.size()) {
    out.push_back(&v);
    return;
  }
  const JsonPath::Step& step = steps[i];
  using Kind = JsonPath::Step::Kind;
  switch (step.kind) {
    case Kind::kField:
      if (const json::object* o = v.if_object()) {
        if (const json::value* child = o->if_contains(step.field)) walk(*child, steps, i + 1, out);
      }
      return;
    case Kind::kWildcard:
      if (const json::array* a = v.if_array()) {
        for (const json::value& child : *a)
          walk(child, steps, i + 1, out);
      } else if (const json::object* o = v.if_object()) {
        for (const auto& [k, child] : *o)
          walk(child, steps, i + 1, out);
      }
      return;
    case Kind::kIndex:
      if (const json::array* a = v.if_array()) {
        const long long n = static_cast<long long>(a->size());
        const long long at = step.index < 0 ? n + step.index : step.index;
        if (at >= 0 && at < n) walk((*a)[static_cast<std::size_t>(at)], steps, i + 1, out);
      }
      return;
    case Kind::kSlice:
      if (const json::array* a = v.if_array()) {
        const long long n = static_cast<long long>(a->size());
        auto clamp = [n](long long x) { return x < 0 ? std::max(0LL, n + x) : std::min(n, x); };
        const long long from = clamp(step.start.value_or(0));
        const long long to = clamp(step.end.value_or(n));
        for (long long k = from; k < to; ++k)
          walk((*a)[static_cast<std::size_t>(k)], steps, i + 1, out);
      }
      return;
    case Kind::kFilter:
      walk_filter(v, step, steps, i, out);
      return;
  }
}

}  // namespace

Result<JsonPath> JsonPath::parse(std::string_view expression) {
  std::string_view body = expression;
  while (!body.empty() && body.front() == ' ')
    body.remove_prefix(1);
  while (!body.empty() && body.back() == ' ')
    body.remove_suffix(1);
  if (body.starts_with('{')) {
    if (!body.ends_with('}')) {
      return fail(fmt::format("invalid JSONPath {}: unclosed action", go_quote(expression)));
    }
    body = body.substr(1, body.size() - 2);
  }
  if (body.starts_with('$')) body.remove_prefix(1);
  if (body.empty() || (body.front() != '.' && body.front() != '[')) {
    return fail(
        fmt::format("invalid JSONPath {}: must start with '.' or '['", go_quote(expression)));
  }
  Parser parser(body);
  auto steps = parser.parse_path(/*in_filter=*/false);
  if (!steps) return fail(steps.error());
  JsonPath path;
  path.expression_ = std::string(expression);
  path.steps_ = std::move(*steps);
  return path;
}

std::vector<const json::value*> JsonPath::find(const json::value& root) const {
  std::vector<const json::value*> out;
  walk(root, steps_, 0, out);
  return out;
}

std::string json_path_text(const json::value& v) {
  if (const json::string* s = v.if_string()) return std::string(*s);
  if (v.is_double()) {
    const double d = v.get_double();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
      return fmt::format("{}", static_cast<long long>(d));
    }
    return fmt::format("{}", d);
  }
  return json::serialize(v);
}

}  // namespace kcm::api
