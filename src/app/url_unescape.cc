#include "app/url_unescape.h"

namespace kcm::app {
namespace {

// The value of the hex digit `c` (either case), or -1 when `c` is not one.
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> url_unescape(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+' && plus_is_space) {
      out.push_back(' ');
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::optional<std::vector<std::string>> query_values(std::string_view raw_query,
                                                     std::string_view key) {
  std::optional<std::vector<std::string>> found;
  while (!raw_query.empty()) {
    const std::size_t amp = raw_query.find('&');
    std::string_view pair = raw_query.substr(0, amp);
    raw_query = amp == std::string_view::npos ? std::string_view() : raw_query.substr(amp + 1);
    if (pair.empty() || pair.find(';') != std::string_view::npos) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view raw_key = pair.substr(0, eq);
    const std::string_view raw_value =
        eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    const auto k = url_unescape(raw_key, /*plus_is_space=*/true);
    if (!k) continue;
    const auto v = url_unescape(raw_value, /*plus_is_space=*/true);
    if (!v) continue;
    if (*k != key) continue;
    if (!found) found.emplace();
    found->push_back(*v);
  }
  return found;
}

}  // namespace kcm::app
