// The pod-template-hash (upstream controller.ComputeHash and
// rand.SafeEncodeString). Upstream hashes a Go-specific dump of the template,
// which no other implementation can reproduce, so kcm hashes its own canonical
// serialization (members sorted by key at every level, compact) with the same
// FNV-1a 32-bit hash, collision-count suffix and encoding. Values are stable
// across runs and look like upstream's: up to 10 characters of
// "bcdfghjklmnpqrstvwxz2456789".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::controller {

namespace json = api::json;

// rand.SafeEncodeString: each byte b becomes "bcdfghjklmnpqrstvwxz2456789"[b % 27],
// so the result has no vowels and no easily confused characters.
std::string safe_encode_string(std::string_view s);

// FNV-1a, 32 bits, continuing from `hash` (start with kFnv32Offset).
inline constexpr std::uint32_t kFnv32Offset = 2166136261u;
std::uint32_t fnv1a32(std::string_view bytes, std::uint32_t hash = kFnv32Offset);

// The canonical serialization that compute_hash feeds to the hasher: object
// members sorted by key at every depth, numbers and strings as Boost.JSON
// writes them, no whitespace.
std::string canonical_json(const json::value& v);

// ComputeHash(template, collisionCount): FNV-1a over canonical_json(template),
// then, when a collision count is given, its uint32 in little-endian and four
// zero bytes; the 32-bit sum in decimal, through safe_encode_string.
std::string compute_hash(const json::value& pod_template,
                         std::optional<std::int32_t> collision_count);

}  // namespace kcm::controller
