// kube-controller-manager's z-pages (component-base/zpages, 1.33): /flagz,
// every flag and its value, behind the ComponentFlagz gate, and /statusz,
// start time, uptime and versions, behind ComponentStatusz. Both are text
// for people: they answer only clients that accept text/plain, and the
// delimiter between a name and its value is drawn at random (":", ": ", "="
// or " ") so that nobody scrapes them.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "app/http_answer.h"

namespace kcm::app {

inline constexpr std::string_view kFlagzPath = "/flagz";
inline constexpr std::string_view kStatuszPath = "/statusz";

struct ZpagesOptions {
  std::string component = "kube-controller-manager";
  bool flagz = false;
  bool statusz = false;
  // Every registered flag's name (without dashes) and value as pflag prints it.
  std::map<std::string, std::string> flags;
  std::chrono::system_clock::time_point started;
  std::string go_version;         // kcm has no Go: its build info's compiler
  std::string binary_version;     // without a leading "v"
  std::string emulation_version;  // "1.33"; empty: no such line
  // Picks one of `n` delimiters; the default draws at random.
  std::function<std::size_t(std::size_t n)> pick;
};

class Zpages {
 public:
  explicit Zpages(ZpagesOptions options);

  // The answer for an enabled page at `path` given the request's Accept
  // header; nullopt for any other path (the server's 404). Any method.
  std::optional<HttpAnswer> serve(std::string_view path, std::string_view accept) const;

 private:
  HttpAnswer flagz() const;
  HttpAnswer statusz() const;

  const ZpagesOptions options_;
  // /flagz's body is made on the first accepted request and kept, delimiter
  // included, as upstream's sync.Once does.
  mutable std::once_flag flagz_once_;
  mutable std::string flagz_body_;
};

// httputil.AcceptableMediaType: some entry of `accept` (goautoneg's parsing)
// is text/plain, text/*, */plain or */*, with no parameter but charset=utf-8.
bool accepts_text_plain(std::string_view accept);

// The bodies, byte for byte, for a given delimiter and moment.
std::string flagz_text(std::string_view component, const std::map<std::string, std::string>& flags,
                       std::string_view delimiter);
std::string statusz_text(const ZpagesOptions& options, std::string_view delimiter,
                         std::chrono::system_clock::time_point now);

// The process's start from /proc (its start in clock ticks after boot plus
// the boot time), whole seconds, as component-base's GetProcessStart; the
// epoch when /proc cannot say.
std::chrono::system_clock::time_point process_start_time();

}  // namespace kcm::app
