#include "cache/log.h"

#include <mutex>
#include <string>

#include "log/log.h"

namespace kcm::cache {

namespace {

std::mutex& sink_mutex() {
  static std::mutex mu;
  return mu;
}

LogSink& sink() {
  static LogSink s;
  return s;
}

}  // namespace

void set_log_sink(LogSink s) {
  std::lock_guard lock(sink_mutex());
  sink() = std::move(s);
}

void log(LogLevel level, std::string_view message) {
  std::lock_guard lock(sink_mutex());
  if (sink()) {
    sink()(level, message);
    return;
  }
  // klog's format (log/log.h); debug is klog's V(4), info V(2).
  switch (level) {
    case LogLevel::kDebug:
      if (kcm::log::v(4)) kcm::log::info(message);
      break;
    case LogLevel::kInfo:
      if (kcm::log::v(2)) kcm::log::info(message);
      break;
    case LogLevel::kWarning:
      kcm::log::warning(message);
      break;
    case LogLevel::kError:
      kcm::log::error(message);
      break;
  }
}

}  // namespace kcm::cache
