#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "local/openapi_v2/openapi_v2.h"

namespace kcm::local::openapi_v2 {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

struct Clause {
  std::string_view type;
  std::string_view subtype;
  double q = 1;
};

// goautoneg's ParseAccept: "type/subtype;q=0.5" clauses; a bare "*" is */*;
// anything else without one slash is skipped; an unparsable q reads as 0.
std::vector<Clause> parse_accept(std::string_view header) {
  std::vector<Clause> out;
  while (true) {
    const auto comma = header.find(',');
    const std::string_view part = trim(header.substr(0, comma));
    std::string_view params;
    std::string_view range = part;
    if (const auto semi = part.find(';'); semi != std::string_view::npos) {
      range = part.substr(0, semi);
      params = part.substr(semi + 1);
    }
    Clause c;
    const auto slash = range.find('/');
    const bool one_slash =
        slash != std::string_view::npos && range.find('/', slash + 1) == std::string_view::npos;
    if (slash == std::string_view::npos && trim(range) == "*") {
      c.type = "*";
      c.subtype = "*";
    } else if (one_slash) {
      c.type = trim(range.substr(0, slash));
      c.subtype = trim(range.substr(slash + 1));
    } else {
      c.type = {};  // skipped below
    }
    if (!c.type.empty() || !c.subtype.empty()) {
      while (!params.empty()) {
        const auto semi = params.find(';');
        const std::string_view p = params.substr(0, semi);
        params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
        const auto eq = p.find('=');
        if (eq == std::string_view::npos || trim(p.substr(0, eq)) != "q") continue;
        const std::string_view value = p.substr(eq + 1);
        double q = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
        c.q = ec == std::errc() && end == value.data() + value.size() ? q : 0;
      }
      out.push_back(c);
    }
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  // goautoneg's order, kept quirk for quirk: "less" is a higher q, or a
  // concrete type against "*", or a concrete subtype against "*" (even at a
  // lower q), applied by insertion sort as Go's sort.Sort does for short
  // slices.
  const auto less = [](const Clause& a, const Clause& b) {
    if (a.q > b.q) return true;
    if (a.type != "*" && b.type == "*") return true;
    return a.subtype != "*" && b.subtype == "*";
  };
  for (std::size_t i = 1; i < out.size(); ++i) {
    for (std::size_t j = i; j > 0 && less(out[j], out[j - 1]); --j)
      std::swap(out[j], out[j - 1]);
  }
  return out;
}

bool matches(const Clause& c, std::string_view media_type) {
  const auto slash = media_type.find('/');
  const std::string_view type = media_type.substr(0, slash);
  const std::string_view subtype = media_type.substr(slash + 1);
  return (c.type == type || c.type == "*") && (c.subtype == subtype || c.subtype == "*");
}

}  // namespace

Format negotiate_format(std::string_view accept) {
  if (accept.empty()) accept = "*/*";
  for (const Clause& c : parse_accept(accept)) {
    // Upstream tries JSON first, then the two protobuf spellings.
    if (matches(c, "application/json")) return Format::kJson;
    if (matches(c, kProtobufContentTypeDeprecated) || matches(c, kProtobufContentType)) {
      return Format::kProtobuf;
    }
  }
  return Format::kNotAcceptable;
}

}  // namespace kcm::local::openapi_v2
