// Where the event pipeline and the leader elector report what they do
// (klog's role upstream). The default writes through log/log.h; tests replace
// it.
#pragma once

#include <functional>
#include <string_view>

namespace kcm::record {

enum class Severity { kDebug, kInfo, kError };

using Logger = std::function<void(Severity, std::string_view message)>;

// klog-format lines through log/log.h; debug lines only at -v=4 and above.
Logger stderr_logger();
// Discards everything.
Logger null_logger();

// Whether klog's -v admits `level`; the default asks log/log.h.
using VerbosityCheck = std::function<bool(int level)>;
VerbosityCheck log_verbosity();

}  // namespace kcm::record
