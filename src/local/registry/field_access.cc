#include "local/registry/field_access.h"

#include "api/field_error.h"

namespace kcm::local::registry {

const json::value* member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return nullptr;
  return v;
}

bool has(const json::object& o, std::string_view key) {
  return member(o, key) != nullptr;
}

const json::object* object_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  return v != nullptr ? v->if_object() : nullptr;
}

const json::array* array_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  return v != nullptr ? v->if_array() : nullptr;
}

const json::object& member_or_empty(const json::object& o, std::string_view key) {
  static const json::object kEmpty;
  const json::object* m = object_member(o, key);
  return m != nullptr ? *m : kEmpty;
}

const json::object& object_or_empty(const json::value& v) {
  static const json::object kEmpty;
  const json::object* o = v.if_object();
  return o != nullptr ? *o : kEmpty;
}

std::vector<std::string> strings_of(const json::array* a) {
  std::vector<std::string> out;
  if (a == nullptr) return out;
  for (const auto& v : *a)
    out.emplace_back(api::as_string_view(&v));
  return out;
}

std::string_view string_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  if (v == nullptr || !v->is_string()) return {};
  return v->get_string();
}

std::optional<std::int64_t> int_member(const json::object& o, std::string_view key) {
  return api::find_int(o, key);
}

bool bool_member(const json::object& o, std::string_view key) {
  return api::find_bool(o, key).value_or(false);
}

std::optional<bool> opt_bool_member(const json::object& o, std::string_view key) {
  return api::find_bool(o, key);
}

json::object* mutable_object_member(json::object& o, std::string_view key) {
  json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

json::array* mutable_array_member(json::object& o, std::string_view key) {
  json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_array() : nullptr;
}

json::object& object_at(json::object& o, std::string_view key) {
  json::value& v = o[key];
  if (!v.is_object()) v = json::object();
  return v.get_object();
}

void set_if_unset(json::object& o, std::string_view key, json::value v) {
  if (!has(o, key)) o[key] = std::move(v);
}

void set_if_empty_string(json::object& o, std::string_view key, std::string_view v) {
  const json::value* cur = member(o, key);
  if (cur == nullptr || (cur->is_string() && cur->get_string().empty())) o[key] = v;
}

void set_if_zero(json::object& o, std::string_view key, std::int64_t v) {
  const json::value* cur = member(o, key);
  if (cur == nullptr || int_member(o, key) == 0) o[key] = v;
}

std::string path_of(std::string_view parent, std::string_view child) {
  return api::child(parent, child);
}

}  // namespace kcm::local::registry
