#include "api/schema/openapi_common.h"

namespace kcm::api::schema {

std::string_view builtin_openapi_name(Kind k) {
  switch (k) {
    case Kind::kIntOrString:
      return "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    case Kind::kQuantity:
      return "io.k8s.apimachinery.pkg.api.resource.Quantity";
    case Kind::kTime:
      return "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
    case Kind::kMicroTime:
      return "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
    case Kind::kRaw:
      return "io.k8s.apimachinery.pkg.runtime.RawExtension";
    case Kind::kFieldsV1:
      return "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1";
    default:
      return {};
  }
}

void collect_openapi_types(const Type& t, std::set<const Type*>& seen, std::set<Kind>& builtins) {
  if (!seen.insert(&t).second) return;
  for (const auto& f : t.fields) {
    const TypeExpr* e = f.type;
    while (e->kind == Kind::kList || e->kind == Kind::kMap)
      e = e->elem;
    if (e->kind == Kind::kObject) {
      collect_openapi_types(*e->object, seen, builtins);
    } else if (!builtin_openapi_name(e->kind).empty()) {
      builtins.insert(e->kind);
    }
  }
}

bool has_list_schema(const Type& t) {
  // Reviews are answered, never stored: there is nothing to list.
  return t.name != "Binding" && t.name != "Scale" && t.package != "meta/v1" &&
         t.package != "authorization.k8s.io/v1" && t.package != "authentication.k8s.io/v1";
}

json::array gvk_list_extension(const std::vector<GroupVersionKind>& gvks) {
  json::array out;
  for (const auto& g : gvks) {
    out.push_back(json::object{{"group", g.group}, {"kind", g.kind}, {"version", g.version}});
  }
  return out;
}

}  // namespace kcm::api::schema
