#include "client/blocking_socket.h"

#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/error.hpp>
#include <cerrno>

namespace kcm::client {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

namespace {

boost::system::error_code errno_code() {
  return {errno, asio::error::get_system_category()};
}

bool would_block() {
  return errno == EAGAIN || errno == EWOULDBLOCK;
}

}  // namespace

boost::system::error_code BlockingSocket::make_blocking() {
  boost::system::error_code ec;
  socket_.native_non_blocking(false, ec);
  return ec;
}

bool BlockingSocket::wait_ready(short events, boost::system::error_code& ec) const {
  for (;;) {
    const auto left = *deadline_ - SteadyClock::now();
    if (left <= SteadyClock::duration::zero()) {
      ec = asio::error::timed_out;
      return false;
    }
    // Rounded up, so that the wait never ends before the deadline.
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    pollfd p{socket_.native_handle(), events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(ms, 1 << 30)));
    if (n > 0) return true;  // ready, or an error the next call reports
    if (n < 0 && errno != EINTR) {
      ec = errno_code();
      return false;
    }
  }
}

std::size_t BlockingSocket::receive(void* data, std::size_t size, boost::system::error_code& ec) {
  ec = {};
  for (;;) {
    if (deadline_ && !wait_ready(POLLIN, ec)) return 0;
    const ssize_t n = ::recv(socket_.native_handle(), data, size, deadline_ ? MSG_DONTWAIT : 0);
    if (n > 0) return static_cast<std::size_t>(n);
    if (n == 0) {
      ec = asio::error::eof;
      return 0;
    }
    if (errno == EINTR || (deadline_ && would_block())) continue;
    ec = errno_code();
    return 0;
  }
}

std::size_t BlockingSocket::send(const iovec* iov, std::size_t count,
                                 boost::system::error_code& ec) {
  ec = {};
  msghdr msg{};
  msg.msg_iov = const_cast<iovec*>(iov);
  msg.msg_iovlen = count;
  // MSG_NOSIGNAL: a peer that closed the connection is an error, not SIGPIPE.
  const int flags = MSG_NOSIGNAL | (deadline_ ? MSG_DONTWAIT : 0);
  if (deadline_ && SteadyClock::now() >= *deadline_) {
    ec = asio::error::timed_out;
    return 0;
  }
  // A request's socket almost always has room: send first and wait only when
  // the kernel's buffer is full (a poll before every send was one system
  // call per request for nothing). Reads keep their poll first: the answer
  // is rarely there yet when the read starts.
  for (;;) {
    const ssize_t n = ::sendmsg(socket_.native_handle(), &msg, flags);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    if (deadline_ && would_block()) {
      if (!wait_ready(POLLOUT, ec)) return 0;
      continue;
    }
    ec = errno_code();
    return 0;
  }
}

}  // namespace kcm::client
