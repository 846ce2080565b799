#include "controller/hash.h"

#include <algorithm>
#include <vector>

namespace kcm::controller {

namespace {

void write_canonical(const json::value& v, std::string& out) {
  if (v.is_object()) {
    const json::object& o = v.as_object();
    std::vector<const json::key_value_pair*> members;
    members.reserve(o.size());
    for (const auto& kv : o)
      members.push_back(&kv);
    std::sort(members.begin(), members.end(),
              [](const auto* a, const auto* b) { return a->key() < b->key(); });
    out += '{';
    bool first = true;
    for (const auto* kv : members) {
      if (!first) out += ',';
      first = false;
      out += json::serialize(json::string(kv->key()));
      out += ':';
      write_canonical(kv->value(), out);
    }
    out += '}';
    return;
  }
  if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const json::value& e : v.as_array()) {
      if (!first) out += ',';
      first = false;
      write_canonical(e, out);
    }
    out += ']';
    return;
  }
  out += json::serialize(v);
}

}  // namespace

std::string safe_encode_string(std::string_view s) {
  static constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";
  std::string out(s.size(), ' ');
  for (std::size_t i = 0; i < s.size(); ++i) {
    out[i] = kAlphanums[static_cast<unsigned char>(s[i]) % kAlphanums.size()];
  }
  return out;
}

std::uint32_t fnv1a32(std::string_view bytes, std::uint32_t hash) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

std::string canonical_json(const json::value& v) {
  std::string out;
  write_canonical(v, out);
  return out;
}

std::string compute_hash(const json::value& pod_template,
                         std::optional<std::int32_t> collision_count) {
  std::uint32_t hash = fnv1a32(canonical_json(pod_template));
  if (collision_count) {
    const auto c = static_cast<std::uint32_t>(*collision_count);
    const char bytes[8] = {static_cast<char>(c & 0xff),
                           static_cast<char>((c >> 8) & 0xff),
                           static_cast<char>((c >> 16) & 0xff),
                           static_cast<char>((c >> 24) & 0xff),
                           0,
                           0,
                           0,
                           0};
    hash = fnv1a32(std::string_view(bytes, sizeof(bytes)), hash);
  }
  return safe_encode_string(std::to_string(hash));
}

}  // namespace kcm::controller
