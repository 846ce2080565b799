#include "record/object_reference.h"

namespace kcm::record {

Result<ObjectReference> ObjectReference::from_object(const api::Object& object) {
  if (object.kind().empty()) return fail("Object 'Kind' is missing");
  if (object.api_version().empty()) return fail("Object 'apiVersion' is missing");
  ObjectReference ref;
  ref.kind = std::string(object.kind());
  ref.api_version = std::string(object.api_version());
  ref.name = std::string(object.name());
  ref.namespace_ = std::string(object.namespace_());
  ref.uid = std::string(object.uid());
  ref.resource_version = std::string(object.resource_version());
  return ref;
}

api::json::value ObjectReference::to_json() const {
  api::json::object o;
  const auto put = [&o](std::string_view key, const std::string& v) {
    if (!v.empty()) o[key] = v;
  };
  put("kind", kind);
  put("namespace", namespace_);
  put("name", name);
  put("uid", uid);
  put("apiVersion", api_version);
  put("resourceVersion", resource_version);
  put("fieldPath", field_path);
  return o;
}

Result<ObjectReference> ObjectReference::from_json(const api::json::value& v) {
  if (v.is_null()) return ObjectReference{};
  if (!v.is_object()) return fail("involvedObject: expected object");
  const auto& o = v.get_object();
  ObjectReference ref;
  const auto get = [&o](std::string_view key) {
    return std::string(api::find_string(o, key).value_or(""));
  };
  ref.kind = get("kind");
  ref.namespace_ = get("namespace");
  ref.name = get("name");
  ref.uid = get("uid");
  ref.api_version = get("apiVersion");
  ref.resource_version = get("resourceVersion");
  ref.field_path = get("fieldPath");
  return ref;
}

}  // namespace kcm::record
