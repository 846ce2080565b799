// Service validation (service-spec.md §3): upstream's exact paths, error
// types and messages, on defaulted and allocated objects.
#include "local/registry/service_validation.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::messages;
using testing::obj;

json::object service_with_spec(std::string_view spec) {
  std::string text = R"({"apiVersion":"v1","kind":"Service",
    "metadata":{"name":"web","namespace":"default","resourceVersion":"5"},"spec":)";
  text += spec;
  text += R"(,"status":{"loadBalancer":{}}})";
  return obj(text);
}

// What a POST of `kubectl create service clusterip web --tcp=80:8080` holds
// once defaulted and allocated.
json::object service_cluster_ip() {
  return service_with_spec(R"({"type":"ClusterIP","selector":{"app":"web"},
    "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080}],
    "clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],
    "ipFamilyPolicy":"SingleStack","sessionAffinity":"None","internalTrafficPolicy":"Cluster"})");
}

json::object service_node_port() {
  return service_with_spec(R"({"type":"NodePort","selector":{"app":"web"},
    "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080,"nodePort":30080}],
    "clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],
    "ipFamilyPolicy":"SingleStack","sessionAffinity":"None","externalTrafficPolicy":"Cluster",
    "internalTrafficPolicy":"Cluster"})");
}

json::object service_load_balancer() {
  return service_with_spec(R"({"type":"LoadBalancer","selector":{"app":"web"},
    "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080,"nodePort":30080}],
    "clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],
    "ipFamilyPolicy":"SingleStack","sessionAffinity":"None","externalTrafficPolicy":"Cluster",
    "internalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true})");
}

json::object service_external_name() {
  return service_with_spec(R"({"type":"ExternalName","externalName":"db.example.com.",
    "selector":{"app":"web"},"sessionAffinity":"None"})");
}

// `kubectl create service clusterip web --clusterip=None`: no ports.
json::object service_headless() {
  return service_with_spec(R"({"type":"ClusterIP","selector":{"app":"web"},
    "clusterIP":"None","clusterIPs":["None"],"ipFamilies":["IPv4"],
    "ipFamilyPolicy":"SingleStack","sessionAffinity":"None","internalTrafficPolicy":"Cluster"})");
}

json::object& service_spec(json::object& service) {
  return service["spec"].as_object();
}

json::object& service_port0(json::object& service) {
  return service_spec(service)["ports"].as_array()[0].as_object();
}

void service_set_ips(json::object& service, std::string_view ips, std::string_view families) {
  json::object& spec = service_spec(service);
  const json::value list = json::parse(ips);
  spec["clusterIPs"] = list;
  spec["clusterIP"] = list.as_array().empty() ? json::value("") : list.as_array()[0];
  spec["ipFamilies"] = json::parse(families);
}

// The error with this exact message, or nullptr.
const api::FieldError* service_find(const api::FieldErrors& errs, const std::string& message) {
  for (const auto& e : errs) {
    if (e.message() == message) return &e;
  }
  return nullptr;
}

std::size_t service_count(const api::FieldErrors& errs, const std::string& message) {
  std::size_t n = 0;
  for (const auto& e : errs)
    n += e.message() == message ? 1 : 0;
  return n;
}

using api::FieldErrorType;

struct ServiceValidationCase {
  const char* name;
  std::function<json::object()> make;
  FieldErrorType type;
  std::string message;  // "path: body", exactly
};

void service_expect(const std::vector<ServiceValidationCase>& cases,
                    const std::function<api::FieldErrors(const json::object&)>& validate) {
  for (const auto& c : cases) {
    const auto errs = validate(c.make());
    const api::FieldError* e = service_find(errs, c.message);
    if (e == nullptr) {
      ADD_FAILURE() << c.name << ": want " << c.message << "\ngot:\n" << messages(errs);
      continue;
    }
    EXPECT_EQ(e->type, c.type) << c.name;
  }
}

// A case built from `base` changed by `mutate`.
std::function<json::object()> service_from(json::object (*base)(),
                                           std::function<void(json::object&)> mutate) {
  return [base, mutate] {
    json::object s = base();
    mutate(s);
    return s;
  };
}

constexpr std::string_view kServiceSubdomainMsg =
    R"(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))";
constexpr std::string_view kServiceQualifiedNameMsg =
    R"(name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))";
constexpr std::string_view kServiceBadIpMsg =
    "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
constexpr std::string_view kServiceBadCidrMsg =
    "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
constexpr std::string_view kServicePortRangeMsg = "must be between 1 and 65535, inclusive";

std::string service_msg(std::string_view a, std::string_view b) {
  return std::string(a) + std::string(b);
}

