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
#include "local/registry/service_ranges.h"

namespace kcm::local::registry {

std::shared_ptr<const Allocator> service_allocator(const ServiceRanges& ranges = {});

}  // namespace kcm::local::registry
