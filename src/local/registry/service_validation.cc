#include "local/registry/service_validation.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/service_spec.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

constexpr std::string_view kServiceTopologyHintsKey = "service.kubernetes.io/topology-aware-hints";
constexpr std::string_view kServiceTopologyModeKey = "service.kubernetes.io/topology-mode";
constexpr std::string_view kServiceSourceRangesKey =
    "service.beta.kubernetes.io/load-balancer-source-ranges";
constexpr std::string_view kServiceLoadBalancerOnly =
    "may only be used when `type` is 'LoadBalancer'";
constexpr std::string_view kServiceNotForExternalName = "may not be set for ExternalName services";
constexpr std::string_view kServiceMayNotChange = "may not change once set";
constexpr std::int64_t kServiceMaxAffinitySeconds = 86400;

// A Go pointer field as field.Error prints it: a nil pointer reads "null"
// (quoted, as the string it is replaced by), otherwise the pointed-to value.
json::value service_bad_value(const json::value* v) {
  return v == nullptr ? json::value("null") : *v;
}

std::vector<std::string> service_cluster_ips(const json::object& spec) {
  return strings_of(array_member(spec, "clusterIPs"));
}

// isHeadlessService: the allocated list is exactly ["None"].
bool service_is_headless(const json::object& spec) {
  const auto ips = service_cluster_ips(spec);
  return ips.size() == 1 && ips[0] == "None";
}

// []core.IPFamily{"IPv4"}: the internal type of spec.ipFamilies.
std::string service_go_families(const json::array* families) {
  return "[]core.IPFamily" + go_string_slice(families).substr(std::string_view("[]string").size());
}

// The 16-byte form Go keeps an IP in (IPv4 as ::ffff:a.b.c.d), from a value
// parse_ip_sloppy accepts.
bool service_ip_bytes(std::string_view text, std::array<std::uint8_t, 16>& out) {
  bool v6 = false;
  if (!parse_ip_sloppy(text, &v6)) return false;
  out.fill(0);
  if (v6) {
    const std::string s(text);
    return ::inet_pton(AF_INET6, s.c_str(), out.data()) == 1;
  }
  out[10] = out[11] = 0xff;
  std::size_t octet = 12;
  for (char c : text) {
    if (c == '.') {
      ++octet;
    } else {
      out[octet] = static_cast<std::uint8_t>(out[octet] * 10 + (c - '0'));
    }
  }
  return true;
}

bool service_bytes_are_v4(const std::array<std::uint8_t, 16>& ip) {
  return std::all_of(ip.begin(), ip.begin() + 10, [](std::uint8_t b) { return b == 0; }) &&
         ip[10] == 0xff && ip[11] == 0xff;
}

// netutils.IsIPv6String: an IP that has no IPv4 form (IPv4-mapped IPv6
// addresses count as IPv4, as in Go).
bool service_is_ipv6_string(std::string_view text) {
  std::array<std::uint8_t, 16> ip{};
  return service_ip_bytes(text, ip) && !service_bytes_are_v4(ip);
}