TEST(ServiceValidation, ValidServicesPass) {
  std::vector<std::pair<const char*, json::object>> valid = {
      {"ClusterIP", service_cluster_ip()},
      {"NodePort", service_node_port()},
      {"LoadBalancer", service_load_balancer()},
      {"ExternalName without ports", service_external_name()},
      {"headless without ports", service_headless()},
  };
  // Headless and selectorless on a single-stack cluster: both families.
  json::object dual_headless = service_headless();
  service_spec(dual_headless).erase("selector");
  service_spec(dual_headless)["ipFamilyPolicy"] = "RequireDualStack";
  service_spec(dual_headless)["ipFamilies"] = json::parse(R"(["IPv4","IPv6"])");
  valid.emplace_back("headless selectorless dual-stack", dual_headless);
  // Validation is family-agnostic.
  json::object v6 = service_cluster_ip();
  service_set_ips(v6, R"(["fd00::10"])", R"(["IPv6"])");
  valid.emplace_back("IPv6 cluster IP", v6);
  json::object dual = service_cluster_ip();
  service_set_ips(dual, R"(["10.96.0.10","fd00::10"])", R"(["IPv4","IPv6"])");
  service_spec(dual)["ipFamilyPolicy"] = "PreferDualStack";
  valid.emplace_back("dual-stack", dual);
  json::object rich = service_load_balancer();
  json::object& spec = service_spec(rich);
  spec["externalTrafficPolicy"] = "Local";
  spec["healthCheckNodePort"] = 31000;
  spec["loadBalancerClass"] = "example.com/internal";
  spec["loadBalancerSourceRanges"] = json::parse(R"([" 10.0.0.0/8","192.168.0.0/16 "])");
  spec["externalIPs"] = json::parse(R"(["192.0.2.10","2001:db8::10"])");
  spec["sessionAffinity"] = "ClientIP";
  spec["sessionAffinityConfig"] = json::parse(R"({"clientIP":{"timeoutSeconds":86400}})");
  spec["trafficDistribution"] = "PreferClose";
  // 53/TCP and 53/UDP may share one node port.
  spec["ports"] = json::parse(R"([
    {"name":"dns","port":53,"protocol":"TCP","targetPort":"dns-tcp","nodePort":30053,
     "appProtocol":"kubernetes.io/h2c"},
    {"name":"dns-udp","port":53,"protocol":"UDP","targetPort":53,"nodePort":30053}])");
  valid.emplace_back("LoadBalancer with every option", rich);
  json::object external = service_cluster_ip();
  service_spec(external)["externalIPs"] = json::parse(R"(["192.0.2.10"])");
  service_spec(external)["externalTrafficPolicy"] = "Local";
  valid.emplace_back("ClusterIP with external IPs", external);
  json::object hints = service_cluster_ip();
  hints["metadata"].as_object()["annotations"] =
      json::parse(R"({"service.kubernetes.io/topology-aware-hints":"Auto",
                      "service.kubernetes.io/topology-mode":"Auto",
                      "service.beta.kubernetes.io/load-balancer-source-ranges":""})");
  service_spec(hints)["type"] = "LoadBalancer";
  service_spec(hints)["externalTrafficPolicy"] = "Cluster";
  service_spec(hints)["allocateLoadBalancerNodePorts"] = false;
  valid.emplace_back("matching topology annotations", hints);

  for (const auto& [name, service] : valid) {
    const auto errs = validate_service(service);
    EXPECT_TRUE(errs.empty()) << name << ":\n" << messages(errs);
  }
}

