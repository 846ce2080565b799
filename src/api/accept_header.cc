#include "api/accept_header.h"

#include <charconv>
#include <cstddef>
#include <utility>

#include "api/go_strings.h"

namespace kcm::api {
namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

// strconv.ParseFloat(s, 32), with 0 for anything it would reject.
float parse_q(std::string_view s) {
  float q = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), q);
  if (ec != std::errc() || end != s.data() + s.size()) return 0;
  return q;
}

bool less(const AcceptClause& a, const AcceptClause& b) {
  if (a.q > b.q) return true;
  if (a.type != "*" && b.type == "*") return true;
  return a.subtype != "*" && b.subtype == "*";
}

}  // namespace

std::vector<AcceptClause> parse_accept(std::string_view header) {
  std::vector<AcceptClause> out;
  for (const std::string_view raw : split(header, ',')) {
    const std::vector<std::string_view> pieces = split(trim_spaces(raw), ';');
    const std::vector<std::string_view> range = split(pieces[0], '/');
    AcceptClause clause;
    clause.type = std::string(trim_spaces(range[0]));
    std::string_view subtype;
    if (range.size() == 1 && clause.type == "*") {
      subtype = "*";
    } else if (range.size() == 2) {
      subtype = trim_spaces(range[1]);
    } else {
      continue;
    }
    clause.subtype = std::string(subtype);
    for (std::size_t i = 1; i < pieces.size(); ++i) {
      const std::size_t eq = pieces[i].find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = trim_spaces(pieces[i].substr(0, eq));
      const std::string_view value = pieces[i].substr(eq + 1);
      if (key == "q") {
        clause.q = parse_q(value);
      } else {
        clause.params[std::string(key)] = std::string(trim_spaces(value));
      }
    }
    out.push_back(std::move(clause));
  }
  // Go's sort.Sort is an insertion sort for short slices; with this ordering
  // the result depends on the algorithm, so it is reproduced as is.
  for (std::size_t i = 1; i < out.size(); ++i) {
    for (std::size_t j = i; j > 0 && less(out[j], out[j - 1]); --j)
      std::swap(out[j], out[j - 1]);
  }
  return out;
}

}  // namespace kcm::api
