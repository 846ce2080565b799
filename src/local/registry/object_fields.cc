#include "local/registry/object_fields.h"

namespace kcm::local::registry {

void copy_member(json::object& obj, const json::object& old, std::string_view key) {
  if (const json::value* v = old.if_contains(key)) {
    obj[key] = *v;
  } else {
    obj.erase(key);
  }
}

std::string field_string(const json::object& obj, std::string_view dotted_path) {
  const json::value* cur = nullptr;
  const json::object* o = &obj;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted_path.find('.', start);
    const std::string_view part = dotted_path.substr(start, dot - start);
    if (o == nullptr) return {};
    cur = o->if_contains(part);
    if (cur == nullptr) return {};
    if (dot == std::string_view::npos) break;
    o = cur->if_object();
    start = dot + 1;
  }
  switch (cur->kind()) {
    case json::kind::string:
      return std::string(cur->get_string());
    case json::kind::bool_:
      return cur->get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(cur->get_int64());
    case json::kind::uint64:
      return std::to_string(cur->get_uint64());
    default:
      return {};
  }
}

bool member_equal(const json::object& a, const json::object& b, std::string_view key) {
  const json::value* va = a.if_contains(key);
  const json::value* vb = b.if_contains(key);
  if (va == nullptr || vb == nullptr) return va == vb;
  return *va == *vb;
}

std::int64_t generation(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  if (meta == nullptr) return 0;
  return api::find_int(*meta, "generation").value_or(0);
}

void set_generation(json::object& obj, std::int64_t generation) {
  api::ensure_object(obj, "metadata")["generation"] = generation;
}

}  // namespace kcm::local::registry
