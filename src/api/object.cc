#include "api/object.h"

#include <fmt/format.h>

namespace kcm::api {

namespace {

std::string_view view(const json::string& s) {
  return {s.data(), s.size()};
}

// Assigns `key` in place when present; otherwise inserts it right after the
// last of `after` that is present (or first), keeping every other member's
// position.
void set_or_insert(json::object& o, std::string_view key, json::value v,
                   std::initializer_list<std::string_view> after) {
  if (json::value* cur = o.if_contains(key)) {
    *cur = std::move(v);
    return;
  }
  std::size_t pos = 0;
  std::size_t i = 0;
  for (const auto& kv : o) {
    ++i;
    for (std::string_view a : after) {
      if (view(kv.key()) == a) pos = i;
    }
  }
  json::object rebuilt(o.storage());
  rebuilt.reserve(o.size() + 1);
  i = 0;
  for (auto& kv : o) {
    if (i++ == pos) rebuilt.emplace(key, std::move(v));
    rebuilt.emplace(kv.key(), std::move(kv.value()));
  }
  if (pos == o.size()) rebuilt.emplace(key, std::move(v));
  o = std::move(rebuilt);
}

void set_type_member(json::object& o, std::string_view key, std::string_view v,
                     std::initializer_list<std::string_view> after) {
  if (v.empty()) {
    // Only a non-empty value is removed; null or "" already says "unset".
    if (!as_string_view(o.if_contains(key)).empty()) o.stable_erase(key);
    return;
  }
  set_or_insert(o, key, json::value(json::string_view(v.data(), v.size())), after);
}

void set_meta_member(json::object& meta, std::string_view key, json::value v) {
  if (json::value* cur = meta.if_contains(key)) {
    *cur = std::move(v);
  } else {
    meta.emplace(key, std::move(v));
  }
}

}  // namespace

Result<Object> Object::from_json(json::value v) {
  json::object* o = v.if_object();
  if (o == nullptr) return fail(fmt::format("expected object, got {}", json_type_name(v)));
  for (std::string_view k : {"kind", "apiVersion"}) {
    const json::value* m = o->if_contains(k);
    if (m != nullptr && !m->is_string() && !m->is_null()) {
      return fail(fmt::format("{}: expected string, got {}", k, json_type_name(*m)));
    }
  }
  if (const json::value* m = o->if_contains("metadata"); m != nullptr && !m->is_null()) {
    auto meta = ObjectMeta::from_json(*m);
    if (!meta) return fail(meta.error());
  }
  return Object(std::move(*o));
}

Result<Object> Object::parse(std::string_view text) {
  std::string error;
  auto v = parse_json(text, &error);
  if (!v) return fail(error);
  return from_json(std::move(*v));
}

std::string Object::to_json_string() const {
  return json::serialize(obj_);
}

std::string_view Object::api_version() const {
  return as_string_view(obj_.if_contains("apiVersion"));
}
std::string_view Object::kind() const {
  return as_string_view(obj_.if_contains("kind"));
}

TypeMeta Object::type_meta() const {
  TypeMeta tm;
  tm.api_version = std::string(api_version());
  tm.kind = std::string(kind());
  return tm;
}

void Object::set_type_meta(const TypeMeta& tm) {
  set_kind(tm.kind);
  set_api_version(tm.api_version);
}

void Object::set_api_version(std::string_view v) {
  set_type_member(obj_, "apiVersion", v, {"kind"});
}
void Object::set_kind(std::string_view v) {
  set_type_member(obj_, "kind", v, {});
}

Result<ObjectMeta> Object::metadata() const {
  const json::value* m = obj_.if_contains("metadata");
  if (m == nullptr || m->is_null()) return ObjectMeta{};
  return ObjectMeta::from_json(*m);
}

void Object::set_metadata(const ObjectMeta& meta) {
  json::value encoded = meta.to_json();
  const json::value* cur = obj_.if_contains("metadata");
  if (encoded.get_object().empty() && (cur == nullptr || cur->is_null())) return;
  set_or_insert(obj_, "metadata", std::move(encoded), {"kind", "apiVersion"});
}

const json::object* Object::meta() const {
  return find_object(obj_, "metadata");
}

json::object& Object::mutable_meta() {
  json::value* m = obj_.if_contains("metadata");
  if (m == nullptr || !m->is_object()) {
    set_or_insert(obj_, "metadata", json::object(), {"kind", "apiVersion"});
    m = obj_.if_contains("metadata");
  }
  return m->get_object();
}

std::string_view Object::meta_string(std::string_view key) const {
  const json::object* m = meta();
  return m == nullptr ? std::string_view() : as_string_view(m->if_contains(key));
}

std::string_view Object::name() const {
  return meta_string("name");
}
std::string_view Object::generate_name() const {
  return meta_string("generateName");
}
std::string_view Object::namespace_() const {
  return meta_string("namespace");
}
std::string_view Object::uid() const {
  return meta_string("uid");
}
std::string_view Object::resource_version() const {
  return meta_string("resourceVersion");
}

std::int64_t Object::generation() const {
  const json::object* m = meta();
  if (m == nullptr) return 0;
  return find_int(*m, "generation").value_or(0);
}

const json::object* Object::labels() const {
  const json::object* m = meta();
  return m == nullptr ? nullptr : find_object(*m, "labels");
}

const json::object* Object::annotations() const {
  const json::object* m = meta();
  return m == nullptr ? nullptr : find_object(*m, "annotations");
}

std::string Object::key() const {
  const std::string_view ns = namespace_();
  if (ns.empty()) return std::string(name());
  return fmt::format("{}/{}", ns, name());
}

void Object::set_name(std::string_view v) {
  set_meta_member(mutable_meta(), "name", json::string_view(v.data(), v.size()));
}
void Object::set_generate_name(std::string_view v) {
  set_meta_member(mutable_meta(), "generateName", json::string_view(v.data(), v.size()));
}
void Object::set_namespace(std::string_view v) {
  set_meta_member(mutable_meta(), "namespace", json::string_view(v.data(), v.size()));
}
void Object::set_uid(std::string_view v) {
  set_meta_member(mutable_meta(), "uid", json::string_view(v.data(), v.size()));
}
void Object::set_resource_version(std::string_view v) {
  set_meta_member(mutable_meta(), "resourceVersion", json::string_view(v.data(), v.size()));
}
void Object::set_generation(std::int64_t v) {
  set_meta_member(mutable_meta(), "generation", v);
}
void Object::set_creation_timestamp(const Time& t) {
  set_meta_member(mutable_meta(), "creationTimestamp", t.to_json());
}

}  // namespace kcm::api
