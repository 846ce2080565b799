#include "local/crd/crd_defaults.h"

#include <algorithm>
#include <string>

namespace kcm::local::crd {

namespace {

bool empty_string(const json::object& o, std::string_view key) {
  return api::as_string_view(o.if_contains(key)).empty();
}

}  // namespace

void crd_defaults(json::object& crd) {
  json::value* spec_value = crd.if_contains("spec");
  if (spec_value == nullptr || !spec_value->is_object()) return;
  json::object& spec = spec_value->get_object();

  if (json::value* names_value = spec.if_contains("names");
      names_value && names_value->is_object()) {
    json::object& names = names_value->get_object();
    const std::string kind(api::as_string_view(names.if_contains("kind")));
    if (empty_string(names, "singular") && !kind.empty()) {
      std::string singular = kind;
      std::transform(singular.begin(), singular.end(), singular.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      names["singular"] = singular;
    }
    if (empty_string(names, "listKind") && !kind.empty()) names["listKind"] = kind + "List";
  }

  json::value& conversion = spec["conversion"];
  if (!conversion.is_object()) conversion = json::object{{"strategy", "None"}};
  json::value* service = &conversion;
  for (std::string_view k : {"webhook", "clientConfig", "service"}) {
    service = service->is_object() ? service->get_object().if_contains(k) : nullptr;
    if (service == nullptr) break;
  }
  if (service != nullptr && service->is_object()) {
    json::object& svc = service->get_object();
    if (const json::value* port = svc.if_contains("port"); port == nullptr || port->is_null()) {
      svc["port"] = 443;
    }
  }

  json::object& status = api::ensure_object(crd, "status");
  const json::array* stored = api::find_array(status, "storedVersions");
  if (stored == nullptr || stored->empty()) {
    if (const json::array* versions = api::find_array(spec, "versions")) {
      for (const json::value& v : *versions) {
        const json::object* o = v.if_object();
        if (o == nullptr || !api::find_bool(*o, "storage").value_or(false)) continue;
        status["storedVersions"] =
            json::array{json::value(api::as_string_view(o->if_contains("name")))};
        break;
      }
    }
  }
}

}  // namespace kcm::local::crd
