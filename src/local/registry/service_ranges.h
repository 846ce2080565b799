// The address ranges Services take from: kube-apiserver's
// --service-cluster-ip-range and --service-node-port-range (kcm-local serves
// single-stack IPv4 Services).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::local::registry {

struct ServiceRanges {
  // The network address and prefix length; kubeadm's 10.96.0.0/12 by default.
  std::uint32_t cluster_ip_base = (10u << 24) | (96u << 16);
  int cluster_ip_prefix = 12;
  int node_port_first = 30000;
  int node_port_last = 32767;

  // "10.96.0.0/12".
  std::string cluster_ip_range() const;
  // The range's first usable address, which the `kubernetes` Service takes.
  std::string first_cluster_ip() const;
};

// A dotted-quad IPv4 address (octets may have leading zeros, as Go's
// ParseIPSloppy allows), and back.
std::optional<std::uint32_t> parse_ipv4(std::string_view text);
std::string format_ipv4(std::uint32_t ip);

// The flags' values: an IPv4 CIDR with a mask of 12 to 30 bits (host bits
// are dropped, as Go's ParseCIDR does), and "first-last" or "base+size" ports
// (utilnet.ParsePortRange's forms). Errors name the flag.
Result<ServiceRanges> parse_service_ranges(std::string_view cluster_ip_range,
                                           std::string_view node_port_range);

}  // namespace kcm::local::registry
