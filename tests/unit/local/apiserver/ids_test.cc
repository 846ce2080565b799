#include "local/apiserver/ids.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace kcm::local::apiserver {
namespace {

// Many more than one refill of the random buffer (256 UIDs), so the test also
// crosses its boundaries.
constexpr int kCount = 5000;

TEST(IdsTest, UidsAreVersion4UuidsAndUnique) {
  const std::regex shape("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::set<std::string> seen;
  for (int i = 0; i < kCount; ++i) {
    const std::string uid = new_uid();
    ASSERT_TRUE(std::regex_match(uid, shape)) << uid;
    ASSERT_TRUE(seen.insert(uid).second) << "repeated: " << uid;
  }
}

TEST(IdsTest, UidsFromSeveralThreadsDoNotRepeat) {
  // Each thread draws from its own buffer; the buffers must not share a stream.
  std::vector<std::vector<std::string>> drawn(4);
  std::vector<std::thread> threads;
  for (auto& out : drawn) {
    threads.emplace_back([&out] {
      for (int i = 0; i < kCount; ++i)
        out.push_back(new_uid());
    });
  }
  for (auto& t : threads)
    t.join();
  std::set<std::string> seen;
  for (const auto& out : drawn) {
    for (const auto& uid : out)
      ASSERT_TRUE(seen.insert(uid).second) << "repeated: " << uid;
  }
}

TEST(IdsTest, NameSuffixesUseUpstreamsAlphabet) {
  const std::regex shape("^[bcdfghjklmnpqrstvwxz2456789]{5}$");
  std::set<std::string> seen;
  for (int i = 0; i < kCount; ++i) {
    const std::string suffix = generate_name_suffix();
    ASSERT_TRUE(std::regex_match(suffix, shape)) << suffix;
    seen.insert(suffix);
  }
  // 27^5 (14.3 million) possible suffixes: 5,000 draws repeat a few at most.
  EXPECT_GT(seen.size(), static_cast<std::size_t>(kCount - 10));
}

}  // namespace
}  // namespace kcm::local::apiserver
