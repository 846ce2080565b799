// Resource name classes of upstream's core helper package (cpu, memory,
// hugepages-<size>, extended resources such as example.com/gpu).
#pragma once

#include <string_view>

namespace kcm::local::registry {

bool is_huge_page_resource(std::string_view name);
// Unprefixed names and *kubernetes.io/ names.
bool is_native_resource(std::string_view name);
bool is_extended_resource(std::string_view name);
// Native and not hugepages: requests may be below limits.
bool is_overcommit_allowed(std::string_view name);
// Counted in whole units (pods, services, extended resources, ...).
bool is_integer_resource(std::string_view name);
// cpu, memory, ephemeral-storage and hugepages-*.
bool is_standard_container_resource(std::string_view name);
// Any resource name the system knows unprefixed (also quota names).
bool is_standard_resource(std::string_view name);
// cpu and memory: the resources pod-level resources and QoS consider.
bool is_qos_compute_resource(std::string_view name);

}  // namespace kcm::local::registry
