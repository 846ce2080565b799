#include "log/log.h"

#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace kcm::log {
namespace {

std::atomic<int> g_verbosity{0};

struct SinkHolder {
  std::mutex mu;
  Sink sink;
};
SinkHolder& sink_holder() {
  static SinkHolder holder;
  return holder;
}

// Go's %q for a string value or message: quotes, backslash escapes, \n etc.
std::string quote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

Field::Field(std::string_view k, std::string_view v) : key(k), value(quote(v)) {}
Field::Field(std::string_view k, double v) : key(k), value(fmt::format("{}", v)) {}

void set_verbosity(int level) {
  g_verbosity.store(level, std::memory_order_relaxed);
}
int verbosity() {
  return g_verbosity.load(std::memory_order_relaxed);
}

void set_sink(Sink sink) {
  std::lock_guard lock(sink_holder().mu);
  sink_holder().sink = std::move(sink);
}

std::string format_line(Severity severity, std::string_view time, long thread_id,
                        std::string_view file, int line, std::string_view message,
                        std::initializer_list<Field> fields) {
  const char letter = severity == Severity::kInfo      ? 'I'
                      : severity == Severity::kWarning ? 'W'
                                                       : 'E';
  std::string out = fmt::format("{}{} {:>7} {}:{}] {}", letter, time, thread_id, base_name(file),
                                line, quote(message));
  for (const Field& f : fields) {
    out += ' ';
    out += f.key;
    out += '=';
    out += f.value;
  }
  return out;
}

void write(Severity severity, std::string_view message, std::initializer_list<Field> fields,
           const SourceLocation& where) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1000000;
  const std::string time = fmt::format("{:02}{:02} {:02}:{:02}:{:02}.{:06}", tm.tm_mon + 1,
                                       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
  const long tid = static_cast<long>(::syscall(SYS_gettid));
  std::string line = format_line(severity, time, tid, where.file_name(),
                                 static_cast<int>(where.line()), message, fields);
  std::lock_guard lock(sink_holder().mu);
  if (sink_holder().sink) {
    sink_holder().sink(line);
    return;
  }
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace kcm::log
