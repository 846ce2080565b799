// kube-controller-manager's controller names and the `--controllers` rules:
// canonical names, legacy aliases, the disabled-by-default set, alias
// rewriting, validation and IsControllerEnabled. Every upstream name is known
// (so `--controllers=*,-job-controller` is valid), whether or not kcm has
// built that controller yet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::app {

struct ControllerName {
  std::string_view name;                  // canonical: "deployment-controller"
  std::vector<std::string_view> aliases;  // legacy: "deployment"
  bool disabled_by_default = false;
};

// Upstream's registry (v1.35) plus kcm's own controllers, sorted by name.
const std::vector<ControllerName>& known_controllers();

// Alias rewriting and validation (Options.Validate and ApplyTo): "-deployment"
// becomes "-deployment-controller"; an unknown entry is the error
// `"foo" is not in the list of known controllers`.
Result<std::vector<std::string>> resolve_controllers(const std::vector<std::string>& entries);

// IsControllerEnabled: the first explicit `name` or `-name` wins; otherwise
// `*` enables everything not disabled by default.
bool is_controller_enabled(std::string_view name, const std::vector<std::string>& resolved);

// The `--controllers` help text: "A list of controllers to enable. ... All
// controllers: a, b, ...\nDisabled-by-default controllers: x, y".
std::string controllers_flag_usage();

}  // namespace kcm::app
