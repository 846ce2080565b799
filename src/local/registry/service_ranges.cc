#include "local/registry/service_ranges.h"

#include <fmt/format.h>

#include <charconv>

namespace kcm::local::registry {

std::optional<std::uint32_t> parse_ipv4(std::string_view text) {
  std::uint32_t out = 0;
  int parts = 0;
  std::size_t i = 0;
  while (parts < 4) {
    std::size_t digits = 0;
    std::uint32_t octet = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 3) {
      octet = octet * 10 + static_cast<std::uint32_t>(text[i] - '0');
      ++i;
      ++digits;
    }
    if (digits == 0 || octet > 255) return std::nullopt;
    out = (out << 8) | octet;
    if (++parts < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != text.size()) return std::nullopt;
  return out;
}

std::string format_ipv4(std::uint32_t ip) {
  return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

std::string ServiceRanges::cluster_ip_range() const {
  return fmt::format("{}/{}", format_ipv4(cluster_ip_base), cluster_ip_prefix);
}

std::string ServiceRanges::first_cluster_ip() const {
  return format_ipv4(cluster_ip_base + 1);
}

namespace {

std::optional<int> ranges_number(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<ServiceRanges> parse_service_ranges(std::string_view cluster_ip_range,
                                           std::string_view node_port_range) {
  ServiceRanges out;
  const auto slash = cluster_ip_range.find('/');
  const auto address = parse_ipv4(cluster_ip_range.substr(0, slash));
  int prefix = -1;  // none
  if (slash != std::string_view::npos) {
    prefix = ranges_number(cluster_ip_range.substr(slash + 1)).value_or(-1);
  }
  if (cluster_ip_range.find(':') != std::string_view::npos ||
      cluster_ip_range.find(',') != std::string_view::npos) {
    return fail(
        fmt::format("--service-cluster-ip-range {}: kcm-local serves single-stack IPv4 "
                    "Services only (one IPv4 CIDR, e.g. 10.96.0.0/12)",
                    cluster_ip_range));
  }
  if (!address || prefix < 0 || prefix > 32) {
    return fail(fmt::format("--service-cluster-ip-range {}: not an IPv4 CIDR (e.g. 10.96.0.0/12)",
                            cluster_ip_range));
  }
  // kube-apiserver's own limit: at most 2^20 addresses.
  if (prefix < 12) {
    return fail(
        fmt::format("--service-cluster-ip-range {}: too large; for 32-bit addresses, the "
                    "mask must be >= 12",
                    cluster_ip_range));
  }
  // Two usable addresses at least: one for the `kubernetes` Service, one more.
  if (prefix > 30) {
    return fail(fmt::format("--service-cluster-ip-range {}: too small; the mask must be <= 30",
                            cluster_ip_range));
  }
  out.cluster_ip_prefix = prefix;
  out.cluster_ip_base = *address & ~((std::uint32_t{1} << (32 - prefix)) - 1);

  const auto dash = node_port_range.find('-');
  const auto plus = node_port_range.find('+');
  const auto split = dash != std::string_view::npos ? dash : plus;
  const auto first = split == std::string_view::npos
                         ? std::nullopt
                         : ranges_number(node_port_range.substr(0, split));
  const auto second = split == std::string_view::npos
                          ? std::nullopt
                          : ranges_number(node_port_range.substr(split + 1));
  if (!first || !second) {
    return fail(fmt::format(
        "--service-node-port-range {}: not a port range (e.g. 30000-32767 or 30000+2767)",
        node_port_range));
  }
  const int last = dash != std::string_view::npos ? *second : *first + *second;
  if (*first < 1 || last > 65535 || last < *first) {
    return fail(
        fmt::format("--service-node-port-range {}: the ports must run upwards within 1-65535",
                    node_port_range));
  }
  out.node_port_first = *first;
  out.node_port_last = last;
  return out;
}

}  // namespace kcm::local::registry
