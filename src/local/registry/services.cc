// core/v1 Service: upstream's SetDefaults_Service and service strategy. The
// cluster IP and node ports come from the allocator (service_allocator.h),
// which the store calls between defaulting and these hooks.
#include <algorithm>
#include <string>

#include "local/registry/field_access.h"
#include "local/registry/object_fields.h"
#include "local/registry/service_spec.h"
#include "local/registry/service_validation.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

std::vector<std::int64_t> svc_node_ports(const json::object& spec) {
  std::vector<std::int64_t> out;
  if (const json::array* ports = api::find_array(spec, "ports")) {
    for (const auto& p : *ports) {
      if (p.is_object()) out.push_back(api::find_int(p.get_object(), "nodePort").value_or(0));
    }
  }
  return out;
}

bool svc_same(const json::object& a, const json::object& b, std::string_view key) {
  const json::value* x = a.if_contains(key);
  const json::value* y = b.if_contains(key);
  if (x == nullptr || x->is_null()) return y == nullptr || y->is_null();
  return y != nullptr && *x == *y;
}

class ServiceStrategy final : public Strategy {
 public:
  void apply_defaults(json::object& service) const override {
    json::object& spec = api::ensure_object(service, "spec");
    if (string_member(spec, "sessionAffinity").empty()) spec["sessionAffinity"] = "None";
    if (string_member(spec, "sessionAffinity") == "None") {
      spec.erase("sessionAffinityConfig");
    } else if (string_member(spec, "sessionAffinity") == "ClientIP") {
      const json::object* config = api::find_object(spec, "sessionAffinityConfig");
      const json::object* client =
          config != nullptr ? api::find_object(*config, "clientIP") : nullptr;
      if (client == nullptr || !has(*client, "timeoutSeconds")) {
        spec["sessionAffinityConfig"] =
            json::object{{"clientIP", json::object{{"timeoutSeconds", 10800}}}};
      }
    }
    if (string_member(spec, "type").empty()) spec["type"] = "ClusterIP";
    if (json::value* ports = spec.if_contains("ports"); ports != nullptr && ports->is_array()) {
      for (auto& p : ports->get_array()) {
        if (!p.is_object()) continue;
        json::object& port = p.get_object();
        if (string_member(port, "protocol").empty()) port["protocol"] = "TCP";
        const json::value* target = port.if_contains("targetPort");
        const bool unset = target == nullptr || target->is_null() ||
                           (target->is_int64() && target->get_int64() == 0) ||
                           (target->is_string() && target->get_string().empty());
        if (unset && port.contains("port")) port["targetPort"] = port.at("port");
      }
    }
    // A copy: the inserts below may move the spec's members.
    const std::string type(string_member(spec, "type"));
    if (service_externally_accessible(spec) &&
        string_member(spec, "externalTrafficPolicy").empty()) {
      spec["externalTrafficPolicy"] = "Cluster";
    }
    if (!has(spec, "internalTrafficPolicy") &&
        (type == "ClusterIP" || type == "NodePort" || type == "LoadBalancer")) {
      spec["internalTrafficPolicy"] = "Cluster";
    }
    if (type == "LoadBalancer") {
      if (!has(spec, "allocateLoadBalancerNodePorts")) {
        spec["allocateLoadBalancerNodePorts"] = true;
      }
      default_ip_modes(service);
    }
  }

  void prepare_for_create(json::object& service) const override {
    service["status"] = json::object();
    drop_external_name_traffic_policy(service);
  }

  void prepare_for_update(json::object& service, const json::object& old) const override {
    copy_member(service, old, "status");
    drop_type_dependent_fields(service, old);
    drop_external_name_traffic_policy(service);
  }

  void prepare_for_status_update(json::object& service, const json::object& old) const override {
    copy_member(service, old, "spec");
  }

  api::FieldErrors validate(const json::object& service) const override {
    return validate_service(service);
  }
  api::FieldErrors validate_update(const json::object& service,
                                   const json::object& old) const override {
    return validate_service_update(service, old);
  }
  api::FieldErrors validate_status_update(const json::object& service,
                                          const json::object& old) const override {
    return validate_service_status_update(service, old);
  }

