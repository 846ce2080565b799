// Logging in klog's text format, the format every Kubernetes component
// writes and operators grep:
//
//   I1130 15:42:41.123456   12345 replica_set.cc:201] "Too few replicas" replicaSet="default/web"
//   need=3 creating=1
//
// Severity letter, month and day, wall time with microseconds, thread id
// right-aligned to 7, source file and line, the quoted message, then
// key=value pairs (strings quoted as Go's %q, numbers and booleans bare).
// Verbosity works as klog's -v: `if (log::v(4)) log::info(...)`.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace kcm::log {

// Where a log call is, filled in by default arguments. Not
// std::source_location: clang 14 (the sanitizer and fuzz builds) cannot
// compile libstdc++ 12's, while __builtin_FILE/__builtin_LINE work in both
// compilers.
struct SourceLocation {
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          std::uint_least32_t line = __builtin_LINE()) {
    return SourceLocation{file, line};
  }
  constexpr const char* file_name() const { return file_; }
  constexpr std::uint_least32_t line() const { return line_; }
  const char* file_ = "";
  std::uint_least32_t line_ = 0;
};

// One key=value pair of a structured log line.
struct Field {
  Field(std::string_view k, std::string_view v);
  Field(std::string_view k, const char* v) : Field(k, std::string_view(v)) {}
  Field(std::string_view k, const std::string& v) : Field(k, std::string_view(v)) {}
  Field(std::string_view k, bool v) : key(k), value(v ? "true" : "false") {}
  template <typename T>
  requires(std::integral<T> && !std::same_as<T, bool>) Field(std::string_view k, T v)
      : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, double v);

  std::string_view key;
  std::string value;  // already formatted
};

enum class Severity { kInfo, kWarning, kError };

// The -v level; messages at or below it are written.
void set_verbosity(int level);
int verbosity();
inline bool v(int level) {
  return level <= verbosity();
}

// Where lines go (default: stderr). Tests and embedders may capture them.
using Sink = std::function<void(std::string_view line)>;
void set_sink(Sink sink);

void write(Severity severity, std::string_view message, std::initializer_list<Field> fields,
           const SourceLocation& where);

inline void info(std::string_view message, std::initializer_list<Field> fields = {},
                 const SourceLocation& where = SourceLocation::current()) {
  write(Severity::kInfo, message, fields, where);
}
inline void warning(std::string_view message, std::initializer_list<Field> fields = {},
                    const SourceLocation& where = SourceLocation::current()) {
  write(Severity::kWarning, message, fields, where);
}
inline void error(std::string_view message, std::initializer_list<Field> fields = {},
                  const SourceLocation& where = SourceLocation::current()) {
  write(Severity::kError, message, fields, where);
}

// The line `write` would produce, for tests: `time` as "1130 15:42:41.123456".
std::string format_line(Severity severity, std::string_view time, long thread_id,
                        std::string_view file, int line, std::string_view message,
                        std::initializer_list<Field> fields);

}  // namespace kcm::log
