// Identifiers a real node and container runtime would report (machine ids,
// container ids, image digests), made up deterministically from a seed so
// that they are stable across restarts and tests.
#pragma once

#include <string>
#include <string_view>

namespace kcm::local::cluster {

// `chars` lowercase hex digits derived from `seed` (not a cryptographic hash).
std::string hex_from(std::string_view seed, std::size_t chars);

// A UUID-shaped string (8-4-4-4-12) derived from `seed`.
std::string uuid_from(std::string_view seed);

}  // namespace kcm::local::cluster