// ValidateNonSpecialIP, for a value that already parsed as an IP.
void service_check_non_special_ip(std::string_view text, const std::string& field, Errs& errs) {
  std::array<std::uint8_t, 16> ip{};
  if (!service_ip_bytes(text, ip)) return;
  const bool v4 = service_bytes_are_v4(ip);
  const auto zero_from = [&](std::size_t from, std::size_t to) {
    return std::all_of(ip.begin() + from, ip.begin() + to, [](std::uint8_t b) { return b == 0; });
  };
  const auto add = [&](std::string msg) {
    errs.push_back(api::invalid(field, json::value(text), std::move(msg)));
  };
  if (v4 ? zero_from(12, 16) : zero_from(0, 16)) {
    add(fmt::format("may not be unspecified ({})", text));
  }
  if (v4 ? ip[12] == 127 : (zero_from(0, 15) && ip[15] == 1)) {
    add("may not be in the loopback range (127.0.0.0/8, ::1/128)");
  }
  if (v4 ? (ip[12] == 169 && ip[13] == 254) : (ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80)) {
    add("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
  }
  if (v4 ? (ip[12] == 224 && ip[13] == 0 && ip[14] == 0)
         : (ip[0] == 0xff && (ip[1] & 0x0f) == 0x02)) {
    add("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
  }
}

// Go's strings.TrimSpace for the ASCII spaces (a CIDR has no other characters).
std::string_view service_trim_space(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const std::size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

// validateServicePort.
void service_check_port(const json::object& port, bool require_name, std::set<std::string>& names,
                        const std::string& path, Errs& errs) {
  const std::string name(string_member(port, "name"));
  const std::string name_path = path_of(path, "name");
  if (require_name && name.empty()) {
    errs.push_back(api::required(name_path));
  } else if (!name.empty()) {
    validate_dns1123_label(name, name_path, errs);
    if (!names.insert(name).second) errs.push_back(api::duplicate(name_path, json::value(name)));
  }
  const std::int64_t number = int_member(port, "port").value_or(0);
  for (const auto& msg : is_valid_port_num(number)) {
    errs.push_back(api::invalid(path_of(path, "port"), json::value(number), msg));
  }
  validate_port_protocol(string_member(port, "protocol"), path_of(path, "protocol"), errs);
  // Headless services get no extra targetPort check: v1 always tolerated any there.
  validate_port_num_or_name(port, "targetPort", path_of(path, "targetPort"), errs);
  if (const json::value* app = member(port, "appProtocol")) {
    validate_qualified_name(api::as_string_view(app), path_of(path, "appProtocol"), errs);
  }
}

void service_check_session_affinity(const json::object& spec, Errs& errs) {
  const std::string_view affinity = string_member(spec, "sessionAffinity");
  if (affinity.empty()) {
    errs.push_back(api::required("spec.sessionAffinity"));
  } else if (affinity != "ClientIP" && affinity != "None") {
    errs.push_back(
        api::not_supported("spec.sessionAffinity", json::value(affinity), {"ClientIP", "None"}));
  }
  const json::value* config = member(spec, "sessionAffinityConfig");
  if (affinity == "None") {
    if (config != nullptr) {
      errs.push_back(api::forbidden("spec.sessionAffinityConfig",
                                    "must not be set when session affinity is None"));
    }
    return;
  }
  if (affinity != "ClientIP") return;
  // validateClientIPAffinityConfig: the first missing level is reported.
  const std::string detail = "when session affinity type is ClientIP";
  if (config == nullptr) {
    errs.push_back(api::required("spec.sessionAffinityConfig", detail));
    return;
  }
  const json::object* client = object_member(object_or_empty(*config), "clientIP");
  if (client == nullptr) {
    errs.push_back(api::required("spec.sessionAffinityConfig.clientIP", detail));
    return;
  }
  const std::string timeout_path = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";
  const auto timeout = int_member(*client, "timeoutSeconds");
  if (!timeout) {
    errs.push_back(api::required(timeout_path, detail));
    return;
  }
  if (*timeout <= 0 || *timeout > kServiceMaxAffinitySeconds) {
    errs.push_back(api::invalid(
        timeout_path, json::value(*timeout),
        fmt::format("must be greater than 0 and less than {}", kServiceMaxAffinitySeconds)));
  }
}

// validateLoadBalancerClassField; `old` is null on create.
void service_check_load_balancer_class(const json::object* old, const json::object& spec,
                                       Errs& errs) {
  const json::value* cls = member(spec, "loadBalancerClass");
  const bool lb = string_member(spec, "type") == "LoadBalancer";
  if (old != nullptr && lb && string_member(*old, "type") == "LoadBalancer") {
    const json::value* before = member(*old, "loadBalancerClass");
    const bool same = (cls == nullptr || before == nullptr) ? cls == before : *cls == *before;
    if (!same) {
      errs.push_back(api::invalid("spec.loadBalancerClass", service_bad_value(cls),
                                  std::string(kServiceMayNotChange)));
    }
  }
  if (cls == nullptr) return;
  if (lb) {
    validate_qualified_name(api::as_string_view(cls), "spec.loadBalancerClass", errs);
  } else {
    errs.push_back(api::forbidden("spec.loadBalancerClass", std::string(kServiceLoadBalancerOnly)));
  }
}

// validateServiceExternalTrafficPolicy, validateServiceInternalTrafficFieldsValue
// and validateServiceTrafficDistribution.
void service_check_traffic_fields(const json::object& spec, Errs& errs) {
  const std::string_view etp = string_member(spec, "externalTrafficPolicy");
  if (!service_externally_accessible(spec)) {
    if (!etp.empty()) {
      errs.push_back(api::invalid("spec.externalTrafficPolicy", json::value(etp),
                                  "may only be set for externally-accessible services"));
    }
  } else if (etp.empty()) {
    errs.push_back(api::required("spec.externalTrafficPolicy"));
  } else if (etp != "Cluster" && etp != "Local") {
    errs.push_back(
        api::not_supported("spec.externalTrafficPolicy", json::value(etp), {"Cluster", "Local"}));
  }

  const std::int64_t hc = int_member(spec, "healthCheckNodePort").value_or(0);
  if (!service_needs_health_check_port(spec)) {
    if (hc != 0) {
      errs.push_back(api::invalid("spec.healthCheckNodePort", json::value(hc),
                                  "may only be set when `type` is 'LoadBalancer' and "
                                  "`externalTrafficPolicy` is 'Local'"));
    }
  } else if (hc == 0) {
    errs.push_back(api::required("spec.healthCheckNodePort"));
  } else {
    for (const auto& msg : is_valid_port_num(hc)) {
      errs.push_back(api::invalid("spec.healthCheckNodePort", json::value(hc), msg));
    }
  }

  const std::string_view type = string_member(spec, "type");
  const json::value* itp = member(spec, "internalTrafficPolicy");
  if (itp == nullptr) {
    // ExternalName is spared for objects stored before the field existed.
    if (type == "ClusterIP" || type == "NodePort" || type == "LoadBalancer") {
      errs.push_back(api::required("spec.internalTrafficPolicy"));
    }
  } else if (const std::string_view v = api::as_string_view(itp); v != "Cluster" && v != "Local") {
    errs.push_back(api::not_supported("spec.internalTrafficPolicy", *itp, {"Cluster", "Local"}));
  }

  // PreferSameZone/PreferSameNode need an alpha gate that is off.
  if (const json::value* td = member(spec, "trafficDistribution");
      td != nullptr && api::as_string_view(td) != "PreferClose") {
    errs.push_back(api::not_supported("spec.trafficDistribution", *td, {"PreferClose"}));
  }
}

void service_check_source_ranges(const json::object& service, const json::object& spec, bool lb,
                                 Errs& errs) {
  const auto ranges = strings_of(array_member(spec, "loadBalancerSourceRanges"));
  if (!ranges.empty()) {
    // Upstream's path keeps the Go field name.
    const std::string path = "spec.LoadBalancerSourceRanges";
    if (!lb) errs.push_back(api::forbidden(path, std::string(kServiceLoadBalancerOnly)));
    // Space padding is tolerated: the values once came from the annotation.
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      validate_cidr(service_trim_space(ranges[i]), api::index(path, i), errs);
    }
    return;
  }
  // The annotation the field replaced, a comma-separated list.
  const json::object& annotations =
      member_or_empty(member_or_empty(service, "metadata"), "annotations");
  if (!annotations.contains(kServiceSourceRangesKey)) return;
  const std::string path = api::key("metadata.annotations", kServiceSourceRangesKey);
  if (!lb) errs.push_back(api::forbidden(path, std::string(kServiceLoadBalancerOnly)));
  const std::string_view value =
      service_trim_space(string_member(annotations, kServiceSourceRangesKey));
  if (value.empty()) return;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string_view item =
        value.substr(start, comma == std::string_view::npos ? comma : comma - start);
    validate_cidr(service_trim_space(item), path, errs);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

// core.ServicePort{...} with only Protocol and Port set: the key upstream
// reports a repeated (protocol, port) pair with.
std::string service_go_port_key(std::string_view protocol, std::int64_t port) {
  return fmt::format(
      "core.ServicePort{{Name:\"\", Protocol:{}, AppProtocol:(*string)(nil), Port:{}, "
      "TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}",
      api::go_quote(protocol), port);
}

void service_check_ports(const json::object& spec, Errs& errs) {
  const json::array* ports = array_member(spec, "ports");
  if (ports == nullptr) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    service_check_port(object_or_empty((*ports)[i]), ports->size() > 1, names,
                       api::index("spec.ports", i), errs);
  }
}

void service_check_port_uniqueness(const json::object& spec, Errs& errs) {
  const json::array* ports = array_member(spec, "ports");
  if (ports == nullptr) return;
  if (string_member(spec, "type") == "ClusterIP") {
    for (std::size_t i = 0; i < ports->size(); ++i) {
      if (int_member(object_or_empty((*ports)[i]), "nodePort").value_or(0) != 0) {
        errs.push_back(api::forbidden(path_of(api::index("spec.ports", i), "nodePort"),
                                      "may not be used when `type` is 'ClusterIP'"));
      }
    }
  }
  std::set<std::pair<std::string, std::int64_t>> node_ports;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    const json::object& port = object_or_empty((*ports)[i]);
    const std::int64_t node_port = int_member(port, "nodePort").value_or(0);
    if (node_port == 0) continue;
    if (!node_ports.emplace(std::string(string_member(port, "protocol")), node_port).second) {
      errs.push_back(
          api::duplicate(path_of(api::index("spec.ports", i), "nodePort"), json::value(node_port)));
    }
  }
  std::set<std::pair<std::string, std::int64_t>> numbers;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    const json::object& port = object_or_empty((*ports)[i]);
    const std::string_view protocol = string_member(port, "protocol");
    const std::int64_t number = int_member(port, "port").value_or(0);
    if (!numbers.emplace(std::string(protocol), number).second) {
      errs.push_back({api::FieldErrorType::kDuplicate, api::index("spec.ports", i), std::nullopt,
                      service_go_port_key(protocol, number)});
    }
  }
}

