#pragma once

// A connected TCP socket as the synchronous stream under an HTTP exchange.
//
// read_some and write_some wait in the kernel: one recv or send each (and,
// while a deadline is set, a poll before a read, and before a write only
// when the send buffer is full). Running each read and write as an
// Asio operation on an io_context cost a handful of system calls apiece
// (speculative reads, epoll_wait for every handler, wake-ups), which made up
// most of the HTTP client's kernel time under load.
//
// Asynchronous operations pass through to the socket, so that a TLS stream
// over this one can still connect and handshake through Asio with deadlines;
// make_blocking() then switches the descriptor for the synchronous phase.

#include <sys/uio.h>

#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/system_error.hpp>
#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

namespace kcm::client {

class BlockingSocket {
 public:
  using Socket = boost::asio::ip::tcp::socket;
  using executor_type = Socket::executor_type;
  using lowest_layer_type = Socket::lowest_layer_type;
  using Deadline = std::optional<std::chrono::steady_clock::time_point>;

  explicit BlockingSocket(Socket& socket) : socket_(socket) {}

  // Puts the descriptor back in blocking mode (Asio's asynchronous operations
  // leave it non-blocking).
  boost::system::error_code make_blocking();
  // Reads and writes after this fail with timed_out once `deadline` passes;
  // std::nullopt waits as long as it takes. Another thread ends a wait with
  // ::shutdown on the descriptor.
  void set_deadline(const Deadline& deadline) { deadline_ = deadline; }

  executor_type get_executor() { return socket_.get_executor(); }
  lowest_layer_type& lowest_layer() { return socket_.lowest_layer(); }
  const lowest_layer_type& lowest_layer() const { return socket_.lowest_layer(); }

  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers, boost::system::error_code& ec) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      const boost::asio::mutable_buffer b(*it);
      if (b.size() > 0) return receive(b.data(), b.size(), ec);
    }
    ec = {};
    return 0;
  }
  template <class ConstBuffers>
  std::size_t write_some(const ConstBuffers& buffers, boost::system::error_code& ec) {
    std::array<iovec, kMaxIovecs> iov{};
    std::size_t count = 0;
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers) && count < iov.size(); ++it) {
      const boost::asio::const_buffer b(*it);
      if (b.size() == 0) continue;
      iov[count].iov_base = const_cast<void*>(b.data());  // sendmsg does not write to it
      iov[count].iov_len = b.size();
      ++count;
    }
    ec = {};
    return count == 0 ? 0 : send(iov.data(), count, ec);
  }
  // The throwing forms Asio's SyncReadStream and SyncWriteStream require.
  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers) {
    return or_throw([&](boost::system::error_code& ec) { return read_some(buffers, ec); });
  }
  template <class ConstBuffers>
  std::size_t write_some(const ConstBuffers& buffers) {
    return or_throw([&](boost::system::error_code& ec) { return write_some(buffers, ec); });
  }

  template <class MutableBuffers, class Handler>
  auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    return socket_.async_read_some(buffers, std::forward<Handler>(handler));
  }
  template <class ConstBuffers, class Handler>
  auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    return socket_.async_write_some(buffers, std::forward<Handler>(handler));
  }

 private:
  static constexpr std::size_t kMaxIovecs = 16;

  template <class Op>
  static std::size_t or_throw(Op&& op) {
    boost::system::error_code ec;
    const std::size_t n = op(ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }

  std::size_t receive(void* data, std::size_t size, boost::system::error_code& ec);
  std::size_t send(const iovec* iov, std::size_t count, boost::system::error_code& ec);
  // Waits until the descriptor is ready for `events` or the deadline passes.
  bool wait_ready(short events, boost::system::error_code& ec) const;

  Socket& socket_;
  Deadline deadline_;
};

}  // namespace kcm::client
