// POST of an access or identity review: decoded and checked as any create
// body, answered by registry/reviews.h, never stored. 201 Created, as
// upstream's create handler answers them.
#include "local/apiserver/api_handler.h"
#include "local/apiserver/ids.h"
#include "local/registry/reviews.h"

namespace kcm::local::apiserver {

net::awaitable<void> ApiHandler::review(Call& call) {
  auto body = create_body(call);
  if (!body) {
    co_await reply_error(call.ex, body.error());
    co_return;
  }
  const registry::RequestUser user{call.ex.user(), call.ex.groups()};
  auto answer = registry::answer_review(*call.resource, body->object, user, rfc3339_now());
  Result<WriteResult, api::Status> result = fail(api::internal_error("no answer"));
  if (answer) {
    result = WriteResult{.code = 201, .object = nullptr, .body = json::value(std::move(*answer))};
  } else {
    result = fail(std::move(answer).error());
  }
  co_await reply(call, std::move(result), std::move(body->warnings));
}

}  // namespace kcm::local::apiserver
