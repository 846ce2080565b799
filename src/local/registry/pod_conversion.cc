#include "local/registry/pod_conversion.h"

#include <string>

#include "local/registry/field_access.h"

namespace kcm::local::registry {
namespace {

void sync_ips(json::object& status, std::string_view single, std::string_view plural) {
  const json::array* list = array_member(status, plural);
  const std::string ip(string_member(status, single));
  if ((list == nullptr || list->empty()) && !ip.empty()) {
    json::array ips;
    ips.emplace_back(json::object{{"ip", ip}});
    status[plural] = std::move(ips);
    return;
  }
  if (list != nullptr && !list->empty()) {
    const json::object* first = (*list)[0].if_object();
    const std::string first_ip(first != nullptr ? string_member(*first, "ip") : "");
    if (first_ip.empty()) {
      status.erase(single);
    } else {
      status[single] = first_ip;
    }
  }
}

}  // namespace

void normalize_service_account_alias(json::object& spec) {
  std::string name(string_member(spec, "serviceAccountName"));
  if (name.empty()) name = std::string(string_member(spec, "serviceAccount"));
  if (name.empty()) {
    spec.erase("serviceAccount");
    if (spec.contains("serviceAccountName") && !has(spec, "serviceAccountName")) {
      spec.erase("serviceAccountName");
    }
    return;
  }
  spec["serviceAccountName"] = name;
  spec["serviceAccount"] = name;
}

void normalize_status_ips(json::object& status) {
  sync_ips(status, "podIP", "podIPs");
  sync_ips(status, "hostIP", "hostIPs");
}

}  // namespace kcm::local::registry
