// core/v1 ObjectReference: what an event is about (upstream tools/reference).
#pragma once

#include <string>

#include "api/json.h"
#include "api/object.h"
#include "api/result.h"

namespace kcm::record {

struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;

  // The reference to a whole object (GetReference): kind and apiVersion come
  // from its TypeMeta, which must be set because kcm has no scheme to look
  // the type up in.
  static Result<ObjectReference> from_object(const api::Object& object);

  // Members in Go's order, empty ones omitted (all are omitempty).
  api::json::value to_json() const;
  static Result<ObjectReference> from_json(const api::json::value& v);

  friend bool operator==(const ObjectReference&, const ObjectReference&) = default;
};

}  // namespace kcm::record
