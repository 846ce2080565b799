// /debug/flags on kcm's secure port, as upstream's routes.DebugFlags installs
// it when --profiling is on (the default): /debug/flags and anything below it
// list the flags that can change at run time (an HTML page), and a PUT of a
// number to /debug/flags/v sets the log verbosity, as klog's Level.Set.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/http_answer.h"

namespace kcm::app {

// The answer for `path` (already unescaped), or nothing when the path is not
// under /debug/flags.
std::optional<HttpAnswer> serve_debug_flags(std::string_view method, std::string_view path,
                                            std::string_view body);

}  // namespace kcm::app
