// GET pods/NAME/log: the options checked as upstream's PodLogOptions, the
// container chosen and checked by registry/pod_log.h, then the log, which
// is empty (simulated containers write nothing). With follow=true the
// stream stays open while the container runs, as a quiet container's
// would, and ends when it stops, the pod goes, or the client leaves.
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cctype>
#include <chrono>

#include "api/strconv.h"
#include "local/apiserver/api_handler.h"
#include "local/apiserver/stored_codec.h"
#include "local/registry/pod_log.h"

namespace kcm::local::apiserver {
namespace {

using namespace std::chrono_literals;
using namespace boost::asio::experimental::awaitable_operators;

// How often a follower looks at its container again.
constexpr auto kFollowPoll = 1s;

}  // namespace

Result<void, api::Status> ApiHandler::check_pod_log_options(const Call& call) const {
  api::FieldErrors errs;
  const auto int_param = [&](std::string_view key) -> Result<std::optional<std::int64_t>> {
    if (!call.has_param(key)) return std::optional<std::int64_t>();
    auto v = api::parse_go_int(call.param(key), 10, 64);
    if (!v) return fail(v.error());
    return std::optional<std::int64_t>(*v);
  };
  const auto tail = int_param("tailLines");
  const auto limit = int_param("limitBytes");
  const auto since = int_param("sinceSeconds");
  for (const auto* r : {&tail, &limit, &since}) {
    if (!*r) return fail(api::bad_request(r->error()));
  }
  if (*tail && **tail < 0) {
    errs.push_back(api::invalid("tailLines", **tail, "must be greater than or equal to 0"));
  }
  if (*limit && **limit < 1) {
    errs.push_back(api::invalid("limitBytes", **limit, "must be greater than 0"));
  }
  if (*since && call.has_param("sinceTime")) {
    errs.push_back(
        api::forbidden("", "at most one of `sinceTime` or `sinceSeconds` may be specified"));
  } else if (*since && **since < 1) {
    errs.push_back(api::invalid("sinceSeconds", **since, "must be greater than 0"));
  }
  if (!errs.empty()) return fail(api::invalid({"", "PodLogOptions"}, call.info.name, errs));
  return {};
}

net::awaitable<void> ApiHandler::pod_log(Call& call) {
  if (auto valid = check_pod_log_options(call); !valid) {
    co_await reply_error(call.ex, valid.error());
    co_return;
  }
  const std::string container = call.param("container");
  const bool previous = call.bool_param("previous").value_or(false);
  const bool follow = call.bool_param("follow").value_or(false);
  // The container as the pod stands now: its log target, or the error.
  const auto look = [&]() -> Result<registry::PodLogTarget, api::Status> {
    auto stored = rest_.get(*call.resource, call.info.namespace_, call.info.name);
    if (!stored) return fail(std::move(stored).error());
    if (*stored == nullptr) {
      return fail(api::not_found(call.resource->group_resource(), call.info.name));
    }
    return registry::pod_log_target(parse_stored(**stored), container, previous);
  };
  auto target = look();
  if (!target) {
    co_await reply_error(call.ex, target.error());
    co_return;
  }
  if (!follow || !target->running) {
    co_await call.ex.respond(http::status::ok, "text/plain", "");
    co_return;
  }
  if (!co_await call.ex.start_stream(http::status::ok, "text/plain")) co_return;
  auto timer = std::make_shared<net::steady_timer>(co_await net::this_coro::executor);
  const auto wait_for_stop = [&]() -> net::awaitable<void> {
    for (;;) {
      timer->expires_after(kFollowPoll);
      boost::system::error_code ec;
      co_await timer->async_wait(net::redirect_error(net::use_awaitable, ec));
      auto now = look();
      if (!now || !now->running) co_return;
    }
  };
  co_await (wait_for_stop() || call.ex.wait_closed());
  co_await call.ex.finish_stream();
}

}  // namespace kcm::local::apiserver
