#include "record/logger.h"

#include <fmt/core.h>

#include <cstdio>

#include "log/log.h"

namespace kcm::record {

Logger stderr_logger() {
  return [](Severity severity, std::string_view message) {
    // klog's format (log/log.h); debug lines are klog's V(4).
    if (severity == Severity::kDebug && !log::v(4)) return;
    if (severity == Severity::kError) {
      log::error(message);
    } else {
      log::info(message);
    }
  };
}

Logger null_logger() {
  return [](Severity, std::string_view) {};
}

VerbosityCheck log_verbosity() {
  return [](int level) { return log::v(level); };
}

}  // namespace kcm::record
