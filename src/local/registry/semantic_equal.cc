#include "local/registry/semantic_equal.h"

namespace kcm::local::registry {

bool equal_member(const json::value* a, const json::value* b, std::string_view key,
                  const api::schema::Type& owner) {
  return api::schema::semantic_equal(a, b, owner.field(key));
}

bool equal_member(const json::object& a, const json::object& b, std::string_view key,
                  const api::schema::Type& owner) {
  return equal_member(a.if_contains(key), b.if_contains(key), key, owner);
}

}  // namespace kcm::local::registry
