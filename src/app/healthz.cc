#include "app/healthz.h"

#include <algorithm>
#include <set>
#include <utility>

#include "api/field_error.h"
#include "app/url_unescape.h"
#include "log/log.h"

namespace kcm::app {

using api::go_quote;

namespace {

std::string format_quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out.push_back(',');
    out += go_quote(name);
  }
  return out;
}

std::string root_name(std::string_view path) {
  while (!path.empty() && path.front() == '/')
    path.remove_prefix(1);
  return std::string(path.substr(0, path.find('/')));
}

}  // namespace

NamedHealthCheck ping_check(std::string name) {
  return {std::move(name), []() -> Result<void> { return {}; }};
}

HealthzHandler::HealthzHandler(std::vector<NamedHealthCheck> checks, std::string path,
                               HealthCheckObserver observer)
    : path_(std::move(path)), name_(root_name(path_)), observer_(std::move(observer)) {
  checks_ = std::make_shared<const CheckList>(CheckList{ping_check()});
  if (auto added = add_checks(std::move(checks)); !added) {
    log::error("Invalid health checks", {{"path", path_}, {"err", added.error()}});
  }
}

Result<void> HealthzHandler::add_checks(std::vector<NamedHealthCheck> checks) {
  std::lock_guard lock(mu_);
  std::set<std::string, std::less<>> names;
  for (const auto& c : added_)
    names.insert(c.name);
  for (const auto& c : checks) {
    if (c.name.empty()) return fail("health check with an empty name");
    if (!c.check) return fail("health check " + go_quote(c.name) + " has no function");
    if (!names.insert(c.name).second) {
      return fail("duplicate health check " + go_quote(c.name) + " for " + path_);
    }
  }
  for (auto& c : checks)
    added_.push_back(std::move(c));
  checks_ = added_.empty() ? std::make_shared<const CheckList>(CheckList{ping_check()})
                           : std::make_shared<const CheckList>(added_);
  if (log::v(5)) {
    std::vector<std::string> installed;
    for (const auto& c : *checks_)
      installed.push_back(c.name);
    log::info("Installing health checkers",
              {{"path", path_}, {"checks", format_quoted(installed)}});
  }
  return {};
}

std::vector<std::string> HealthzHandler::check_names() const {
  std::vector<std::string> out;
  for (const auto& c : *snapshot())
    out.push_back(c.name);
  return out;
}

std::shared_ptr<const HealthzHandler::CheckList> HealthzHandler::snapshot() const {
  std::lock_guard lock(mu_);
  return checks_;
}

std::optional<HttpAnswer> HealthzHandler::serve(std::string_view path,
                                                std::string_view raw_query) const {
  const auto checks = snapshot();
  if (path == path_) return serve_root(*checks, raw_query);
  if (path.size() <= path_.size() + 1 || !path.starts_with(path_) || path[path_.size()] != '/') {
    return std::nullopt;
  }
  const std::string_view name = path.substr(path_.size() + 1);
  const auto it = std::find_if(checks->begin(), checks->end(),
                               [&](const NamedHealthCheck& c) { return c.name == name; });
  if (it == checks->end()) return std::nullopt;
  // adaptCheckToHandler: the error is shown here, unlike the aggregate.
  if (auto result = it->check(); !result) {
    return http_error(500, "internal server error: " + result.error());
  }
  HttpAnswer ok;
  ok.body = "ok";
  return ok;
}

HttpAnswer HealthzHandler::serve_root(const CheckList& checks, std::string_view raw_query) const {
  std::set<std::string> excluded;
  if (auto values = query_values(raw_query, "exclude"))
    excluded.insert(values->begin(), values->end());

  std::string individual;
  std::string failed_log;
  std::vector<std::string> failed;
  for (const auto& c : checks) {
    if (excluded.erase(c.name) > 0) {
      individual += "[+]" + c.name + " excluded: ok\n";
      continue;
    }
    auto result = c.check();
    if (observer_) observer_(c.name, name_, result.ok());
    if (!result) {
      // The reason stays out of this public answer; the log has it.
      individual += "[-]" + c.name + " failed: reason withheld\n";
      failed_log += "[-]" + c.name + " failed: " + result.error() + "\n";
      failed.push_back(c.name);
    } else {
      individual += "[+]" + c.name + " ok\n";
    }
  }
  if (!excluded.empty()) {
    const std::string quoted =
        format_quoted(std::vector<std::string>(excluded.begin(), excluded.end()));
    individual += "warn: some health checks cannot be excluded: no matches for " + quoted + "\n";
    log::warning("cannot exclude some health checks, no health checks are installed matching " +
                 quoted);
  }
  if (!failed.empty()) {
    if (log::v(2)) {
      std::string joined;
      for (const auto& f : failed)
        joined += (joined.empty() ? "" : ",") + f;
      log::info(joined + " check failed: " + name_ + "\n" + failed_log);
    }
    return http_error(500, individual + name_ + " check failed");
  }
  HttpAnswer ok;
  ok.nosniff = true;
  if (!query_values(raw_query, "verbose")) {
    ok.body = "ok";
  } else {
    ok.body = individual + name_ + " check passed\n";
  }
  return ok;
}

}  // namespace kcm::app
