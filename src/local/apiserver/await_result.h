// Bridges the REST store's completion callbacks (called on the storage
// thread) into the handler coroutines (resumed on their own executor).
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <functional>
#include <memory>

namespace kcm::local::apiserver {

// co_await await_result<T>([&](std::function<void(T)> done) { start(..., done); });
template <class T, class Start>
boost::asio::awaitable<T> await_result(Start start) {
  namespace net = boost::asio;
  return net::async_initiate<const net::use_awaitable_t<>, void(T)>(
      [start = std::move(start)](auto handler) mutable {
        auto executor = net::get_associated_executor(handler);
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        start(std::function<void(T)>([shared, executor](T result) {
          net::post(executor, [shared, result = std::move(result)]() mutable {
            (*shared)(std::move(result));
          });
        }));
      },
      net::use_awaitable);
}

}  // namespace kcm::local::apiserver