  void field_values(const json::object& service, std::vector<std::string>& out) const override {
    out.push_back(field_string(service, "spec.clusterIP"));
    out.push_back(field_string(service, "spec.type"));
  }

 private:
  // A load balancer's IPs are VIPs unless its controller says otherwise.
  static void default_ip_modes(json::object& service) {
    json::value* status = service.if_contains("status");
    if (status == nullptr || !status->is_object()) return;
    json::value* lb = status->get_object().if_contains("loadBalancer");
    if (lb == nullptr || !lb->is_object()) return;
    json::value* ingress = lb->get_object().if_contains("ingress");
    if (ingress == nullptr || !ingress->is_array()) return;
    for (auto& entry : ingress->get_array()) {
      if (!entry.is_object()) continue;
      json::object& e = entry.get_object();
      if (!string_member(e, "ip").empty() && !has(e, "ipMode")) e["ipMode"] = "VIP";
    }
  }

  // Upstream strips internalTrafficPolicy from ExternalName Services when it
  // reads them; kcm-local does not store it at all.
  static void drop_external_name_traffic_policy(json::object& service) {
    json::object& spec = api::ensure_object(service, "spec");
    if (string_member(spec, "type") == "ExternalName") spec.erase("internalTrafficPolicy");
  }

  // dropTypeDependentFields: what a type change leaves behind and the client
  // did not touch goes.
  static void drop_type_dependent_fields(json::object& service, const json::object& old) {
    json::object& spec = api::ensure_object(service, "spec");
    const json::object* old_spec_ptr = api::find_object(old, "spec");
    const json::object old_spec = old_spec_ptr != nullptr ? *old_spec_ptr : json::object();
    // A copy: the erases below move the spec's members.
    const std::string type(string_member(spec, "type"));
    const auto old_type = string_member(old_spec, "type");
    if (old_type != "ExternalName" && type == "ExternalName") {
      if (svc_same(spec, old_spec, "clusterIP") && svc_same(spec, old_spec, "clusterIPs")) {
        spec.erase("clusterIP");
        spec.erase("clusterIPs");
      }
      if (svc_same(spec, old_spec, "ipFamilies")) spec.erase("ipFamilies");
      if (svc_same(spec, old_spec, "ipFamilyPolicy")) spec.erase("ipFamilyPolicy");
    }
    if (service_needs_node_ports(old_spec) && !service_needs_node_ports(spec)) {
      const std::vector<std::int64_t> before = svc_node_ports(old_spec);
      bool subset = true;
      for (std::int64_t n : svc_node_ports(spec)) {
        subset = subset && (n == 0 || std::find(before.begin(), before.end(), n) != before.end());
      }
      if (subset) {
        if (json::value* ports = spec.if_contains("ports"); ports && ports->is_array()) {
          for (auto& p : ports->get_array()) {
            if (p.is_object()) p.get_object().erase("nodePort");
          }
        }
      }
    }
    if (service_needs_health_check_port(old_spec) && !service_needs_health_check_port(spec) &&
        svc_same(spec, old_spec, "healthCheckNodePort")) {
      spec.erase("healthCheckNodePort");
    }
    if (old_type == "LoadBalancer" && type != "LoadBalancer") {
      if (svc_same(spec, old_spec, "allocateLoadBalancerNodePorts")) {
        spec.erase("allocateLoadBalancerNodePorts");
      }
      if (svc_same(spec, old_spec, "loadBalancerClass")) spec.erase("loadBalancerClass");
    }
    if (service_externally_accessible(old_spec) && !service_externally_accessible(spec) &&
        svc_same(spec, old_spec, "externalTrafficPolicy")) {
      spec.erase("externalTrafficPolicy");
    }
    if (type != "LoadBalancer") {
      api::ensure_object(service, "status")["loadBalancer"] = json::object();
    }
  }
};

}  // namespace

std::shared_ptr<const Strategy> service_strategy() {
  return std::make_shared<ServiceStrategy>();
}

}  // namespace kcm::local::registry
