// What the API server's v1 <-> internal round trip changes in a pod as
// stored: the deprecated spec.serviceAccount mirrors spec.serviceAccountName,
// and status.podIP/hostIP mirror the first entry of podIPs/hostIPs.
// kcm-local stores objects as sent, so it applies these explicitly.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// serviceAccountName wins; a lone serviceAccount fills it; serviceAccount
// then equals serviceAccountName (absent when empty).
void normalize_service_account_alias(json::object& spec);
// podIP <-> podIPs[0].ip and hostIP <-> hostIPs[0].ip.
void normalize_status_ips(json::object& status);

}  // namespace kcm::local::registry