TEST(ServiceValidation, CreateErrors) {
  const auto set = [](std::string_view key, std::string_view json_text) {
    return [key = std::string(key), v = json::parse(json_text)](json::object& s) {
      service_spec(s)[key] = v;
    };
  };
  const auto erase = [](std::string_view key) {
    return [key = std::string(key)](json::object& s) { service_spec(s).erase(key); };
  };
  const auto port0 = [](std::string_view key, std::string_view json_text) {
    return [key = std::string(key), v = json::parse(json_text)](json::object& s) {
      service_port0(s)[key] = v;
    };
  };
  const auto two_ports = [](std::string_view ports) {
    return [v = json::parse(ports)](json::object& s) { service_spec(s)["ports"] = v; };
  };
  const auto external_ip = [](std::string_view ip) {
    return [ip = std::string(ip)](json::object& s) {
      service_spec(s)["externalIPs"] = json::array{json::value(ip)};
      service_spec(s)["externalTrafficPolicy"] = "Cluster";
    };
  };
  const auto headless_as = [](json::object& s) {
    service_set_ips(s, R"(["None"])", R"(["IPv4"])");
    service_spec(s)["ports"].as_array()[0].as_object().erase("nodePort");
  };
  const auto with_ips = [](std::string_view ips, std::string_view families) {
    return [ips = std::string(ips), families = std::string(families)](json::object& s) {
      service_set_ips(s, ips, families);
    };
  };
  const auto annotate = [](std::string_view annotations) {
    return [v = json::parse(annotations)](json::object& s) {
      s["metadata"].as_object()["annotations"] = v;
    };
  };
  const std::string long_name(254, 'a');

  const std::vector<ServiceValidationCase> cases = {
      // metadata
      {"kube finalizer",
       service_from(service_cluster_ip,
                    [](json::object& s) {
                      s["metadata"].as_object()["finalizers"] = json::parse(R"(["custom"])");
                    }),
       FieldErrorType::kInvalid,
       "metadata.finalizers[0]: Invalid value: \"custom\": name is neither a standard finalizer "
       "name nor is it fully qualified"},
      {"topology annotations differ",
       service_from(service_cluster_ip,
                    annotate(R"({"service.kubernetes.io/topology-aware-hints":"Disabled",
                                 "service.kubernetes.io/topology-mode":"Auto"})")),
       FieldErrorType::kInvalid,
       "metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: \"Auto\": must "
       "match annotations[service.kubernetes.io/topology-aware-hints] when both are specified"},
      // ports and type-specific cluster IPs
      {"no ports", service_from(service_cluster_ip, erase("ports")), FieldErrorType::kRequired,
       "spec.ports: Required value"},
      {"empty ports", service_from(service_node_port, set("ports", "[]")),
       FieldErrorType::kRequired, "spec.ports: Required value"},
      {"headless LoadBalancer", service_from(service_load_balancer, headless_as),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for LoadBalancer "
       "services"},
      {"headless NodePort", service_from(service_node_port, headless_as), FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort "
       "services"},
      {"ExternalName with clusterIPs",
       service_from(service_external_name,
                    [](json::object& s) { service_set_ips(s, R"(["10.96.0.10"])", "null"); }),
       FieldErrorType::kForbidden,
       "spec.clusterIPs: Forbidden: may not be set for ExternalName services"},
      {"ExternalName with ipFamilies",
       service_from(service_external_name, set("ipFamilies", R"(["IPv4"])")),
       FieldErrorType::kForbidden,
       "spec.ipFamilies: Forbidden: may not be set for ExternalName services"},
      {"ExternalName with ipFamilyPolicy",
       service_from(service_external_name, set("ipFamilyPolicy", R"("SingleStack")")),
       FieldErrorType::kForbidden,
       "spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services"},
      {"ExternalName without a name", service_from(service_external_name, erase("externalName")),
       FieldErrorType::kRequired, "spec.externalName: Required value"},
      {"ExternalName of a lone dot",
       service_from(service_external_name, set("externalName", R"(".")")),
       FieldErrorType::kRequired, "spec.externalName: Required value"},
      {"ExternalName upper case",
       service_from(service_external_name, set("externalName", R"("DB.example.com.")")),
       FieldErrorType::kInvalid,
       service_msg("spec.externalName: Invalid value: \"DB.example.com\": ", kServiceSubdomainMsg)},
      {"ExternalName too long",
       service_from(service_external_name,
                    [long_name](json::object& s) { service_spec(s)["externalName"] = long_name; }),
       FieldErrorType::kInvalid,
       "spec.externalName: Invalid value: \"" + long_name +
           "\": must be no more than 253 characters"},
      // validateServicePort
      {"second port unnamed", service_from(service_cluster_ip, two_ports(R"([
         {"name":"http","port":80,"protocol":"TCP","targetPort":80},
         {"port":443,"protocol":"TCP","targetPort":443}])")),
       FieldErrorType::kRequired, "spec.ports[1].name: Required value"},
      {"port name upper case", service_from(service_cluster_ip, port0("name", R"("HTTP")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].name: Invalid value: \"HTTP\": a lowercase RFC 1123 label must consist of "
       "lower case alphanumeric characters or '-', and must start and end with an alphanumeric "
       "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {"port name repeated", service_from(service_cluster_ip, two_ports(R"([
         {"name":"http","port":80,"protocol":"TCP","targetPort":80},
         {"name":"http","port":81,"protocol":"TCP","targetPort":81}])")),
       FieldErrorType::kDuplicate, "spec.ports[1].name: Duplicate value: \"http\""},
      {"port 0", service_from(service_cluster_ip, port0("port", "0")), FieldErrorType::kInvalid,
       service_msg("spec.ports[0].port: Invalid value: 0: ", kServicePortRangeMsg)},
      {"port 65536", service_from(service_cluster_ip, port0("port", "65536")),
       FieldErrorType::kInvalid,
       service_msg("spec.ports[0].port: Invalid value: 65536: ", kServicePortRangeMsg)},
      {"no protocol", service_from(service_cluster_ip, port0("protocol", R"("")")),
       FieldErrorType::kRequired, "spec.ports[0].protocol: Required value"},
      {"protocol HTTP", service_from(service_cluster_ip, port0("protocol", R"("HTTP")")),
       FieldErrorType::kNotSupported,
       "spec.ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", "
       "\"UDP\""},
      {"targetPort 0", service_from(service_cluster_ip, port0("targetPort", "0")),
       FieldErrorType::kInvalid,
       service_msg("spec.ports[0].targetPort: Invalid value: 0: ", kServicePortRangeMsg)},
      {"targetPort name charset",
       service_from(service_cluster_ip, port0("targetPort", R"("Web--")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].targetPort: Invalid value: \"Web--\": must contain only alpha-numeric "
       "characters (a-z, 0-9), and hyphens (-)"},
      {"targetPort name hyphens",
       service_from(service_cluster_ip, port0("targetPort", R"("Web--")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].targetPort: Invalid value: \"Web--\": must not contain consecutive hyphens"},
      {"targetPort name edge hyphen",
       service_from(service_cluster_ip, port0("targetPort", R"("Web--")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].targetPort: Invalid value: \"Web--\": must not begin or end with a hyphen"},
      {"targetPort name length",
       service_from(service_cluster_ip, port0("targetPort", R"("1234567890123456")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].targetPort: Invalid value: \"1234567890123456\": must be no more than 15 "
       "characters"},
      {"targetPort name without letter",
       service_from(service_cluster_ip, port0("targetPort", R"("1234567890123456")")),
       FieldErrorType::kInvalid,
       "spec.ports[0].targetPort: Invalid value: \"1234567890123456\": must contain at least one "
       "letter (a-z)"},
      {"appProtocol", service_from(service_cluster_ip, port0("appProtocol", R"("-h2c")")),
       FieldErrorType::kInvalid,
       service_msg("spec.ports[0].appProtocol: Invalid value: \"-h2c\": ",
                   kServiceQualifiedNameMsg)},
      {"selector value", service_from(service_cluster_ip, set("selector", R"({"app":"-web"})")),
       FieldErrorType::kInvalid,
       "spec.selector: Invalid value: \"-web\": a valid label must be an empty string or consist "
       "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
       "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
       "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"selector key", service_from(service_cluster_ip, set("selector", R"({"-app":"web"})")),
       FieldErrorType::kInvalid,
       service_msg("spec.selector: Invalid value: \"-app\": ", kServiceQualifiedNameMsg)},
      // session affinity
      {"no affinity", service_from(service_cluster_ip, set("sessionAffinity", R"("")")),
       FieldErrorType::kRequired, "spec.sessionAffinity: Required value"},
      {"affinity Sticky", service_from(service_cluster_ip, set("sessionAffinity", R"("Sticky")")),
       FieldErrorType::kNotSupported,
       "spec.sessionAffinity: Unsupported value: \"Sticky\": supported values: \"ClientIP\", "
       "\"None\""},
      {"ClientIP without config",
       service_from(service_cluster_ip, set("sessionAffinity", R"("ClientIP")")),
       FieldErrorType::kRequired,
       "spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP"},
      {"ClientIP without clientIP",
       service_from(service_cluster_ip,
                    [](json::object& s) {
                      service_spec(s)["sessionAffinity"] = "ClientIP";
                      service_spec(s)["sessionAffinityConfig"] = json::object();
                    }),
       FieldErrorType::kRequired,
       "spec.sessionAffinityConfig.clientIP: Required value: when session affinity type is "
       "ClientIP"},
      {"ClientIP without timeout",
       service_from(service_cluster_ip,
                    [](json::object& s) {
                      service_spec(s)["sessionAffinity"] = "ClientIP";
                      service_spec(s)["sessionAffinityConfig"] = json::parse(R"({"clientIP":{}})");
                    }),
       FieldErrorType::kRequired,
       "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Required value: when session "
       "affinity type is ClientIP"},
      {"ClientIP timeout 0",
       service_from(service_cluster_ip,
                    [](json::object& s) {
                      service_spec(s)["sessionAffinity"] = "ClientIP";
                      service_spec(s)["sessionAffinityConfig"] =
                          json::parse(R"({"clientIP":{"timeoutSeconds":0}})");
                    }),
       FieldErrorType::kInvalid,
       "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater "
       "than 0 and less than 86400"},
      {"ClientIP timeout 86401",
       service_from(service_cluster_ip,
                    [](json::object& s) {
                      service_spec(s)["sessionAffinity"] = "ClientIP";
                      service_spec(s)["sessionAffinityConfig"] =
                          json::parse(R"({"clientIP":{"timeoutSeconds":86401}})");
                    }),
       FieldErrorType::kInvalid,
       "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be "
       "greater than 0 and less than 86400"},
      {"None with config",
       service_from(service_cluster_ip,
                    set("sessionAffinityConfig", R"({"clientIP":{"timeoutSeconds":10}})")),
       FieldErrorType::kForbidden,
       "spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None"},
      // ValidateServiceClusterIPsRelatedFields
      {"clusterIP without clusterIPs", service_from(service_cluster_ip, erase("clusterIPs")),
       FieldErrorType::kRequired, "spec.clusterIPs: Required value"},
      {"clusterIPs[0] differs",
       service_from(service_cluster_ip, set("clusterIPs", R"(["10.96.0.11"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs: Invalid value: []string{\"10.96.0.11\"}: first value must match "
       "`clusterIP`"},
      {"clusterIPs without clusterIP", service_from(service_cluster_ip, erase("clusterIP")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: must be empty when `clusterIP` "
       "is not specified"},
      {"family IPv5", service_from(service_cluster_ip, set("ipFamilies", R"(["IPv5"])")),
       FieldErrorType::kNotSupported,
       "spec.ipFamilies[0]: Unsupported value: \"IPv5\": supported values: \"IPv4\", \"IPv6\""},
      {"family repeated", service_from(service_cluster_ip, set("ipFamilies", R"(["IPv4","IPv4"])")),
       FieldErrorType::kDuplicate, "spec.ipFamilies[1]: Duplicate value: \"IPv4\""},
      {"policy DualStack",
       service_from(service_cluster_ip, set("ipFamilyPolicy", R"("DualStack")")),
       FieldErrorType::kNotSupported,
       "spec.ipFamilyPolicy: Unsupported value: \"DualStack\": supported values: "
       "\"PreferDualStack\", \"RequireDualStack\", \"SingleStack\""},
      {"None not alone",
       service_from(service_cluster_ip, with_ips(R"(["None","10.96.0.10"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs: Invalid value: []string{\"None\", \"10.96.0.10\"}: 'None' must be the "
       "first and only value"},
      {"bad cluster IP",
       service_from(service_cluster_ip, with_ips(R"(["10.96.0.300"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       service_msg("spec.clusterIPs[0]: Invalid value: \"10.96.0.300\": ", kServiceBadIpMsg)},
      {"three cluster IPs",
       service_from(service_cluster_ip,
                    with_ips(R"(["10.96.0.10","fd00::10","10.96.0.11"])", R"(["IPv4","IPv6"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs: Invalid value: []string{\"10.96.0.10\", \"fd00::10\", \"10.96.0.11\"}: "
       "may only hold up to 2 values"},
      {"two IPv4 cluster IPs",
       service_from(service_cluster_ip, with_ips(R"(["10.96.0.10","10.96.0.11"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs: Invalid value: []string{\"10.96.0.10\", \"10.96.0.11\"}: may specify no "
       "more than one IP for each IP family"},
      {"IPv4 IP for IPv6 family",
       service_from(service_cluster_ip, with_ips(R"(["10.96.0.10"])", R"(["IPv6"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: \"10.96.0.10\": expected an IPv6 value as indicated by "
       "`ipFamilies[0]`"},
      {"IPv6 IP for IPv4 family",
       service_from(service_cluster_ip,
                    with_ips(R"(["10.96.0.10","fd00::10"])", R"(["IPv4","IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[1]: Invalid value: \"fd00::10\": expected an IPv4 value as indicated by "
       "`ipFamilies[1]`"},
      // externalIPs
      {"external IP malformed", service_from(service_cluster_ip, external_ip("1.2.3")),
       FieldErrorType::kInvalid,
       service_msg("spec.externalIPs[0]: Invalid value: \"1.2.3\": ", kServiceBadIpMsg)},
      {"external IP unspecified", service_from(service_cluster_ip, external_ip("0.0.0.0")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)"},
      {"external IPv6 unspecified", service_from(service_cluster_ip, external_ip("::")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"::\": may not be unspecified (::)"},
      {"external IP loopback", service_from(service_cluster_ip, external_ip("127.0.0.53")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"127.0.0.53\": may not be in the loopback range "
       "(127.0.0.0/8, ::1/128)"},
      {"external IPv6 loopback", service_from(service_cluster_ip, external_ip("::1")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"::1\": may not be in the loopback range "
       "(127.0.0.0/8, ::1/128)"},
      {"external IP link-local", service_from(service_cluster_ip, external_ip("169.254.169.254")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"169.254.169.254\": may not be in the link-local "
       "range (169.254.0.0/16, fe80::/10)"},
      {"external IPv6 link-local", service_from(service_cluster_ip, external_ip("fe80::1")),
       FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"fe80::1\": may not be in the link-local range "
       "(169.254.0.0/16, fe80::/10)"},
      {"external IP link-local multicast",
       service_from(service_cluster_ip, external_ip("224.0.0.251")), FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"224.0.0.251\": may not be in the link-local "
       "multicast range (224.0.0.0/24, ff02::/10)"},
      {"external IPv6 link-local multicast",
       service_from(service_cluster_ip, external_ip("ff02::fb")), FieldErrorType::kInvalid,
       "spec.externalIPs[0]: Invalid value: \"ff02::fb\": may not be in the link-local multicast "
       "range (224.0.0.0/24, ff02::/10)"},
      // type and ports by type
      {"no type", service_from(service_cluster_ip, set("type", R"("")")), FieldErrorType::kRequired,
       "spec.type: Required value"},
      {"type Ingress", service_from(service_cluster_ip, set("type", R"("Ingress")")),
       FieldErrorType::kNotSupported,
       "spec.type: Unsupported value: \"Ingress\": supported values: \"ClusterIP\", "
       "\"ExternalName\", \"LoadBalancer\", \"NodePort\""},
      {"ClusterIP with nodePort", service_from(service_cluster_ip, port0("nodePort", "30080")),
       FieldErrorType::kForbidden,
       "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"},
      {"nodePort repeated", service_from(service_node_port, two_ports(R"([
         {"name":"http","port":80,"protocol":"TCP","targetPort":80,"nodePort":30080},
         {"name":"https","port":443,"protocol":"TCP","targetPort":443,"nodePort":30080}])")),
       FieldErrorType::kDuplicate, "spec.ports[1].nodePort: Duplicate value: 30080"},
      {"port repeated", service_from(service_cluster_ip, two_ports(R"([
         {"name":"a","port":80,"protocol":"TCP","targetPort":8080},
         {"name":"b","port":80,"protocol":"TCP","targetPort":"web"}])")),
       FieldErrorType::kDuplicate,
       "spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", "
       "AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, "
       "StrVal:\"\"}, NodePort:0}"},
      // load balancer fields
      {"source ranges off LB",
       service_from(service_cluster_ip, set("loadBalancerSourceRanges", R"(["10.0.0.0/8"])")),
       FieldErrorType::kForbidden,
       "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"},
      {"source range malformed",
       service_from(service_load_balancer,
                    set("loadBalancerSourceRanges", R"(["10.0.0.0/8"," 10.0.0.0/33 "])")),
       FieldErrorType::kInvalid,
       service_msg("spec.LoadBalancerSourceRanges[1]: Invalid value: \"10.0.0.0/33\": ",
                   kServiceBadCidrMsg)},
      {"source-range annotation off LB",
       service_from(
           service_cluster_ip,
           annotate(R"({"service.beta.kubernetes.io/load-balancer-source-ranges":"10.0.0.0/8"})")),
       FieldErrorType::kForbidden,
       "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: "
       "may only be used when `type` is 'LoadBalancer'"},
      {"source-range annotation malformed",
       service_from(service_load_balancer,
                    annotate(R"({"service.beta.kubernetes.io/load-balancer-source-ranges":
                                 " 10.0.0.0/8, bogus "})")),
       FieldErrorType::kInvalid,
       service_msg("metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: "
                   "Invalid value: \"bogus\": ",
                   kServiceBadCidrMsg)},
      {"allocateLoadBalancerNodePorts off LB",
       service_from(service_node_port, set("allocateLoadBalancerNodePorts", "false")),
       FieldErrorType::kForbidden,
       "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is "
       "'LoadBalancer'"},
      {"LB without allocateLoadBalancerNodePorts",
       service_from(service_load_balancer, erase("allocateLoadBalancerNodePorts")),
       FieldErrorType::kRequired, "allocateLoadBalancerNodePorts: Required value"},
      {"loadBalancerClass malformed",
       service_from(service_load_balancer, set("loadBalancerClass", R"("-lb")")),
       FieldErrorType::kInvalid,
       service_msg("spec.loadBalancerClass: Invalid value: \"-lb\": ", kServiceQualifiedNameMsg)},
      {"loadBalancerClass off LB",
       service_from(service_node_port, set("loadBalancerClass", R"("example.com/lb")")),
       FieldErrorType::kForbidden,
       "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"},
      // traffic policies
      {"externalTrafficPolicy on internal ClusterIP",
       service_from(service_cluster_ip, set("externalTrafficPolicy", R"("Local")")),
       FieldErrorType::kInvalid,
       "spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set for "
       "externally-accessible services"},
      {"NodePort without externalTrafficPolicy",
       service_from(service_node_port, erase("externalTrafficPolicy")), FieldErrorType::kRequired,
       "spec.externalTrafficPolicy: Required value"},
      {"externalTrafficPolicy Remote",
       service_from(service_node_port, set("externalTrafficPolicy", R"("Remote")")),
       FieldErrorType::kNotSupported,
       "spec.externalTrafficPolicy: Unsupported value: \"Remote\": supported values: "
       "\"Cluster\", \"Local\""},
      {"LB Local without healthCheckNodePort",
       service_from(service_load_balancer, set("externalTrafficPolicy", R"("Local")")),
       FieldErrorType::kRequired, "spec.healthCheckNodePort: Required value"},
      {"healthCheckNodePort out of range",
       service_from(service_load_balancer,
                    [](json::object& s) {
                      service_spec(s)["externalTrafficPolicy"] = "Local";
                      service_spec(s)["healthCheckNodePort"] = 70000;
                    }),
       FieldErrorType::kInvalid,
       service_msg("spec.healthCheckNodePort: Invalid value: 70000: ", kServicePortRangeMsg)},
      {"healthCheckNodePort not needed",
       service_from(service_node_port,
                    [](json::object& s) {
                      service_spec(s)["externalTrafficPolicy"] = "Local";
                      service_spec(s)["healthCheckNodePort"] = 30100;
                    }),
       FieldErrorType::kInvalid,
       "spec.healthCheckNodePort: Invalid value: 30100: may only be set when `type` is "
       "'LoadBalancer' and `externalTrafficPolicy` is 'Local'"},
      {"no internalTrafficPolicy", service_from(service_cluster_ip, erase("internalTrafficPolicy")),
       FieldErrorType::kRequired, "spec.internalTrafficPolicy: Required value"},
      {"internalTrafficPolicy Node",
       service_from(service_cluster_ip, set("internalTrafficPolicy", R"("Node")")),
       FieldErrorType::kNotSupported,
       "spec.internalTrafficPolicy: Unsupported value: \"Node\": supported values: \"Cluster\", "
       "\"Local\""},
      {"internalTrafficPolicy empty",
       service_from(service_cluster_ip, set("internalTrafficPolicy", R"("")")),
       FieldErrorType::kNotSupported,
       "spec.internalTrafficPolicy: Unsupported value: \"\": supported values: \"Cluster\", "
       "\"Local\""},
      {"trafficDistribution PreferSameZone",
       service_from(service_cluster_ip, set("trafficDistribution", R"("PreferSameZone")")),
       FieldErrorType::kNotSupported,
       "spec.trafficDistribution: Unsupported value: \"PreferSameZone\": supported values: "
       "\"PreferClose\""},
  };
  service_expect(cases, validate_service);
}

TEST(ServiceValidation, InvalidClusterIPStopsTheFamilyChecks) {
  json::object s = service_cluster_ip();
  service_set_ips(s, R"(["10.96.0.10","bogus"])", R"(["IPv6","IPv4"])");
  service_spec(s)["ipFamilyPolicy"] = "RequireDualStack";
  const auto errs = validate_service(s);
  ASSERT_EQ(errs.size(), 1u) << messages(errs);
  EXPECT_EQ(errs[0].message(),
            service_msg("spec.clusterIPs[1]: Invalid value: \"bogus\": ", kServiceBadIpMsg));
}

TEST(ServiceValidation, HeadlessSkipsTheFamilyMatch) {
  json::object s = service_headless();
  service_spec(s)["ipFamilies"] = json::parse(R"(["IPv6"])");
  EXPECT_TRUE(validate_service(s).empty()) << messages(validate_service(s));
}

TEST(ServiceValidation, ExternalNameNeedsNoTrafficPolicyOrIPs) {
  // ExternalName is exempt from the internalTrafficPolicy requirement but
  // still validates a value that is set.
  json::object s = service_external_name();
  service_spec(s)["internalTrafficPolicy"] = "Node";
  const auto errs = validate_service(s);
  ASSERT_EQ(errs.size(), 1u) << messages(errs);
  EXPECT_EQ(errs[0].type, FieldErrorType::kNotSupported);
}

TEST(ServiceValidationUpdate, Errors) {
  const auto update_to = [](json::object (*base)(), std::function<void(json::object&)> old_mut,
                            std::function<void(json::object&)> new_mut) {
    return [=] {
      json::object old = base();
      old_mut(old);
      json::object now = old;
      new_mut(now);
      return std::make_pair(now, old);
    };
  };
  const auto none = [](json::object&) {};
  const auto ips = [](std::string_view list, std::string_view families,
                      std::string_view policy = "") {
    return [list = std::string(list), families = std::string(families),
            policy = std::string(policy)](json::object& s) {
      service_set_ips(s, list, families);
      if (!policy.empty()) service_spec(s)["ipFamilyPolicy"] = policy;
    };
  };
  const auto dual = ips(R"(["10.96.0.10","fd00::10"])", R"(["IPv4","IPv6"])", "PreferDualStack");
  struct UpdateCase {
    const char* name;
    std::function<std::pair<json::object, json::object>()> make;
    FieldErrorType type;
    std::string message;
  };
  const std::vector<UpdateCase> cases = {
      {"cluster IP changed",
       update_to(service_cluster_ip, none, ips(R"(["10.96.0.11"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.11\"}: may not change once set"},
      {"headless to allocated",
       update_to(service_headless, none, ips(R"(["10.96.0.10"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.10\"}: may not change once set"},
      {"primary cluster IP unset",
       update_to(service_cluster_ip, none,
                 [](json::object& s) {
                   service_spec(s).erase("clusterIPs");
                   service_spec(s)["clusterIP"] = "";
                 }),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: []string(nil): primary clusterIP can not be unset"},
      {"secondary IP released without SingleStack",
       update_to(service_cluster_ip, dual, ips(R"(["10.96.0.10"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' "
       "when releasing the secondary clusterIP"},
      {"secondary family released without SingleStack",
       update_to(service_cluster_ip, dual, ips(R"(["10.96.0.10"])", R"(["IPv4"])")),
       FieldErrorType::kInvalid,
       "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' "
       "when releasing the secondary ipFamily"},
      {"secondary IP released without a policy",
       update_to(service_cluster_ip, dual,
                 [](json::object& s) {
                   service_set_ips(s, R"(["10.96.0.10"])", R"(["IPv4","IPv6"])");
                   service_spec(s).erase("ipFamilyPolicy");
                 }),
       FieldErrorType::kInvalid,
       "spec.ipFamilyPolicy: Invalid value: \"null\": must be set to 'SingleStack' when "
       "releasing the secondary clusterIP"},
      {"primary changed while releasing",
       update_to(service_cluster_ip, dual, ips(R"(["10.96.0.11"])", R"(["IPv4"])", "SingleStack")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.11\"}: may not change once set"},
      {"primary changed while adding",
       update_to(service_cluster_ip, none,
                 ips(R"(["10.96.0.11","fd00::10"])", R"(["IPv4","IPv6"])", "PreferDualStack")),
       FieldErrorType::kInvalid,
       "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.11\", \"fd00::10\"}: may not "
       "change once set"},
      {"family changed",
       update_to(service_cluster_ip, none, ips(R"(["10.96.0.10"])", R"(["IPv6"])")),
       FieldErrorType::kInvalid,
       "spec.ipFamilies[0]: Invalid value: []core.IPFamily{\"IPv6\"}: may not change once set"},
      {"primary family changed while releasing",
       update_to(service_cluster_ip, dual, ips(R"(["10.96.0.10"])", R"(["IPv6"])", "SingleStack")),
       FieldErrorType::kInvalid,
       "spec.ipFamilies[0]: Invalid value: []string{\"10.96.0.10\"}: may not change once set"},
      {"primary family unset",
       update_to(service_cluster_ip, dual,
                 [](json::object& s) {
                   service_spec(s).erase("clusterIPs");
                   service_spec(s)["clusterIP"] = "";
                   service_spec(s)["ipFamilies"] = json::parse(R"(["IPv4"])");
                 }),
       FieldErrorType::kInvalid,
       "spec.ipFamilies[0]: Invalid value: []core.IPFamily{\"IPv4\"}: primary ipFamily can not "
       "be unset"},
      {"primary family changed while adding",
       update_to(service_cluster_ip, none,
                 ips(R"(["10.96.0.10"])", R"(["IPv6","IPv4"])", "PreferDualStack")),
       FieldErrorType::kInvalid,
       "spec.ipFamilies[0]: Invalid value: []string{\"10.96.0.10\"}: may not change once set"},
      {"loadBalancerClass changed",
       update_to(
           service_load_balancer,
           [](json::object& s) { service_spec(s)["loadBalancerClass"] = "example.com/a"; },
           [](json::object& s) { service_spec(s)["loadBalancerClass"] = "example.com/b"; }),
       FieldErrorType::kInvalid,
       "spec.loadBalancerClass: Invalid value: \"example.com/b\": may not change once set"},
      {"loadBalancerClass removed",
       update_to(
           service_load_balancer,
           [](json::object& s) { service_spec(s)["loadBalancerClass"] = "example.com/a"; },
           [](json::object& s) { service_spec(s).erase("loadBalancerClass"); }),
       FieldErrorType::kInvalid,
       "spec.loadBalancerClass: Invalid value: \"null\": may not change once set"},
      {"healthCheckNodePort changed",
       update_to(
           service_load_balancer,
           [](json::object& s) {
             service_spec(s)["externalTrafficPolicy"] = "Local";
             service_spec(s)["healthCheckNodePort"] = 31000;
           },
           [](json::object& s) { service_spec(s)["healthCheckNodePort"] = 31001; }),
       FieldErrorType::kForbidden, "spec.healthCheckNodePort: Forbidden: field is immutable"},
      {"create rules apply",
       update_to(service_cluster_ip, none, [](json::object& s) { service_spec(s).erase("ports"); }),
       FieldErrorType::kRequired, "spec.ports: Required value"},
  };
  for (const auto& c : cases) {
    const auto [now, old] = c.make();
    const auto errs = validate_service_update(now, old);
    const api::FieldError* e = service_find(errs, c.message);
    if (e == nullptr) {
      ADD_FAILURE() << c.name << ": want " << c.message << "\ngot:\n" << messages(errs);
      continue;
    }
    EXPECT_EQ(e->type, c.type) << c.name;
  }
}

TEST(ServiceValidationUpdate, AllowedChanges) {
  struct Allowed {
    const char* name;
    json::object old;
    json::object now;
  };
  std::vector<Allowed> allowed;
  allowed.push_back({"unchanged", service_load_balancer(), service_load_balancer()});
  allowed.push_back({"ClusterIP to ExternalName", service_cluster_ip(), service_external_name()});
  allowed.push_back({"ExternalName to ClusterIP", service_external_name(), service_cluster_ip()});
  allowed.push_back({"ClusterIP to NodePort", service_cluster_ip(), service_node_port()});
  allowed.push_back({"NodePort to ClusterIP", service_node_port(), service_cluster_ip()});
  json::object dual = service_cluster_ip();
  service_set_ips(dual, R"(["10.96.0.10","fd00::10"])", R"(["IPv4","IPv6"])");
  service_spec(dual)["ipFamilyPolicy"] = "PreferDualStack";
  allowed.push_back({"secondary added", service_cluster_ip(), dual});
  allowed.push_back({"secondary released with SingleStack", dual, service_cluster_ip()});
  json::object other_families = service_headless();
  service_spec(other_families)["ipFamilies"] = json::parse(R"(["IPv6","IPv4"])");
  service_spec(other_families)["ipFamilyPolicy"] = "RequireDualStack";
  allowed.push_back({"headless families change", service_headless(), other_families});
  json::object local = service_load_balancer();
  service_spec(local)["externalTrafficPolicy"] = "Local";
  service_spec(local)["healthCheckNodePort"] = 31000;
  allowed.push_back({"health check port first set", service_load_balancer(), local});
  json::object classed = service_load_balancer();
  service_spec(classed)["loadBalancerClass"] = "example.com/a";
  json::object node_port = service_node_port();
  allowed.push_back({"class dropped with the LB type", classed, node_port});
  for (const auto& a : allowed) {
    const auto errs = validate_service_update(a.now, a.old);
    EXPECT_TRUE(errs.empty()) << a.name << ":\n" << messages(errs);
  }
}

TEST(ServiceValidationUpdate, MetadataAndClassChecksRunTwiceAsUpstream) {
  // ValidateServiceUpdate runs ValidateObjectMetaUpdate and then
  // ValidateService, so these errors appear twice among the causes.
  json::object old = service_load_balancer();
  json::object now = old;
  now["metadata"].as_object()["finalizers"] = json::parse(R"(["custom"])");
  service_spec(now)["loadBalancerClass"] = "-lb";
  service_spec(old)["loadBalancerClass"] = "-lb";
  const auto errs = validate_service_update(now, old);
  EXPECT_EQ(service_count(errs,
                          "metadata.finalizers[0]: Invalid value: \"custom\": name is neither a "
                          "standard finalizer name nor is it fully qualified"),
            2u)
      << messages(errs);
  EXPECT_EQ(service_count(errs, service_msg("spec.loadBalancerClass: Invalid value: \"-lb\": ",
                                            kServiceQualifiedNameMsg)),
            2u)
      << messages(errs);
}

json::object service_with_ingress(json::object service, std::string_view ingress) {
  service["status"] =
      json::object{{"loadBalancer", json::object{{"ingress", json::parse(ingress)}}}};
  return service;
}

TEST(ServiceValidationStatus, LoadBalancerIngress) {
  const json::object old = service_load_balancer();
  const auto valid = service_with_ingress(service_load_balancer(), R"([
    {"ip":"192.0.2.10","ipMode":"VIP"},{"ip":"2001:db8::1","ipMode":"Proxy"},
    {"hostname":"lb.example.com"}])");
  EXPECT_TRUE(validate_service_status_update(valid, old).empty())
      << messages(validate_service_status_update(valid, old));
  EXPECT_TRUE(validate_service_status_update(service_cluster_ip(), service_cluster_ip()).empty());

  const std::vector<ServiceValidationCase> cases = {
      {"ingress off LB",
       [] {
         return service_with_ingress(service_node_port(),
                                     R"([{"ip":"192.0.2.10","ipMode":"VIP"}])");
       },
       FieldErrorType::kForbidden,
       "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is "
       "'LoadBalancer'"},
      {"bad ip",
       [] {
         return service_with_ingress(service_load_balancer(),
                                     R"([{"ip":"192.0.2.256","ipMode":"VIP"}])");
       },
       FieldErrorType::kInvalid,
       service_msg("status.loadBalancer.ingress[0].ip: Invalid value: \"192.0.2.256\": ",
                   kServiceBadIpMsg)},
      {"ip without ipMode",
       [] { return service_with_ingress(service_load_balancer(), R"([{"ip":"192.0.2.10"}])"); },
       FieldErrorType::kRequired,
       "status.loadBalancer.ingress[0].ipMode: Required value: must be specified when `ip` is "
       "set"},
      {"ipMode without ip",
       [] {
         return service_with_ingress(service_load_balancer(),
                                     R"([{"hostname":"lb.example.com","ipMode":"VIP"}])");
       },
       FieldErrorType::kForbidden,
       "status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not "
       "set"},
      {"ipMode Direct",
       [] {
         return service_with_ingress(service_load_balancer(),
                                     R"([{"ip":"192.0.2.10","ipMode":"Direct"}])");
       },
       FieldErrorType::kNotSupported,
       "status.loadBalancer.ingress[0].ipMode: Unsupported value: \"Direct\": supported values: "
       "\"Proxy\", \"VIP\""},
      {"hostname is an IP",
       [] {
         return service_with_ingress(service_load_balancer(), R"([{"hostname":"192.0.2.10"}])");
       },
       FieldErrorType::kInvalid,
       "status.loadBalancer.ingress[0].hostname: Invalid value: \"192.0.2.10\": must be a DNS "
       "name, not an IP address"},
      {"hostname upper case",
       [] {
         return service_with_ingress(service_load_balancer(), R"([{"hostname":"LB.example.com"}])");
       },
       FieldErrorType::kInvalid,
       service_msg("status.loadBalancer.ingress[0].hostname: Invalid value: \"LB.example.com\": ",
                   kServiceSubdomainMsg)},
  };
  service_expect(cases,
                 [&old](const json::object& s) { return validate_service_status_update(s, old); });
}

}  // namespace
}  // namespace kcm::local::registry
