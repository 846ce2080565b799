#include "app/debug_flags.h"

#include <fmt/format.h>

#include "api/strconv.h"
#include "log/log.h"

namespace kcm::app {
namespace {

constexpr std::string_view kFlagsPath = "/debug/flags";
constexpr std::string_view kFlagsPrefix = "/debug/flags/";
constexpr std::string_view kVerbosityPath = "/debug/flags/v";

// routes.DebugFlags' index template with the one flag kcm registers ("v").
constexpr std::string_view kIndex =
    "<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\n"
    "flags:<br>\n<table>\n\n<tr>v<br>\n\n</table>\n<br>\nfull flags configurable<br>\n"
    "</body>\n</html>\n";

// writePlainText: the text and a newline (fmt.Fprintln).
HttpAnswer plain_text(int status, std::string text) {
  return {status, "text/plain", true, std::move(text) + "\n"};
}

// StringFlagPutHandler(GlogSetter).
HttpAnswer set_verbosity(std::string_view method, std::string_view body) {
  if (method != "PUT") return plain_text(406, "unsupported http method");
  // klog's Level.Set: strconv.ParseInt(value, 10, 32), the body exactly as sent.
  const auto level = api::parse_go_int(body, 10, 32);
  if (!level.ok()) {
    return plain_text(400,
                      fmt::format("failed set klog.logging.verbosity {}: {}", body, level.error()));
  }
  log::set_verbosity(static_cast<int>(*level));
  return plain_text(200, fmt::format("successfully set klog.logging.verbosity to {}", body));
}

}  // namespace

std::optional<HttpAnswer> serve_debug_flags(std::string_view method, std::string_view path,
                                            std::string_view body) {
  if (path == kVerbosityPath) return set_verbosity(method, body);
  if (path == kFlagsPath || path.starts_with(kFlagsPrefix)) {
    // Index answers every method; Go sniffs the page's type.
    return HttpAnswer{200, "text/html; charset=utf-8", false, std::string(kIndex)};
  }
  return std::nullopt;
}

}  // namespace kcm::app
