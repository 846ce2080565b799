#include "log/thread_name.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace kcm::log {
namespace {

// In threads of their own: naming the test's main thread would rename the process.
std::string named(std::string_view name) {
  std::string got;
  std::thread([&] {
    set_thread_name(name);
    got = thread_name();
  }).join();
  return got;
}

TEST(ThreadNameTest, NamesTheCallingThread) {
  EXPECT_EQ(named("reflector"), "reflector");
  EXPECT_EQ(named(""), "");
}

TEST(ThreadNameTest, LongNamesAreCutToWhatLinuxKeeps) {
  EXPECT_EQ(named("garbagecollector-worker"), "garbagecollecto");
}

}  // namespace
}  // namespace kcm::log
