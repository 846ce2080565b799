// The controllers kcm can run (upstream NewControllerDescriptors). Adding one
// is one file, src/app/controllers/<name>.cc, defining its descriptor, and one
// line in controller_descriptors.cc listing it. Its name must be a canonical
// name of controller_names.h (that is where aliases and the
// disabled-by-default set live).
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "app/controller.h"
#include "app/controller_context.h"

namespace kcm::app {

struct ControllerDescriptor {
  std::string_view name;  // canonical, e.g. "replicaset-controller"
  // Builds the controller: requests its informers and clients from the
  // context, starts nothing. nullptr means "skipped" (upstream's nil
  // controller, e.g. a feature switched off by a flag); an error aborts kcm.
  std::function<Result<std::unique_ptr<Controller>>(const ControllerContext&)> init;
};

// Every controller kcm has built, sorted by name.
const std::vector<ControllerDescriptor>& controller_descriptors();

}  // namespace kcm::app
