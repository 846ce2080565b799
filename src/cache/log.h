// Where the informer machinery reports what upstream logs with klog
// (warnings such as "watch of *v1.Pod ended with: ..."). Warnings and errors
// go to log/log.h (klog format) unless a sink is set; set one at start-up,
// before informers run.
#pragma once

#include <functional>
#include <string_view>

namespace kcm::cache {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

using LogSink = std::function<void(LogLevel level, std::string_view message)>;

void set_log_sink(LogSink sink);
void log(LogLevel level, std::string_view message);

}  // namespace kcm::cache
