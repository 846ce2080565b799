// Object: a whole API object kept as its JSON (an "unstructured" object),
// with typed access to its TypeMeta and ObjectMeta. Reads and writes touch
// only the members concerned, so spec, status and anything unknown pass
// through untouched; the API server and the dynamic client build on it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/object_meta.h"
#include "api/result.h"
#include "api/time.h"

namespace kcm::api {

class Object {
 public:
  Object() = default;  // {}
  explicit Object(json::object o) : obj_(std::move(o)) {}

  // A JSON object whose kind/apiVersion, if present, are strings and whose
  // metadata, if present and not null, decodes as ObjectMeta (errors name the
  // member, e.g. "metadata.labels: expected object, got string").
  static Result<Object> from_json(json::value v);
  static Result<Object> parse(std::string_view text);

  const json::object& as_object() const { return obj_; }
  json::object& mutable_object() { return obj_; }
  json::value to_json() const { return obj_; }
  std::string to_json_string() const;

  // --- TypeMeta ---
  std::string_view api_version() const;
  std::string_view kind() const;
  TypeMeta type_meta() const;
  // Writes kind/apiVersion in place (new ones go first, Go's order); an empty
  // value removes a member that holds a non-empty string.
  void set_type_meta(const TypeMeta& tm);
  void set_api_version(std::string_view v);
  void set_kind(std::string_view v);

  // --- ObjectMeta ---
  // The decoded metadata; an empty ObjectMeta when the member is absent or null.
  Result<ObjectMeta> metadata() const;
  // Replaces the metadata member with `meta` (which carries the members it
  // does not model). An empty `meta` leaves an absent or null member alone.
  void set_metadata(const ObjectMeta& meta);

  // Direct reads of single metadata members, without decoding the rest
  // ("" / 0 / nullptr when absent or of another type).
  std::string_view name() const;
  std::string_view generate_name() const;
  std::string_view namespace_() const;
  std::string_view uid() const;
  std::string_view resource_version() const;
  std::int64_t generation() const;
  const json::object* labels() const;
  const json::object* annotations() const;
  // "namespace/name", or "name" when cluster-scoped (MetaNamespaceKeyFunc).
  std::string key() const;

  // Direct writes of single metadata members (creating `metadata` if needed).
  void set_name(std::string_view v);
  void set_generate_name(std::string_view v);
  void set_namespace(std::string_view v);
  void set_uid(std::string_view v);
  void set_resource_version(std::string_view v);
  void set_generation(std::int64_t v);
  void set_creation_timestamp(const Time& t);

 private:
  const json::object* meta() const;
  json::object& mutable_meta();
  std::string_view meta_string(std::string_view key) const;

  json::object obj_;
};

}  // namespace kcm::api
