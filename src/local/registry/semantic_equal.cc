#include "local/registry/semantic_equal.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/schema/registry.h"
#include "api/schema/semantic_equal.h"

namespace kcm::local::registry {

const api::schema::Type& builtin_type(std::string_view package, std::string_view name) {
  const api::schema::Type* type = api::schema::Registry::builtin().find(package, name);
  if (type == nullptr) {
    std::fprintf(stderr, "kcm-local: no built-in type %s.%s\n", std::string(package).c_str(),
                 std::string(name).c_str());
    std::abort();
  }
  return *type;
}

bool semantic_equal(const json::value& a, const json::value& b, const api::schema::Type& type) {
  return api::schema::semantic_equal(a, b, type);
}

bool equal_member(const json::value* a, const json::value* b, std::string_view key,
                  const api::schema::Type& owner) {
  if (const api::schema::Field* field = owner.field(key)) {
    return api::schema::semantic_equal(a, b, *field);
  }
  const bool a_nil = a == nullptr || a->is_null();
  const bool b_nil = b == nullptr || b->is_null();
  if (a_nil || b_nil) return a_nil && b_nil;
  return *a == *b;
}

bool equal_member(const json::object& a, const json::object& b, std::string_view key,
                  const api::schema::Type& owner) {
  return equal_member(a.if_contains(key), b.if_contains(key), key, owner);
}

}  // namespace kcm::local::registry
