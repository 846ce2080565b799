// Services through the REST store: defaults, cluster IP and node port
// allocation, what updates keep and drop, and the refusals with upstream's
// words.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "rest_store_fixture.h"

namespace kcm::local::apiserver {
namespace {

using ::testing::HasSubstr;

class ServiceRestTest : public RestStoreTest {
 protected:
  const ResourceInfo& services() { return resource("", "services"); }

  static json::object service(std::string_view name, std::string_view spec) {
    return json::parse(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":")" +
                       std::string(name) + R"("},"spec":)" + std::string(spec) + "}")
        .as_object();
  }
  Result<json::object, api::Status> create_service(std::string_view name, std::string_view spec,
                                                   WriteOptions options = {}) {
    auto r = create(services(), "default", service(name, spec), options);
    if (!r) return fail(std::move(r).error());
    return parse_stored(*r->object);
  }
  static const json::object& spec(const json::object& s) { return s.at("spec").as_object(); }
  static std::string str(const json::object& s, std::string_view key) {
    const json::value* v = spec(s).if_contains(key);
    return v == nullptr     ? "<absent>"
           : v->is_string() ? std::string(v->get_string())
                            : json::serialize(*v);
  }
  static std::int64_t node_port(const json::object& s, std::size_t i) {
    return spec(s).at("ports").as_array()[i].as_object().at("nodePort").as_int64();
  }
  // The offset of `ip` in 10.96.0.0/12 from its first usable address.
  static std::int64_t ip_offset(const std::string& ip) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    EXPECT_EQ(std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d), 4) << ip;
    const std::int64_t value = (std::int64_t{a} << 24) | (b << 16) | (c << 8) | d;
    return value - ((std::int64_t{10} << 24) | (96 << 16)) - 1;
  }
};

TEST_F(ServiceRestTest, CreateDefaultsAndAllocatesFromTheUpperBand) {
  auto s = create_service("web", R"({"selector":{"app":"web"},"ports":[{"port":80}]})");
  ASSERT_TRUE(s) << s.error().message;
  const std::string ip = str(*s, "clusterIP");
  EXPECT_EQ(str(*s, "clusterIPs"), "[\"" + ip + "\"]");
  // Dynamic addresses come after the static band of 256 (KEP-3070), inside the /12.
  EXPECT_GE(ip_offset(ip), 256) << ip;
  EXPECT_LT(ip_offset(ip), (1 << 20) - 2) << ip;
  EXPECT_EQ(str(*s, "type"), "ClusterIP");
  EXPECT_EQ(str(*s, "sessionAffinity"), "None");
  EXPECT_EQ(str(*s, "internalTrafficPolicy"), "Cluster");
  EXPECT_EQ(str(*s, "ipFamilyPolicy"), "SingleStack");
  EXPECT_EQ(str(*s, "ipFamilies"), R"(["IPv4"])");
  EXPECT_EQ(str(*s, "externalTrafficPolicy"), "<absent>");
  EXPECT_EQ(str(*s, "ports"), R"([{"protocol":"TCP","port":80,"targetPort":80}])");
  EXPECT_EQ(json::serialize(s->at("status")), R"({"loadBalancer":{}})");
}

TEST_F(ServiceRestTest, RequestedClusterIPIsCheckedAgainstTheRangeAndTheOthers) {
  auto first = create_service("a", R"({"clusterIP":"10.96.0.10","ports":[{"port":80}]})");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(str(*first, "clusterIPs"), R"(["10.96.0.10"])");

  auto taken = create_service("b", R"({"clusterIP":"10.96.0.10","ports":[{"port":80}]})");
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().code, 422);
  EXPECT_EQ(taken.error().message,
            R"(Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: )"
            "failed to allocate IP 10.96.0.10: provided IP is already allocated");

  auto outside = create_service("c", R"({"clusterIP":"192.168.0.1","ports":[{"port":80}]})");
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().code, 422);
  EXPECT_THAT(outside.error().message,
              HasSubstr("failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not "
                        "in the valid range. The range of valid IPs is 10.96.0.0/12"));

  // Creating the same name again asks for a taken IP before it meets the name.
  auto again = create_service("a", R"({"clusterIP":"10.96.0.10","ports":[{"port":80}]})");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, 422);

  // A deleted Service's IP is free again.
  ASSERT_TRUE(remove(services(), "default", "a"));
  EXPECT_TRUE(create_service("b", R"({"clusterIP":"10.96.0.10","ports":[{"port":80}]})"));
}

