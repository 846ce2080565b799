#include "local/cluster/options.h"

#include <fmt/format.h>

#include "api/duration.h"

namespace kcm::local::cluster {

Result<int> parse_node_count(std::string_view text) {
  const auto bad = [&] {
    return fail(
        fmt::format("--nodes: expected a whole number from 0 to {}, got \"{}\"", kMaxNodes, text));
  };
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != text.npos) {
    return bad();
  }
  const int n = std::stoi(std::string(text));
  if (n > kMaxNodes) return bad();
  return n;
}

Result<std::chrono::nanoseconds> parse_delay(std::string_view flag, std::string_view text) {
  auto d = api::parse_duration(text);
  if (!d) return fail(fmt::format("{}: {}", flag, d.error()));
  if (d->count() < 0) {
    return fail(fmt::format("{}: must not be negative, got \"{}\"", flag, text));
  }
  return *d;
}

}  // namespace kcm::local::cluster
