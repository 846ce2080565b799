#include "log/thread_name.h"

#include <pthread.h>

#include <array>

namespace kcm::log {

namespace {

// TASK_COMM_LEN: 15 bytes and the terminating NUL.
constexpr std::size_t kMaxName = 15;

}  // namespace

void set_thread_name(std::string_view name) {
  const std::string cut(name.substr(0, kMaxName));
  pthread_setname_np(pthread_self(), cut.c_str());
}

std::string thread_name() {
  std::array<char, kMaxName + 1> buf{};
  if (pthread_getname_np(pthread_self(), buf.data(), buf.size()) != 0) return {};
  return std::string(buf.data());
}

}  // namespace kcm::log
