#include "api/schema/type.h"

namespace kcm::api::schema {

const Field* Type::field(std::string_view json_name) const {
  for (const auto& f : fields) {
    if (f.inline_) {
      if (f.type->object != nullptr) {
        if (const Field* inner = f.type->object->field(json_name)) return inner;
      }
    } else if (f.name == json_name) {
      return &f;
    }
  }
  return nullptr;
}

std::vector<const Field*> Type::json_fields() const {
  std::vector<const Field*> out;
  for (const auto& f : fields) {
    if (f.inline_ && f.type->object != nullptr) {
      auto inner = f.type->object->json_fields();
      out.insert(out.end(), inner.begin(), inner.end());
    } else {
      out.push_back(&f);
    }
  }
  return out;
}

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::kString:
      return "string";
    case Kind::kInt32:
      return "int32";
    case Kind::kInt64:
      return "int64";
    case Kind::kBool:
      return "bool";
    case Kind::kDouble:
      return "double";
    case Kind::kBytes:
      return "bytes";
    case Kind::kIntOrString:
      return "IntOrString";
    case Kind::kQuantity:
      return "Quantity";
    case Kind::kTime:
      return "Time";
    case Kind::kMicroTime:
      return "MicroTime";
    case Kind::kDuration:
      return "Duration";
    case Kind::kRaw:
      return "RawExtension";
    case Kind::kFieldsV1:
      return "FieldsV1";
    case Kind::kObject:
      return "object";
    case Kind::kList:
      return "list";
    case Kind::kMap:
      return "map";
  }
  return "?";
}

std::string_view to_string(PatchStrategy s) {
  switch (s) {
    case PatchStrategy::kNone:
      return "";
    case PatchStrategy::kMerge:
      return "merge";
    case PatchStrategy::kRetainKeys:
      return "retainKeys";
    case PatchStrategy::kMergeRetainKeys:
      return "merge,retainKeys";
    case PatchStrategy::kReplace:
      return "replace";
  }
  return "";
}

std::string_view to_string(ListType t) {
  switch (t) {
    case ListType::kNone:
      return "";
    case ListType::kAtomic:
      return "atomic";
    case ListType::kSet:
      return "set";
    case ListType::kMap:
      return "map";
  }
  return "";
}

}  // namespace kcm::api::schema
