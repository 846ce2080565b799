// Services: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR
// (upstream printService).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kServiceColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Type", "string", "",
     "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are "
     "ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a "
     "cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by "
     "the selector or if that is not specified, by manual construction of an Endpoints object or "
     "EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the "
     "endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds "
     "on ClusterIP and allocates a port on every node which routes to the same endpoints as the "
     "clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if "
     "supported in the current cloud) which routes to the same endpoints as the clusterIP. "
     "\"ExternalName\" aliases this service to the specified externalName. Several other fields "
     "do not apply to ExternalName services. More info: "
     "https://kubernetes.io/docs/concepts/services-networking/service/"
     "#publishing-services-service-types",
     0},
    {"Cluster-IP", "string", "",
     "clusterIP is the IP address of the service and is usually assigned randomly. If an address "
     "is specified manually, is in-range (as per system configuration), and is not in use, it "
     "will be allocated to the service; otherwise creation of the service will fail. This field "
     "may not be changed through updates unless the type field is also being changed to "
     "ExternalName (which requires this field to be blank) or the type field is being changed "
     "from ExternalName (in which case this field may optionally be specified, as describe "
     "above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting "
     "this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct "
     "endpoint connections are preferred and proxying is not required.  Only applies to types "
     "ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service "
     "of type ExternalName, creation will fail. This field will be wiped when updating a Service "
     "to type ExternalName. More info: "
     "https://kubernetes.io/docs/concepts/services-networking/service/"
     "#virtual-ips-and-service-proxies",
     0},
    {"External-IP", "string", "",
     "externalIPs is a list of IP addresses for which nodes in the cluster will also accept "
     "traffic for this service.  These IPs are not managed by Kubernetes.  The user is "
     "responsible for ensuring that traffic arrives at a node with this IP.  A common example is "
     "external load-balancers that are not part of the Kubernetes system.",
     0},
    {"Port(s)", "string", "",
     "The list of ports that are exposed by this service. More info: "
     "https://kubernetes.io/docs/concepts/services-networking/service/"
     "#virtual-ips-and-service-proxies",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
    {"Selector", "string", "",
     "Route service traffic to pods with label keys and values matching this selector. If empty "
     "or not present, the service is assumed to have an external process managing its "
     "endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, "
     "and LoadBalancer. Ignored if type is ExternalName. More info: "
     "https://kubernetes.io/docs/concepts/services-networking/service/",
     1},
};

std::string service_join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ',';
    out += item;
  }
  return out;
}

std::vector<std::string> service_string_list(const json::object* o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::array* a = array_at(o, key)) {
    for (const auto& v : *a) {
      if (v.is_string()) out.emplace_back(v.get_string());
    }
  }
  return out;
}

// The load balancer's ingress points, sorted and without repeats; cut to 16
// characters unless wide.
std::string service_load_balancer_ips(const json::object* status, bool wide) {
  std::set<std::string> points;
  if (const json::array* ingress = array_at(object_at(status, "loadBalancer"), "ingress")) {
    for (const auto& entry : *ingress) {
      if (!entry.is_object()) continue;
      const std::string_view ip = string_at(&entry.get_object(), "ip");
      const std::string_view host = string_at(&entry.get_object(), "hostname");
      if (!ip.empty()) {
        points.emplace(ip);
      } else if (!host.empty()) {
        points.emplace(host);
      }
    }
  }
  std::string out = service_join({points.begin(), points.end()});
  if (!wide && out.size() > 16) out = out.substr(0, 13) + "...";
  return out;
}

std::string service_external_ip(const json::object& service, bool wide) {
  const json::object* spec = object_at(&service, "spec");
  const std::string_view type = string_at(spec, "type");
  const std::vector<std::string> external = service_string_list(spec, "externalIPs");
  if (type == "ClusterIP" || type == "NodePort") {
    return external.empty() ? "<none>" : service_join(external);
  }
  if (type == "LoadBalancer") {
    std::string lb = service_load_balancer_ips(object_at(&service, "status"), wide);
    if (!external.empty()) {
      std::vector<std::string> all;
      if (!lb.empty()) all.push_back(lb);
      all.insert(all.end(), external.begin(), external.end());
      return service_join(all);
    }
    return lb.empty() ? "<pending>" : lb;
  }
  if (type == "ExternalName") return std::string(string_at(spec, "externalName"));
  return "<unknown>";
}

std::string service_ports(const json::object* spec) {
  std::vector<std::string> out;
  if (const json::array* ports = array_at(spec, "ports")) {
    for (const auto& p : *ports) {
      if (!p.is_object()) continue;
      const json::object* port = &p.get_object();
      const std::int64_t node_port = int_at(port, "nodePort");
      out.push_back(node_port > 0
                        ? std::to_string(int_at(port, "port")) + ":" + std::to_string(node_port) +
                              "/" + std::string(string_at(port, "protocol"))
                        : std::to_string(int_at(port, "port")) + "/" +
                              std::string(string_at(port, "protocol")));
    }
  }
  return out.empty() ? "<none>" : service_join(out);
}

// labels.FormatLabels: sorted k=v pairs, "<none>" when empty.
std::string service_selector(const json::object* spec) {
  std::vector<std::string> pairs;
  if (const json::object* selector = object_at(spec, "selector")) {
    for (const auto& [k, v] : *selector) {
      pairs.push_back(std::string(k) + "=" + (v.is_string() ? std::string(v.get_string()) : ""));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs.empty() ? "<none>" : service_join(pairs);
}

Row print_service(const json::object& service, const PrintContext& context) {
  const json::object* spec = object_at(&service, "spec");
  const std::vector<std::string> cluster_ips = service_string_list(spec, "clusterIPs");
  Row row;
  row.cells.emplace_back(object_name(service));
  row.cells.emplace_back(std::string(string_at(spec, "type")));
  row.cells.emplace_back(cluster_ips.empty() ? std::string("<none>") : cluster_ips.front());
  row.cells.emplace_back(service_external_ip(service, context.wide));
  row.cells.emplace_back(service_ports(spec));
  row.cells.emplace_back(creation_age(service, context.now));
  if (context.wide) row.cells.emplace_back(service_selector(spec));
  return row;
}

}  // namespace

const TablePrinter& service_printer() {
  static constexpr TablePrinter kPrinter{kServiceColumns, &print_service};
  return kPrinter;
}

}  // namespace kcm::local::printers
