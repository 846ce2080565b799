#include "app/controller_debug.h"

#include <mutex>

namespace kcm::app {

Result<void> ControllerDebugHandlers::add(std::string name, DebugHandler handler) {
  const std::unique_lock lock(mu_);
  if (handlers_.contains(name)) return fail("a debug handler is already installed for " + name);
  handlers_.emplace(std::move(name), std::move(handler));
  return {};
}

std::optional<HttpAnswer> ControllerDebugHandlers::serve(std::string_view path,
                                                         std::string_view raw_query) const {
  if (!path.starts_with(kPrefix)) return std::nullopt;
  const std::string_view rest = path.substr(kPrefix.size());
  // "<name>" exactly, or "<name>/...": the two patterns upstream registers.
  const std::size_t slash = rest.find('/');
  const std::string_view name = rest.substr(0, slash);
  const std::string_view stripped =
      slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  DebugHandler handler;
  {
    const std::shared_lock lock(mu_);
    const auto it = handlers_.find(name);
    if (it == handlers_.end()) return std::nullopt;
    handler = it->second;
  }
  // Called outside the lock: a handler may take its controller's locks.
  return handler(stripped, raw_query);
}

}  // namespace kcm::app