// validateUpgradeDowngradeClusterIPs: only the secondary IP may come or go.
void service_check_cluster_ips_update(const json::object& spec, const json::object& old,
                                      Errs& errs) {
  if (string_member(spec, "type") == "ExternalName" ||
      string_member(old, "type") == "ExternalName") {
    return;
  }
  if (service_is_headless(spec) && service_is_headless(old)) return;
  const json::array* raw = array_member(spec, "clusterIPs");
  const auto ips = strings_of(raw);
  const auto before = service_cluster_ips(old);
  const std::string list = go_string_slice(raw);
  const std::string first = "spec.clusterIPs[0]";
  if (before.size() == ips.size()) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] != ips[i]) {
        errs.push_back(
            invalid_go(api::index("spec.clusterIPs", i), list, std::string(kServiceMayNotChange)));
      }
    }
  } else if (before.size() > ips.size()) {
    if (ips.empty()) {
      errs.push_back(invalid_go(first, list, "primary clusterIP can not be unset"));
    } else if (ips[0] != before[0]) {
      errs.push_back(invalid_go(first, list, std::string(kServiceMayNotChange)));
    }
    const json::value* policy = member(spec, "ipFamilyPolicy");
    if (ips.size() == 1 && api::as_string_view(policy) != "SingleStack") {
      errs.push_back(
          api::invalid("spec.ipFamilyPolicy", service_bad_value(policy),
                       "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (!before.empty() && ips[0] != before[0]) {
    errs.push_back(invalid_go(first, list, std::string(kServiceMayNotChange)));
  }
}

// validateUpgradeDowngradeIPFamilies. Upstream reports every change on
// ipFamilies[0], and a changed primary with the clusterIPs list as value.
void service_check_families_update(const json::object& spec, const json::object& old, Errs& errs) {
  if (string_member(spec, "type") == "ExternalName" ||
      string_member(old, "type") == "ExternalName") {
    return;
  }
  const bool headless = service_is_headless(spec);
  if (headless != service_is_headless(old) || headless) return;
  const json::array* raw = array_member(spec, "ipFamilies");
  const auto families = strings_of(raw);
  const auto before = strings_of(array_member(old, "ipFamilies"));
  const std::string ips = go_string_slice(array_member(spec, "clusterIPs"));
  const std::string first = "spec.ipFamilies[0]";
  if (before.size() == families.size()) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] != families[i]) {
        errs.push_back(
            invalid_go(first, service_go_families(raw), std::string(kServiceMayNotChange)));
      }
    }
  } else if (before.size() > families.size()) {
    if (service_cluster_ips(spec).empty()) {
      errs.push_back(
          invalid_go(first, service_go_families(raw), "primary ipFamily can not be unset"));
    }
    if (!families.empty() && families[0] != before[0]) {
      errs.push_back(invalid_go(first, ips, std::string(kServiceMayNotChange)));
    }
    const json::value* policy = member(spec, "ipFamilyPolicy");
    if (families.size() == 1 && api::as_string_view(policy) != "SingleStack") {
      errs.push_back(
          api::invalid("spec.ipFamilyPolicy", service_bad_value(policy),
                       "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (!before.empty() && families[0] != before[0]) {
    errs.push_back(invalid_go(first, ips, std::string(kServiceMayNotChange)));
  }
}

}  // namespace

api::FieldErrors validate_service_cluster_ips(const json::object& spec) {
  Errs errs;
  if (string_member(spec, "type") == "ExternalName") return errs;
  const json::array* ips_raw = array_member(spec, "clusterIPs");
  const auto ips = strings_of(ips_raw);
  const std::string list = go_string_slice(ips_raw);
  const std::string_view cluster_ip = string_member(spec, "clusterIP");
  if (!cluster_ip.empty()) {
    if (ips.empty()) {
      errs.push_back(api::required("spec.clusterIPs"));
    } else if (ips[0] != cluster_ip) {
      errs.push_back(invalid_go("spec.clusterIPs", list, "first value must match `clusterIP`"));
    }
  } else if (!ips.empty()) {
    errs.push_back(
        invalid_go("spec.clusterIPs", list, "must be empty when `clusterIP` is not specified"));
  }

  const auto families = strings_of(array_member(spec, "ipFamilies"));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < families.size(); ++i) {
    const std::string path = api::index("spec.ipFamilies", i);
    if (families[i] != "IPv4" && families[i] != "IPv6") {
      errs.push_back(api::not_supported(path, json::value(families[i]), {"IPv4", "IPv6"}));
    }
    if (!seen.insert(families[i]).second) {
      errs.push_back(api::duplicate(path, json::value(families[i])));
    }
  }

  if (const json::value* policy = member(spec, "ipFamilyPolicy")) {
    const std::string_view p = api::as_string_view(policy);
    if (p != "PreferDualStack" && p != "RequireDualStack" && p != "SingleStack") {
      errs.push_back(api::not_supported("spec.ipFamilyPolicy", *policy,
                                        {"PreferDualStack", "RequireDualStack", "SingleStack"}));
    }
  }

  bool invalid_ips = false;
  for (std::size_t i = 0; i < ips.size(); ++i) {
    if (i == 0 && ips[i] == "None") {
      if (ips.size() > 1) {
        invalid_ips = true;
        errs.push_back(
            invalid_go("spec.clusterIPs", list, "'None' must be the first and only value"));
      }
      continue;
    }
    const std::size_t before = errs.size();
    validate_ip(ips[i], api::index("spec.clusterIPs", i), errs);
    invalid_ips = invalid_ips || errs.size() != before;
  }
  if (ips.size() > 2) {
    errs.push_back(invalid_go("spec.clusterIPs", list, "may only hold up to 2 values"));
  }
  // Family checks on bad IPs would only repeat the problem.
  if (invalid_ips) return errs;

  if (ips.size() > 1) {
    bool v4 = false, v6 = false;
    for (const auto& ip : ips)
      (service_is_ipv6_string(ip) ? v6 : v4) = true;
    if (!(v4 && v6)) {
      errs.push_back(invalid_go("spec.clusterIPs", list,
                                "may specify no more than one IP for each IP family"));
    }
  }
  if (service_is_headless(spec)) return errs;
  for (std::size_t i = 0; i < std::min(ips.size(), families.size()); ++i) {
    const bool v6 = service_is_ipv6_string(ips[i]);
    std::string_view expected;
    if (families[i] == "IPv4" && v6) expected = "IPv4";
    if (families[i] == "IPv6" && !v6) expected = "IPv6";
    if (expected.empty()) continue;
    errs.push_back(api::invalid(
        api::index("spec.clusterIPs", i), json::value(ips[i]),
        fmt::format("expected an {} value as indicated by `ipFamilies[{}]`", expected, i)));
  }
  return errs;
}

