// kcm-local's --service-cluster-ip-range and --service-node-port-range, and
// allocation in a small range: the static band, and a full range's 500.
#include "local/registry/service_ranges.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "local/registry/service_allocator.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::obj;

TEST(ServiceRangesTest, ParsesBothFlagForms) {
  auto defaults = parse_service_ranges("10.96.0.0/12", "30000-32767");
  ASSERT_TRUE(defaults) << defaults.error();
  EXPECT_EQ(defaults->cluster_ip_range(), "10.96.0.0/12");
  EXPECT_EQ(defaults->first_cluster_ip(), "10.96.0.1");
  EXPECT_EQ(defaults->node_port_first, 30000);
  EXPECT_EQ(defaults->node_port_last, 32767);

  // Host bits go, as Go's ParseCIDR drops them; base+size is utilnet's other form.
  auto other = parse_service_ranges("10.0.0.77/24", "31000+2");
  ASSERT_TRUE(other) << other.error();
  EXPECT_EQ(other->cluster_ip_range(), "10.0.0.0/24");
  EXPECT_EQ(other->first_cluster_ip(), "10.0.0.1");
  EXPECT_EQ(other->node_port_first, 31000);
  EXPECT_EQ(other->node_port_last, 31002);
}

TEST(ServiceRangesTest, RefusesWhatItCannotServe) {
  const struct {
    const char* cidr;
    const char* ports;
    const char* error;
  } cases[] = {
      {"10.96.0.0", "30000-32767",
       "--service-cluster-ip-range 10.96.0.0: not an IPv4 CIDR (e.g. 10.96.0.0/12)"},
      {"10.96.0.300/12", "30000-32767",
       "--service-cluster-ip-range 10.96.0.300/12: not an IPv4 CIDR (e.g. 10.96.0.0/12)"},
      {"fd00::/108", "30000-32767",
       "--service-cluster-ip-range fd00::/108: kcm-local serves single-stack IPv4 Services only "
       "(one IPv4 CIDR, e.g. 10.96.0.0/12)"},
      {"10.0.0.0/8", "30000-32767",
       "--service-cluster-ip-range 10.0.0.0/8: too large; for 32-bit addresses, the mask must "
       "be >= 12"},
      {"10.0.0.0/31", "30000-32767",
       "--service-cluster-ip-range 10.0.0.0/31: too small; the mask must be <= 30"},
      {"10.96.0.0/12", "30000",
       "--service-node-port-range 30000: not a port range (e.g. 30000-32767 or 30000+2767)"},
      {"10.96.0.0/12", "32767-30000",
       "--service-node-port-range 32767-30000: the ports must run upwards within 1-65535"},
      {"10.96.0.0/12", "65000+1000",
       "--service-node-port-range 65000+1000: the ports must run upwards within 1-65535"},
  };
  for (const auto& c : cases) {
    auto r = parse_service_ranges(c.cidr, c.ports);
    ASSERT_FALSE(r) << c.cidr << " " << c.ports;
    EXPECT_EQ(r.error(), c.error);
  }
}

// Allocation in a /27 (30 usable addresses) and 20 node ports, against the
// Services "stored" so far.
class SmallRangeTest : public ::testing::Test {
 protected:
  SmallRangeTest() {
    auto r = parse_service_ranges("10.0.0.0/27", "31000-31019");
    EXPECT_TRUE(r);
    allocator_ = service_allocator(*r);
  }
  Result<json::object, api::Status> allocate(const std::string& name, const std::string& spec) {
    json::object service =
        obj(R"({"metadata":{"name":")" + name + R"(","namespace":"ns"},"spec":)" + spec + "}");
    auto held = allocator_->allocate(service, nullptr, [this] { return stored_; });
    if (!held) return fail(std::move(held).error());
    stored_.push_back(service);  // committed: the store now says what it holds
    return service;
  }
  static int last_octet(const json::object& service) {
    const std::string ip(service.at("spec").at("clusterIP").as_string());
    return std::stoi(ip.substr(ip.rfind('.') + 1));
  }
  static std::int64_t node_port(const json::object& service) {
    return service.at("spec").at("ports").as_array()[0].at("nodePort").as_int64();
  }

  std::shared_ptr<const Allocator> allocator_;
  std::vector<json::object> stored_;
};

TEST_F(SmallRangeTest, DynamicAddressesFillTheUpperBandFirstThenTheStaticOne) {
  // The static band is the first 16 addresses (.1-.16); .17-.30 go first.
  std::vector<int> octets;
  for (int i = 0; i < 30; ++i) {
    auto s = allocate("s" + std::to_string(i), R"({"ports":[{"port":80}]})");
    ASSERT_TRUE(s) << s.error().message;
    octets.push_back(last_octet(*s));
  }
  const std::set<int> upper(octets.begin(), octets.begin() + 14);
  EXPECT_EQ(upper.size(), 14u);
  EXPECT_EQ(*upper.begin(), 17);
  EXPECT_EQ(*upper.rbegin(), 30);
  const std::set<int> lower(octets.begin() + 14, octets.end());
  EXPECT_EQ(lower.size(), 16u);
  EXPECT_EQ(*lower.begin(), 1);
  EXPECT_EQ(*lower.rbegin(), 16);

  auto full = allocate("more", R"({"ports":[{"port":80}]})");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().code, 500);
  EXPECT_EQ(full.error().message,
            "Internal error occurred: failed to allocate a serviceIP: range is full");
}

TEST_F(SmallRangeTest, NodePortsFillTheUpperBandFirstAndRunOutWithA500) {
  // 20 ports: the static band is the first 16, so 31016-31019 go first.
  std::vector<std::int64_t> ports;
  for (int i = 0; i < 20; ++i) {
    auto s = allocate("np" + std::to_string(i), R"({"type":"NodePort","ports":[{"port":80}]})");
    ASSERT_TRUE(s) << i << ": " << s.error().message;
    ports.push_back(node_port(*s));
  }
  EXPECT_EQ(std::set<std::int64_t>(ports.begin(), ports.begin() + 4),
            (std::set<std::int64_t>{31016, 31017, 31018, 31019}));
  EXPECT_EQ(std::set<std::int64_t>(ports.begin(), ports.end()).size(), 20u);

  auto full = allocate("more", R"({"type":"NodePort","ports":[{"port":80}]})");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().message,
            "Internal error occurred: failed to allocate a nodePort: range is full");
  // The address the refused Service took is free again: ten remain for others.
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(allocate("c" + std::to_string(i), R"({"ports":[{"port":80}]})")) << i;
  }
}

}  // namespace
}  // namespace kcm::local::registry