// The cluster IP fields are checked before anything is allocated from them,
// as upstream's initIPFamilyFields does: a malformed address reads as such.
TEST_F(ServiceRestTest, MalformedClusterIPsAreRefusedBeforeAllocation) {
  auto bad = create_service("a", R"({"clusterIP":"10.96.0.x","ports":[{"port":80}]})");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, 422);
  EXPECT_EQ(bad.error().message,
            R"(Service "a" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.x": must be a )"
            "valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
  auto mismatch = create_service(
      "b", R"({"clusterIP":"10.96.0.7","clusterIPs":["10.96.0.8"],"ports":[{"port":80}]})");
  ASSERT_FALSE(mismatch);
  EXPECT_THAT(mismatch.error().message, HasSubstr("first value must match `clusterIP`"));
}

TEST_F(ServiceRestTest, DryRunReservesNothing) {
  WriteOptions dry;
  dry.dry_run = true;
  auto checked = create_service("a", R"({"clusterIP":"10.96.0.20","ports":[{"port":80}]})", dry);
  ASSERT_TRUE(checked) << checked.error().message;
  EXPECT_EQ(str(*checked, "clusterIP"), "10.96.0.20");
  EXPECT_TRUE(create_service("b", R"({"clusterIP":"10.96.0.20","ports":[{"port":80}]})"));
}

TEST_F(ServiceRestTest, NodePortsAreAllocatedCheckedAndShared) {
  auto s = create_service("np", R"({"type":"NodePort","ports":[
      {"name":"dns-tcp","port":53,"protocol":"TCP"},{"name":"dns-udp","port":53,"protocol":"UDP"},
      {"name":"web","port":80,"nodePort":30080}]})");
  ASSERT_TRUE(s) << s.error().message;
  // Ports of one number share a node port; dynamic ones come after the static 86.
  EXPECT_EQ(node_port(*s, 0), node_port(*s, 1));
  EXPECT_GE(node_port(*s, 0), 30086);
  EXPECT_LE(node_port(*s, 0), 32767);
  EXPECT_EQ(node_port(*s, 2), 30080);
  EXPECT_EQ(str(*s, "externalTrafficPolicy"), "Cluster");

  auto taken =
      create_service("np2", R"({"type":"NodePort","ports":[{"port":80,"nodePort":30080}]})");
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().message,
            R"(Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: )"
            "provided port is already allocated");
  auto outside =
      create_service("np3", R"({"type":"NodePort","ports":[{"port":80,"nodePort":29999}]})");
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().message,
            R"(Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 29999: )"
            "provided port is not in the valid range. The range of valid ports is 30000-32767");
}

TEST_F(ServiceRestTest, LoadBalancerGetsNodePortsAndAHealthCheckPortForLocalTraffic) {
  auto s = create_service(
      "lb", R"({"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":443}]})");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(str(*s, "allocateLoadBalancerNodePorts"), "true");
  EXPECT_GE(node_port(*s, 0), 30000);
  const std::int64_t hc = spec(*s).at("healthCheckNodePort").as_int64();
  EXPECT_GE(hc, 30000);
  EXPECT_NE(hc, node_port(*s, 0));

  auto without = create_service(
      "lb2",
      R"({"type":"LoadBalancer","allocateLoadBalancerNodePorts":false,"ports":[{"port":443}]})");
  ASSERT_TRUE(without) << without.error().message;
  EXPECT_FALSE(spec(*without).at("ports").as_array()[0].as_object().contains("nodePort"));
}

TEST_F(ServiceRestTest, HeadlessAndExternalNameServicesGetNoAddress) {
  auto headless = create_service("h", R"({"clusterIP":"None","selector":{"app":"db"}})");
  ASSERT_TRUE(headless) << headless.error().message;
  EXPECT_EQ(str(*headless, "clusterIPs"), R"(["None"])");
  EXPECT_EQ(str(*headless, "ipFamilyPolicy"), "SingleStack");
  EXPECT_EQ(str(*headless, "ipFamilies"), R"(["IPv4"])");

  // Without a selector a headless Service may be dual-stack even here.
  auto bare = create_service("h2", R"({"clusterIP":"None"})");
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_EQ(str(*bare, "ipFamilyPolicy"), "RequireDualStack");
  EXPECT_EQ(str(*bare, "ipFamilies"), R"(["IPv4","IPv6"])");

  auto external = create_service("x", R"({"type":"ExternalName","externalName":"db.example.com"})");
  ASSERT_TRUE(external) << external.error().message;
  EXPECT_EQ(str(*external, "clusterIP"), "<absent>");
  EXPECT_EQ(str(*external, "ipFamilies"), "<absent>");
  EXPECT_EQ(str(*external, "ipFamilyPolicy"), "<absent>");
  EXPECT_EQ(str(*external, "internalTrafficPolicy"), "<absent>");
}