api::FieldErrors validate_service(const json::object& service) {
  Errs errs;
  // Core's ValidateObjectMeta adds this to the generic metadata rules.
  validate_kube_finalizer_names(service, errs);
  const json::object& annotations =
      member_or_empty(member_or_empty(service, "metadata"), "annotations");
  if (annotations.contains(kServiceTopologyHintsKey) &&
      annotations.contains(kServiceTopologyModeKey)) {
    const std::string_view mode = string_member(annotations, kServiceTopologyModeKey);
    if (mode != string_member(annotations, kServiceTopologyHintsKey)) {
      errs.push_back(api::invalid(api::key("metadata.annotations", kServiceTopologyModeKey),
                                  json::value(mode),
                                  fmt::format("must match annotations[{}] when both are specified",
                                              kServiceTopologyHintsKey)));
    }
  }

  const json::object& spec = member_or_empty(service, "spec");
  const std::string_view type = string_member(spec, "type");
  const bool headless = service_is_headless(spec);
  const json::array* ports = array_member(spec, "ports");
  if ((ports == nullptr || ports->empty()) && !headless && type != "ExternalName") {
    errs.push_back(api::required("spec.ports"));
  }
  if ((type == "LoadBalancer" || type == "NodePort") && headless) {
    errs.push_back(api::invalid("spec.clusterIPs[0]", json::value("None"),
                                fmt::format("may not be set to 'None' for {} services", type)));
  } else if (type == "ExternalName") {
    if (!service_cluster_ips(spec).empty()) {
      errs.push_back(api::forbidden("spec.clusterIPs", std::string(kServiceNotForExternalName)));
    }
    if (const json::array* f = array_member(spec, "ipFamilies"); f != nullptr && !f->empty()) {
      errs.push_back(api::forbidden("spec.ipFamilies", std::string(kServiceNotForExternalName)));
    }
    if (has(spec, "ipFamilyPolicy")) {
      errs.push_back(
          api::forbidden("spec.ipFamilyPolicy", std::string(kServiceNotForExternalName)));
    }
    // One trailing dot marks a fully qualified name.
    std::string_view cname = string_member(spec, "externalName");
    if (cname.ends_with('.')) cname.remove_suffix(1);
    if (cname.empty()) {
      errs.push_back(api::required("spec.externalName"));
    } else {
      validate_dns1123_subdomain(cname, "spec.externalName", errs);
    }
  }

  service_check_ports(spec, errs);
  if (const json::object* selector = object_member(spec, "selector")) {
    append(errs, api::validate_labels(*selector, "spec.selector"));
  }
  service_check_session_affinity(spec, errs);
  append(errs, validate_service_cluster_ips(spec));

  const auto external_ips = strings_of(array_member(spec, "externalIPs"));
  for (std::size_t i = 0; i < external_ips.size(); ++i) {
    const std::string path = api::index("spec.externalIPs", i);
    const std::size_t before = errs.size();
    validate_ip(external_ips[i], path, errs);
    if (errs.size() == before) service_check_non_special_ip(external_ips[i], path, errs);
  }

  if (type.empty()) {
    errs.push_back(api::required("spec.type"));
  } else if (type != "ClusterIP" && type != "ExternalName" && type != "LoadBalancer" &&
             type != "NodePort") {
    errs.push_back(api::not_supported("spec.type", json::value(type),
                                      {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}));
  }
  service_check_port_uniqueness(spec, errs);

  const bool lb = type == "LoadBalancer";
  service_check_source_ranges(service, spec, lb, errs);
  const bool allocate_set = has(spec, "allocateLoadBalancerNodePorts");
  if (allocate_set && !lb) {
    errs.push_back(api::forbidden("spec.allocateLoadBalancerNodePorts",
                                  std::string(kServiceLoadBalancerOnly)));
  }
  if (lb && !allocate_set) {
    // Upstream's path lacks the "spec." (defaulting makes this unreachable).
    errs.push_back(api::required("allocateLoadBalancerNodePorts"));
  }
  service_check_load_balancer_class(nullptr, spec, errs);
  service_check_traffic_fields(spec, errs);
  return errs;
}

