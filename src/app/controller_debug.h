// Controllers' debugging endpoints (upstream controller.Debuggable): a
// controller that has one is served at /debug/controllers/<name> and below,
// with that prefix stripped from the path its handler sees (http.StripPrefix),
// e.g. the garbage collector's graph at
// /debug/controllers/garbage-collector-controller/graph.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "api/result.h"
#include "app/http_answer.h"

namespace kcm::app {

// `path` is what follows the prefix: "" or "/...". Any method is served, as
// upstream's handlers do not look at it.
using DebugHandler = std::function<HttpAnswer(std::string_view path, std::string_view raw_query)>;

// The handlers by controller name. Thread-safe: the server reads while the
// controller manager adds handlers once the controllers are built.
class ControllerDebugHandlers {
 public:
  static constexpr std::string_view kPrefix = "/debug/controllers/";

  // An error when `name` already has one (upstream's mux panics on a
  // duplicate pattern).
  Result<void> add(std::string name, DebugHandler handler);

  // The answer for a path under kPrefix whose controller has a handler;
  // nullopt otherwise (the server's 404 page).
  std::optional<HttpAnswer> serve(std::string_view path, std::string_view raw_query) const;

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, DebugHandler, std::less<>> handlers_;
};

}  // namespace kcm::app