TEST_F(ServiceRestTest, DualStackRequestsAreRefusedOnThisSingleStackCluster) {
  auto required =
      create_service("d", R"({"ipFamilyPolicy":"RequireDualStack","ports":[{"port":80}]})");
  ASSERT_FALSE(required);
  EXPECT_EQ(required.error().message,
            R"(Service "d" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": )"
            "this cluster is not configured for dual-stack services");
  auto v6 = create_service("e", R"({"ipFamilies":["IPv6"],"ports":[{"port":80}]})");
  ASSERT_FALSE(v6);
  EXPECT_EQ(v6.error().message,
            R"(Service "e" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": )"
            "not configured on this cluster");
  // PreferDualStack falls back to the one family.
  auto preferred =
      create_service("f", R"({"ipFamilyPolicy":"PreferDualStack","ports":[{"port":80}]})");
  ASSERT_TRUE(preferred) << preferred.error().message;
  EXPECT_EQ(str(*preferred, "ipFamilies"), R"(["IPv4"])");
}

TEST_F(ServiceRestTest, UpdatesKeepAllocatedValuesAndFollowTypeChanges) {
  auto s =
      create_service("web", R"({"selector":{"app":"web"},"ports":[{"name":"http","port":80}]})");
  ASSERT_TRUE(s) << s.error().message;
  const std::string ip = str(*s, "clusterIP");

  // A manifest without the allocated values keeps them.
  auto same =
      update(services(), "default", "web",
             service("web", R"({"selector":{"app":"web"},"ports":[{"name":"http","port":80}]})"));
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(str(parse_stored(*same->object), "clusterIP"), ip);

  // ClusterIP -> NodePort allocates node ports; the IP stays.
  auto np = update(services(), "default", "web",
                   service("web", R"({"type":"NodePort","selector":{"app":"web"},
                                      "ports":[{"name":"http","port":80}]})"));
  ASSERT_TRUE(np) << np.error().message;
  const json::object as_node_port = parse_stored(*np->object);
  EXPECT_EQ(str(as_node_port, "clusterIP"), ip);
  const std::int64_t allocated = node_port(as_node_port, 0);
  EXPECT_GE(allocated, 30000);

  // Leaving the node port out keeps it (same port name).
  auto kept = update(services(), "default", "web",
                     service("web", R"({"type":"NodePort","selector":{"app":"web"},
                                        "ports":[{"name":"http","port":80}]})"));
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ(node_port(parse_stored(*kept->object), 0), allocated);

  // Back to ClusterIP: the node ports and externalTrafficPolicy it kept go.
  json::object back = parse_stored(*kept->object);
  back["spec"].as_object()["type"] = "ClusterIP";
  auto cluster_ip = update(services(), "default", "web", back);
  ASSERT_TRUE(cluster_ip) << cluster_ip.error().message;
  const json::object as_cluster_ip = parse_stored(*cluster_ip->object);
  EXPECT_FALSE(spec(as_cluster_ip).at("ports").as_array()[0].as_object().contains("nodePort"));
  EXPECT_EQ(str(as_cluster_ip, "externalTrafficPolicy"), "<absent>");

  // The freed node port can be requested by another Service.
  EXPECT_TRUE(
      create_service("other", "{\"type\":\"NodePort\",\"ports\":[{\"port\":81,\"nodePort\":" +
                                  std::to_string(allocated) + "}]}"));

  // To ExternalName: the address goes, and a new one comes back after.
  json::object external = as_cluster_ip;
  external["spec"].as_object()["type"] = "ExternalName";
  external["spec"].as_object()["externalName"] = "web.example.com";
  auto as_external = update(services(), "default", "web", external);
  ASSERT_TRUE(as_external) << as_external.error().message;
  EXPECT_EQ(str(parse_stored(*as_external->object), "clusterIP"), "<absent>");
  auto again =
      update(services(), "default", "web",
             service("web", R"({"selector":{"app":"web"},"ports":[{"name":"http","port":80}]})"));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_NE(str(parse_stored(*again->object), "clusterIP"), "<absent>");
}

TEST_F(ServiceRestTest, StatusUpdatesKeepTheSpec) {
  auto s = create_service("lb", R"({"type":"LoadBalancer","ports":[{"port":80}]})");
  ASSERT_TRUE(s) << s.error().message;
  json::object with_status = *s;
  with_status["spec"].as_object()["selector"] = json::object{{"app", "ignored"}};
  with_status["status"] = json::parse(R"({"loadBalancer":{"ingress":[{"ip":"203.0.113.7"}]}})");
  auto r = update(services(), "default", "lb", with_status, Subresource::kStatus);
  ASSERT_TRUE(r) << r.error().message;
  const json::object stored = parse_stored(*r->object);
  EXPECT_EQ(str(stored, "selector"), "<absent>");
  // The IP mode defaults to VIP.
  EXPECT_EQ(json::serialize(stored.at("status")),
            R"({"loadBalancer":{"ingress":[{"ip":"203.0.113.7","ipMode":"VIP"}]}})");
}

}  // namespace
}  // namespace kcm::local::apiserver
