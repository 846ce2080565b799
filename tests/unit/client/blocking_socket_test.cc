// BlockingSocket over a loopback TCP connection: reads and writes, deadlines,
// a wait ended from another thread, and a peer that went away.
#include "client/blocking_socket.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <string>
#include <thread>

namespace kcm::client {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Both ends of a loopback connection; `client` is switched to blocking mode.
class LoopbackPair {
 public:
  LoopbackPair() {
    tcp::acceptor acceptor(ioc_, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    client_.connect(acceptor.local_endpoint());
    acceptor.accept(server_);
    EXPECT_FALSE(socket_.make_blocking());
  }
  BlockingSocket& client() { return socket_; }
  tcp::socket& server() { return server_; }

 private:
  asio::io_context ioc_;
  tcp::socket client_{ioc_};
  tcp::socket server_{ioc_};
  BlockingSocket socket_{client_};
};

std::string read_exactly(tcp::socket& s, std::size_t n) {
  std::string out(n, '\0');
  asio::read(s, asio::buffer(out));
  return out;
}

TEST(BlockingSocketTest, WritesEveryBufferOfASequenceAndReadsWhatArrived) {
  LoopbackPair pair;
  const std::string head = "GET / HTTP/1.1\r\n";
  const std::string tail = "\r\n";
  const std::array<asio::const_buffer, 3> buffers{asio::buffer(head), asio::const_buffer(),
                                                  asio::buffer(tail)};
  boost::system::error_code ec;
  EXPECT_EQ(pair.client().write_some(buffers, ec), head.size() + tail.size());
  EXPECT_FALSE(ec);
  EXPECT_EQ(read_exactly(pair.server(), head.size() + tail.size()), head + tail);

  asio::write(pair.server(), asio::buffer(std::string("pong")));
  char buf[16];
  EXPECT_EQ(pair.client().read_some(asio::buffer(buf), ec), 4u);
  EXPECT_FALSE(ec);
  EXPECT_EQ(std::string(buf, 4), "pong");
}

TEST(BlockingSocketTest, ReadsEndOfStreamWhenThePeerCloses) {
  LoopbackPair pair;
  pair.server().close();
  char buf[16];
  boost::system::error_code ec;
  EXPECT_EQ(pair.client().read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
}

TEST(BlockingSocketTest, ReadTimesOutAtTheDeadlineButNotBefore) {
  LoopbackPair pair;
  const auto start = std::chrono::steady_clock::now();
  pair.client().set_deadline(start + 50ms);
  char buf[16];
  boost::system::error_code ec;
  EXPECT_EQ(pair.client().read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::timed_out);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms);

  // Data that arrives before the deadline is read.
  asio::write(pair.server(), asio::buffer(std::string("late")));
  pair.client().set_deadline(std::chrono::steady_clock::now() + 10s);
  EXPECT_EQ(pair.client().read_some(asio::buffer(buf), ec), 4u);
  EXPECT_FALSE(ec);
}

TEST(BlockingSocketTest, APassedDeadlineFailsWithoutWaiting) {
  LoopbackPair pair;
  pair.client().set_deadline(std::chrono::steady_clock::now() - 1s);
  boost::system::error_code ec;
  const std::string text = "x";
  EXPECT_EQ(pair.client().write_some(asio::buffer(text), ec), 0u);
  EXPECT_EQ(ec, asio::error::timed_out);
}

// Writes go straight to the kernel; one that finds the send buffer full
// waits for room until the deadline.
TEST(BlockingSocketTest, AWriteToAFullBufferTimesOutAtTheDeadline) {
  LoopbackPair pair;
  const std::string text(64 * 1024, 'x');
  boost::system::error_code ec;
  std::size_t written = 0;
  const auto start = std::chrono::steady_clock::now();
  pair.client().set_deadline(start + 100ms);
  // The peer reads nothing: the buffers fill, then a write waits.
  for (int i = 0; i < 10000 && !ec; ++i) {
    written += pair.client().write_some(asio::buffer(text), ec);
  }
  EXPECT_EQ(ec, asio::error::timed_out);
  EXPECT_GT(written, 0u);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);

  // Once the peer reads, a write with time left goes through.
  std::string sink(written, '\0');
  asio::read(pair.server(), asio::buffer(sink));
  pair.client().set_deadline(std::chrono::steady_clock::now() + 10s);
  EXPECT_EQ(pair.client().write_some(asio::buffer(text.data(), 16), ec), 16u);
  EXPECT_FALSE(ec);
}

TEST(BlockingSocketTest, ShutdownFromAnotherThreadEndsABlockedRead) {
  LoopbackPair pair;
  std::thread canceller([&] {
    std::this_thread::sleep_for(50ms);
    ::shutdown(pair.client().lowest_layer().native_handle(), SHUT_RDWR);
  });
  char buf[16];
  boost::system::error_code ec;
  EXPECT_EQ(pair.client().read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
  canceller.join();
}

TEST(BlockingSocketTest, WritingToAClosedConnectionIsAnErrorNotASignal) {
  LoopbackPair pair;
  pair.server().close();
  const std::string text(64 * 1024, 'x');
  boost::system::error_code ec;
  // The first write may still be accepted; the peer's reset fails a later one.
  for (int i = 0; i < 100 && !ec; ++i) {
    pair.client().write_some(asio::buffer(text), ec);
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(ec == asio::error::broken_pipe || ec == asio::error::connection_reset)
      << ec.message();
}

}  // namespace
}  // namespace kcm::client