api::FieldErrors validate_service_update(const json::object& service, const json::object& old) {
  Errs errs;
  // Core's ValidateObjectMetaUpdate checks finalizers, and validate_service
  // checks them again, as upstream does: such errors appear twice.
  validate_kube_finalizer_names(service, errs);
  const json::object& spec = member_or_empty(service, "spec");
  const json::object& old_spec = member_or_empty(old, "spec");
  service_check_cluster_ips_update(spec, old_spec, errs);
  service_check_families_update(spec, old_spec, errs);
  // The class's format is checked here and again by validate_service.
  service_check_load_balancer_class(&old_spec, spec, errs);
  if (service_needs_health_check_port(old_spec) && service_needs_health_check_port(spec) &&
      int_member(spec, "healthCheckNodePort").value_or(0) !=
          int_member(old_spec, "healthCheckNodePort").value_or(0)) {
    errs.push_back(
        api::forbidden("spec.healthCheckNodePort", std::string(kFieldImmutableErrorMsg)));
  }
  append(errs, validate_service(service));
  return errs;
}

api::FieldErrors validate_service_status_update(const json::object& service, const json::object&) {
  Errs errs;
  validate_kube_finalizer_names(service, errs);
  const json::array* ingress =
      array_member(member_or_empty(member_or_empty(service, "status"), "loadBalancer"), "ingress");
  if (ingress == nullptr || ingress->empty()) return errs;
  const std::string path = "status.loadBalancer.ingress";
  // Off-LB status needs the deprecated AllowServiceLBStatusOnNonLB gate.
  if (string_member(member_or_empty(service, "spec"), "type") != "LoadBalancer") {
    errs.push_back(api::forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'"));
    return errs;
  }
  for (std::size_t i = 0; i < ingress->size(); ++i) {
    const json::object& entry = object_or_empty((*ingress)[i]);
    const std::string idx = api::index(path, i);
    const std::string_view ip = string_member(entry, "ip");
    if (!ip.empty()) validate_ip(ip, path_of(idx, "ip"), errs);
    const json::value* mode = member(entry, "ipMode");
    const std::string mode_path = path_of(idx, "ipMode");
    if (mode == nullptr) {
      if (!ip.empty())
        errs.push_back(api::required(mode_path, "must be specified when `ip` is set"));
    } else if (ip.empty()) {
      errs.push_back(api::forbidden(mode_path, "may not be specified when `ip` is not set"));
    } else if (const std::string_view m = api::as_string_view(mode); m != "Proxy" && m != "VIP") {
      errs.push_back(api::not_supported(mode_path, *mode, {"Proxy", "VIP"}));
    }
    const std::string_view hostname = string_member(entry, "hostname");
    if (hostname.empty()) continue;
    const std::string host_path = path_of(idx, "hostname");
    validate_dns1123_subdomain(hostname, host_path, errs);
    if (parse_ip_sloppy(hostname)) {
      errs.push_back(
          api::invalid(host_path, json::value(hostname), "must be a DNS name, not an IP address"));
    }
  }
  return errs;
}

}  // namespace kcm::local::registry
