#include <algorithm>

#include "app/controller_descriptor.h"

namespace kcm::app {

// Each is defined in controllers/<name>.cc (upstream's new<X>ControllerDescriptor).
ControllerDescriptor new_replica_set_controller_descriptor();
ControllerDescriptor new_deployment_controller_descriptor();
ControllerDescriptor new_namespace_controller_descriptor();
ControllerDescriptor new_pod_counter_controller_descriptor();
ControllerDescriptor new_garbage_collector_controller_descriptor();

const std::vector<ControllerDescriptor>& controller_descriptors() {
  static const std::vector<ControllerDescriptor> all = [] {
    std::vector<ControllerDescriptor> descriptors = {
        new_garbage_collector_controller_descriptor(), new_replica_set_controller_descriptor(),
        new_deployment_controller_descriptor(),        new_namespace_controller_descriptor(),
        new_pod_counter_controller_descriptor(),
    };
    std::sort(descriptors.begin(), descriptors.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return descriptors;
  }();
  return all;
}

}  // namespace kcm::app
