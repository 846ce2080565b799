// A Service's cluster IP, node ports and health-check node port, allocated as
// upstream's service REST storage does (pkg/registry/core/service/storage)
// for a single-stack IPv4 cluster: IP family fields, static requests
// checked against the range and what is in use, dynamic picks from the
// upper part of each range first (KEP-3070), node ports shared by ports of
// the same number, and the values an update may leave out carried over.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "local/registry/allocator.h"

namespace kcm::local::registry {

struct ServiceRanges {
  // --service-cluster-ip-range (kubeadm's default; IPv4 only).
  std::uint32_t cluster_ip_base = (10u << 24) | (96u << 16);
  int cluster_ip_prefix = 12;
  // --service-node-port-range.
  int node_port_first = 30000;
  int node_port_last = 32767;

  // "10.96.0.0/12".
  std::string cluster_ip_range() const;
  // The range's first usable address, which the `kubernetes` Service takes.
  std::string first_cluster_ip() const;
};

std::shared_ptr<const Allocator> service_allocator(const ServiceRanges& ranges = {});

}  // namespace kcm::local::registry
