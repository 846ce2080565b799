// core/v1 Service validation (upstream's ValidateService, ValidateServiceUpdate
// and ValidateServiceStatusUpdate in pkg/apis/core/validation), run on the
// defaulted object after the cluster IPs, IP families and node ports were
// allocated. The generic ObjectMeta rules (metadata.name included) are the
// store's; only core's extra finalizer-name check is done here. Bad values
// print as upstream's field.Error does ([]string{...}, "null" for a nil
// pointer, the core.ServicePort struct of a repeated port).
#pragma once

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// ValidateServiceClusterIPsRelatedFields of a spec: clusterIP(s), ipFamilies
// and ipFamilyPolicy well formed and consistent. The allocator checks these
// first, as upstream's initIPFamilyFields does, before it reads them.
api::FieldErrors validate_service_cluster_ips(const json::object& spec);

// ValidateService without the generic metadata rules.
api::FieldErrors validate_service(const json::object& service);
// ValidateServiceUpdate: the update rules (cluster IPs and IP families may only
// grow or shrink by the secondary, loadBalancerClass and healthCheckNodePort
// are fixed), then validate_service(service).
api::FieldErrors validate_service_update(const json::object& service, const json::object& old);
// ValidateServiceStatusUpdate: status.loadBalancer.ingress.
api::FieldErrors validate_service_status_update(const json::object& service,
                                                const json::object& old);

}  // namespace kcm::local::registry
