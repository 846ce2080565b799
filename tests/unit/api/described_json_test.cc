#include "api/described_json.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/condition.h"
#include "api/kinds/node.h"
#include "api/quantity.h"
#include "api_test_util.h"

namespace kcm::api {
namespace {

// --- the kinds and structs under test ----------------------------------------

struct EcsBindSpec {
  std::string instance_id;
  std::string private_ip;
  std::optional<std::string> node_name;
  UnknownFields extra;
  static constexpr JsonMember json_members[] = {{.member = "private_ip", .json = "privateIP"}};
};
BOOST_DESCRIBE_STRUCT(EcsBindSpec, (), (instance_id, private_ip, node_name, extra))

struct EcsBindStatus {
  std::string phase;
  std::string reason;
  std::string message;
  std::string node_name;
  std::int64_t observed_generation = 0;
  std::vector<Condition> conditions;
  UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBindStatus, (),
                      (phase, reason, message, node_name, observed_generation, conditions, extra))

struct EcsBind {
  static constexpr KindInfo kind_info{.group = "ecsbind.kcm.dev",
                                      .version = "v1",
                                      .kind = "EcsBind",
                                      .plural = "ecsbinds",
                                      .scope = Scope::kCluster};
  ObjectMeta metadata;
  EcsBindSpec spec;
  EcsBindStatus status;
  UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, status, extra))

struct Inner {
  std::string name;
  std::int32_t weight = 0;
};
BOOST_DESCRIBE_STRUCT(Inner, (), (name, weight))

// Every supported member type; no UnknownFields, so unknown members are dropped.
struct Scalars {
  std::int32_t i32 = 0;
  std::int64_t i64 = 0;
  std::uint32_t u32 = 0;
  double d = 0;
  bool b = false;
  std::string s;
  std::vector<std::string> list;
  std::map<std::string, std::int32_t> counts;
  json::value raw;
  std::optional<std::int64_t> opt;
  std::optional<std::string> opt_s;
  Time when;
  std::optional<Time> maybe_when;
  Quantity size;
  Inner inner;
  std::vector<Inner> inners;
  std::optional<Inner> maybe_inner;
  std::string namespace_;
  std::string kept;
  std::vector<std::string> kept_list;
  std::optional<bool> kept_opt;
  static constexpr JsonMember json_members[] = {
      {.member = "kept", .keep_empty = true},
      {.member = "kept_list", .json = "keptList", .keep_empty = true},
      {.member = "kept_opt", .keep_empty = true},
  };
};
BOOST_DESCRIBE_STRUCT(Scalars, (),
                      (i32, i64, u32, d, b, s, list, counts, raw, opt, opt_s, when, maybe_when,
                       size, inner, inners, maybe_inner, namespace_, kept, kept_list, kept_opt))

template <class T>
T decode_ok(std::string_view text) {
  auto r = decode_json<T>(parse_test_json(text));
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error());
  return r.ok() ? std::move(*r) : T{};
}

Time at(std::int64_t unix_seconds) {
  return Time(Time::TimePoint(std::chrono::seconds(unix_seconds)));
}

// --- names --------------------------------------------------------------------

TEST(DescribedJsonTest, LowerCamelCase) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"instance_id", "instanceId"},
      {"observed_generation", "observedGeneration"},
      {"last_transition_time", "lastTransitionTime"},
      {"name", "name"},
      {"namespace_", "namespace"},
      {"continue_", "continue"},
      {"a_b_c", "aBC"},
      {"already_camelCase", "alreadyCamelCase"},
      {"x1_y2", "x1Y2"},
      {"_leading", "leading"},
      {"double__underscore", "doubleUnderscore"},
      {"", ""},
  };
  for (const auto& [member, json_name] : cases)
    EXPECT_EQ(lower_camel_case(member), json_name) << member;
}

TEST(DescribedJsonTest, KindInfo) {
  EXPECT_EQ(EcsBind::kind_info.api_version(), "ecsbind.kcm.dev/v1");
  EXPECT_EQ(EcsBind::kind_info.gvr(), (GroupVersionResource{"ecsbind.kcm.dev", "v1", "ecsbinds"}));
  EXPECT_EQ(EcsBind::kind_info.group_resource().string(), "ecsbinds.ecsbind.kcm.dev");
  EXPECT_FALSE(EcsBind::kind_info.namespaced());
  EXPECT_EQ(core_v1::Node::kind_info.api_version(), "v1");
  EXPECT_EQ(core_v1::Node::kind_info.gvk(), (GroupVersionKind{"", "v1", "Node"}));
  static_assert(Kind<EcsBind>);
  static_assert(Kind<core_v1::Node>);
  static_assert(!Kind<EcsBindSpec>);
  static_assert(Described<Inner>);
}

// --- decoding -------------------------------------------------------------------

TEST(DescribedJsonTest, DecodesAKind) {
  const EcsBind b = decode_ok<EcsBind>(R"({
    "apiVersion": "ecsbind.kcm.dev/v1", "kind": "EcsBind",
    "metadata": {"name": "bind-1", "generation": 3, "labels": {"app": "ecs"}},
    "spec": {"instanceId": "i-abc", "privateIP": "10.0.0.7", "nodeName": "node-a"},
    "status": {"phase": "Bound", "observedGeneration": 3, "nodeName": "node-a",
               "conditions": [{"type": "Ready", "status": "True", "observedGeneration": 3,
                               "lastTransitionTime": "2026-01-02T03:04:05Z",
                               "reason": "NodeRegistered", "message": ""}]}})");
  EXPECT_EQ(b.metadata.name, "bind-1");
  EXPECT_EQ(b.metadata.generation, 3);
  EXPECT_EQ(b.metadata.labels.at("app"), "ecs");
  EXPECT_EQ(b.spec.instance_id, "i-abc");
  EXPECT_EQ(b.spec.private_ip, "10.0.0.7");
  EXPECT_EQ(b.spec.node_name, "node-a");
  EXPECT_EQ(b.status.phase, "Bound");
  EXPECT_EQ(b.status.observed_generation, 3);
  ASSERT_EQ(b.status.conditions.size(), 1u);
  const Condition& c = b.status.conditions[0];
  EXPECT_EQ(c.type, "Ready");
  EXPECT_EQ(c.status, "True");
  EXPECT_EQ(c.observed_generation, 3);
  EXPECT_EQ(c.last_transition_time.to_string(), "2026-01-02T03:04:05Z");
  EXPECT_EQ(c.reason, "NodeRegistered");
  EXPECT_TRUE(b.extra.empty());
}

TEST(DescribedJsonTest, DecodesEveryMemberType) {
  const Scalars s = decode_ok<Scalars>(R"({
    "i32": -5, "i64": 9007199254740993, "u32": 4294967295, "d": 1.5, "b": true, "s": "x",
    "list": ["a", "b"], "counts": {"x": 1, "y": 2}, "raw": {"any": [1, "two", null]},
    "opt": 0, "optS": "", "when": "2026-01-02T03:04:05Z", "maybeWhen": "2026-01-02T03:04:06Z",
    "size": "1500m", "inner": {"name": "n", "weight": 2}, "inners": [{"name": "a"}, {}],
    "maybeInner": {}, "namespace": "ns", "kept": "k", "keptList": ["z"], "keptOpt": false,
    "unknown": "dropped"})");
  EXPECT_EQ(s.i32, -5);
  EXPECT_EQ(s.i64, 9007199254740993);
  EXPECT_EQ(s.u32, 4294967295u);
  EXPECT_EQ(s.d, 1.5);
  EXPECT_TRUE(s.b);
  EXPECT_EQ(s.s, "x");
  EXPECT_EQ(s.list, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.counts, (std::map<std::string, std::int32_t>{{"x", 1}, {"y", 2}}));
  EXPECT_EQ(s.raw, parse_test_json(R"({"any": [1, "two", null]})"));
  EXPECT_EQ(s.opt, 0);
  EXPECT_EQ(s.opt_s, "");
  EXPECT_EQ(s.when, at(1767323045));
  EXPECT_EQ(s.maybe_when, at(1767323046));
  EXPECT_EQ(s.size.to_string(), "1500m");
  EXPECT_EQ(s.inner.name, "n");
  EXPECT_EQ(s.inner.weight, 2);
  ASSERT_EQ(s.inners.size(), 2u);
  EXPECT_EQ(s.inners[0].name, "a");
  EXPECT_EQ(s.inners[1].name, "");
  ASSERT_TRUE(s.maybe_inner.has_value());
  EXPECT_EQ(s.maybe_inner->name, "");
  EXPECT_EQ(s.namespace_, "ns");
  EXPECT_EQ(s.kept, "k");
  EXPECT_EQ(s.kept_list, (std::vector<std::string>{"z"}));
  EXPECT_EQ(s.kept_opt, false);
}

TEST(DescribedJsonTest, NullIsTheZeroValue) {
  const Scalars s = decode_ok<Scalars>(R"({
    "i32": null, "s": null, "list": null, "counts": null, "opt": null, "when": null,
    "inner": null, "inners": [null], "maybeInner": null, "raw": null})");
  EXPECT_EQ(s.i32, 0);
  EXPECT_EQ(s.s, "");
  EXPECT_TRUE(s.list.empty());
  EXPECT_TRUE(s.counts.empty());
  EXPECT_FALSE(s.opt.has_value());
  EXPECT_TRUE(s.when.is_zero());
  EXPECT_EQ(s.inner.name, "");
  ASSERT_EQ(s.inners.size(), 1u);
  EXPECT_FALSE(s.maybe_inner.has_value());
  EXPECT_TRUE(s.raw.is_null());
}

TEST(DescribedJsonTest, BadInputNamesThePath) {
  struct Case {
    std::string input;
    std::string error;
  };
  const std::vector<Case> cases = {
      {R"("x")", "spec: expected object, got string"},
      {R"([])", "spec: expected object, got array"},
      {R"({"i32": "1"})", "spec.i32: expected integer, got string"},
      {R"({"i32": 1.5})", "spec.i32: expected integer, got number"},
      {R"({"i32": 2147483648})", "spec.i32: integer out of range for int32"},
      {R"({"i32": -2147483649})", "spec.i32: integer out of range for int32"},
      {R"({"i64": 9223372036854775808})", "spec.i64: integer out of range for int64"},
      {R"({"u32": -1})", "spec.u32: integer out of range for uint32"},
      {R"({"u32": 4294967296})", "spec.u32: integer out of range for uint32"},
      {R"({"d": "1"})", "spec.d: expected number, got string"},
      {R"({"b": "true"})", "spec.b: expected boolean, got string"},
      {R"({"b": 1})", "spec.b: expected boolean, got number"},
      {R"({"s": 1})", "spec.s: expected string, got number"},
      {R"({"s": {}})", "spec.s: expected string, got object"},
      {R"({"list": "a"})", "spec.list: expected array, got string"},
      {R"({"list": ["a", 2]})", "spec.list[1]: expected string, got number"},
      {R"({"counts": []})", "spec.counts: expected object, got array"},
      {R"({"counts": {"x": 1, "y": "2"}})", "spec.counts[y]: expected integer, got string"},
      {R"({"opt": true})", "spec.opt: expected integer, got boolean"},
      // Types that decode themselves keep their own messages.
      {R"({"when": 5})", "spec.when: json: cannot unmarshal number into Go value of type string"},
      {R"({"when": "yesterday"})",
       R"(spec.when: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006")"},
      {R"({"maybeWhen": false})",
       "spec.maybeWhen: json: cannot unmarshal bool into Go value of type string"},
      {R"({"inner": []})", "spec.inner: expected object, got array"},
      {R"({"inner": {"weight": "3"}})", "spec.inner.weight: expected integer, got string"},
      {R"({"inners": [{}, {"name": 3}]})", "spec.inners[1].name: expected string, got number"},
      {R"({"inners": [7]})", "spec.inners[0]: expected object, got number"},
      {R"({"maybeInner": "x"})", "spec.maybeInner: expected object, got string"},
      {R"({"keptOpt": "no"})", "spec.keptOpt: expected boolean, got string"},
  };
  for (const Case& c : cases) {
    auto r = decode_json<Scalars>(parse_test_json(c.input), "spec");
    ASSERT_FALSE(r.ok()) << c.input;
    EXPECT_EQ(r.error(), c.error) << c.input;
  }
}

TEST(DescribedJsonTest, BadKindsNameTheMember) {
  struct Case {
    std::string input;
    std::string error;
  };
  const std::vector<Case> cases = {
      {R"(null)", "expected object, got null"},
      {R"({"kind": "Pod"})", R"(kind: expected "EcsBind", got "Pod")"},
      {R"({"apiVersion": "v1"})", R"(apiVersion: expected "ecsbind.kcm.dev/v1", got "v1")"},
      {R"({"apiVersion": "ecsbind.kcm.dev/v2"})",
       R"(apiVersion: expected "ecsbind.kcm.dev/v1", got "ecsbind.kcm.dev/v2")"},
      {R"({"kind": 1})", "kind: expected string, got number"},
      {R"({"metadata": {"labels": "x"}})", "metadata.labels: expected object, got string"},
      {R"({"metadata": []})", "metadata: expected object, got array"},
      {R"({"spec": {"privateIP": 10}})", "spec.privateIP: expected string, got number"},
      {R"({"spec": {"nodeName": []}})", "spec.nodeName: expected string, got array"},
      {R"({"status": {"conditions": [{"type": "Ready", "lastTransitionTime": "2026-13-01T00:00:00Z"}]}})",
       R"(status.conditions[0].lastTransitionTime: parsing time "2026-13-01T00:00:00Z": month out of range)"},
      {R"({"status": {"conditions": {}}})", "status.conditions: expected array, got object"},
  };
  for (const Case& c : cases) {
    auto r = decode_json<EcsBind>(parse_test_json(c.input));
    ASSERT_FALSE(r.ok()) << c.input;
    EXPECT_EQ(r.error(), c.error) << c.input;
  }
  // Absent, null or empty kind/apiVersion are accepted (list items may lack them).
  for (const char* ok : {R"({})", R"({"kind": null, "apiVersion": ""})"})
    EXPECT_TRUE(decode_json<EcsBind>(parse_test_json(ok)).ok()) << ok;
}

TEST(DescribedJsonTest, DecodeObjectFailureIsAnInternalErrorStatus) {
  auto r = decode_object<EcsBind>(
      parse_test_json(R"({"metadata": {"name": "bind-1"}, "spec": {"instanceId": 7}})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, 500);
  EXPECT_EQ(r.error().reason, "InternalError");
  EXPECT_EQ(r.error().message,
            R"(unable to decode EcsBind "bind-1": spec.instanceId: expected string, got number)");
  auto unnamed = decode_object<EcsBind>(parse_test_json(R"({"spec": 1})"));
  ASSERT_FALSE(unnamed.ok());
  EXPECT_EQ(unnamed.error().message, "unable to decode EcsBind: spec: expected object, got number");
}

// --- encoding -------------------------------------------------------------------

TEST(DescribedJsonTest, EncodesANewKindCanonically) {
  EcsBind b;
  b.metadata.name = "bind-1";
  b.spec.instance_id = "i-abc";
  b.spec.private_ip = "10.0.0.7";
  EXPECT_EQ(to_json_string(encode_json(b)),
            R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"bind-1"},)"
            R"("spec":{"instanceId":"i-abc","privateIP":"10.0.0.7"}})");

  b.spec.node_name = "";  // set: written even when empty
  b.status.phase = "Bound";
  set_condition(b.status.conditions,
                {.type = "Ready", .status = "True", .reason = "Bound", .message = ""},
                at(1767323045));
  EXPECT_EQ(to_json_string(encode_json(b)),
            R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"bind-1"},)"
            R"("spec":{"instanceId":"i-abc","privateIP":"10.0.0.7","nodeName":""},)"
            R"("status":{"phase":"Bound","conditions":[{"type":"Ready","status":"True",)"
            R"("lastTransitionTime":"2026-01-02T03:04:05Z","reason":"Bound","message":""}]}})");
}

TEST(DescribedJsonTest, OmitEmptyAndKeepEmpty) {
  // Zero values are left out; keep_empty members are always written. A zero
  // Quantity is "0", not empty (Go writes it too).
  EXPECT_EQ(to_json_string(encode_json(Scalars{})),
            R"({"size":"0","kept":"","keptList":[],"keptOpt":null})");

  Scalars s;
  s.i32 = -1;
  s.u32 = 7;
  s.d = 3.0;  // Go writes integral floats without a fraction
  s.b = true;
  s.list = {""};
  s.counts = {{"z", 0}, {"a", 1}};
  s.raw = parse_test_json(R"({"k": [null]})");
  s.opt = 0;
  s.when = at(0);
  s.maybe_when = Time();  // set but zero: null, as Go's *metav1.Time
  s.inner.weight = 1;
  s.inners = {Inner{}};
  s.maybe_inner = Inner{};
  s.namespace_ = "ns";
  s.kept_opt = false;
  EXPECT_EQ(
      to_json_string(encode_json(s)),
      R"({"i32":-1,"u32":7,"d":3,"b":true,"list":[""],"counts":{"a":1,"z":0},)"
      R"("raw":{"k":[null]},"opt":0,"when":"1970-01-01T00:00:00Z","maybeWhen":null,"size":"0",)"
      R"("inner":{"weight":1},"inners":[{}],"maybeInner":{},"namespace":"ns",)"
      R"("kept":"","keptList":[],"keptOpt":false})");

  s = Scalars{};
  s.d = 0.25;
  EXPECT_EQ(encode_json(s).as_object().at("d"), json::value(0.25));
}

TEST(DescribedJsonTest, EncodeDecodeAgree) {
  Scalars s;
  s.i64 = -9007199254740993;
  s.s = "hé\"llo";
  s.counts = {{"k", -3}};
  s.opt_s = "";
  s.inners = {Inner{"a", 1}, Inner{"b", 2}};
  s.size = Quantity::parse("2Gi").value();
  const Scalars back = decode_ok<Scalars>(to_json_string(encode_json(s)));
  EXPECT_EQ(back.i64, s.i64);
  EXPECT_EQ(back.s, s.s);
  EXPECT_EQ(back.counts, s.counts);
  EXPECT_EQ(back.opt_s, "");
  ASSERT_EQ(back.inners.size(), 2u);
  EXPECT_EQ(back.inners[1].name, "b");
  EXPECT_EQ(back.inners[1].weight, 2);
  EXPECT_EQ(back.size.to_string(), "2Gi");
}

// --- lossless round trips ----------------------------------------------------------

TEST(DescribedJsonTest, UnchangedStructsRoundTripExactly) {
  const std::vector<std::string> inputs = {
      // What the API server answers: Go order, empty members it writes, unknown members.
      R"({"apiVersion":"ecsbind.kcm.dev/v1","kind":"EcsBind","metadata":{"creationTimestamp":"2026-01-02T03:04:05Z","generation":1,"managedFields":[{"manager":"kubectl"}],"name":"bind-1","resourceVersion":"42","uid":"u-1"},"spec":{"instanceId":"i-abc","privateIP":"10.0.0.7","zone":"cn-hangzhou-h"},"status":{"conditions":[{"lastTransitionTime":"2026-01-02T03:04:05Z","message":"","observedGeneration":1,"reason":"Bound","status":"True","type":"Ready","extra":{"x":1}}],"phase":"Bound"}})",
      // Unknown members first, interleaved and last; empty and null modelled members.
      R"({"zzz":1,"spec":{"nodeName":null,"instanceId":"","later":[1,2]},"kind":"EcsBind","status":{"conditions":[],"observedGeneration":0,"reason":null,"message":""},"metadata":{},"apiVersion":"ecsbind.kcm.dev/v1","aaa":{"b":[]}})",
      // An empty optional, an empty status; type meta last.
      R"({"spec":{"nodeName":""},"status":{},"apiVersion":"ecsbind.kcm.dev/v1","kind":"EcsBind"})",
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1"})",
  };
  for (const std::string& input : inputs) {
    const EcsBind b = decode_ok<EcsBind>(input);
    EXPECT_EQ(to_json_string(encode_json(b)), input);
    // Copies keep the layout too.
    const EcsBind copy = b;
    EXPECT_EQ(to_json_string(encode_json(copy)), input);
  }
}

TEST(DescribedJsonTest, NodeFromTheApiServerRoundTripsExactly) {
  const std::string input =
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a","uid":"n-1","resourceVersion":"7","creationTimestamp":"2026-01-02T03:04:05Z","labels":{"kubernetes.io/hostname":"node-a"}},)"
      R"("spec":{"podCIDR":"10.244.0.0/24","podCIDRs":["10.244.0.0/24"],"providerID":"ecs://i-abc","taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule","timeAdded":"2026-01-02T03:04:05Z"}]},)"
      R"("status":{"capacity":{"cpu":"4","memory":"8Gi"},"allocatable":{"cpu":"4"},)"
      R"("conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-02T03:04:05Z","lastTransitionTime":"2026-01-02T03:04:05Z","reason":"KubeletReady","message":"kubelet is posting ready status"},)"
      R"({"type":"DiskPressure","status":"False","lastHeartbeatTime":null,"lastTransitionTime":null}],)"
      R"("addresses":[{"type":"InternalIP","address":"10.0.0.7"},{"type":"Hostname","address":"node-a"}],)"
      R"("daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},"nodeInfo":{"kubeletVersion":"v1.31.0"}}})";
  const core_v1::Node n = decode_ok<core_v1::Node>(input);
  EXPECT_EQ(n.spec.provider_id, "ecs://i-abc");
  ASSERT_EQ(n.spec.taints.size(), 1u);
  EXPECT_EQ(n.spec.taints[0].effect, core_v1::taint_effect::kNoSchedule);
  EXPECT_EQ(n.spec.taints[0].time_added, at(1767323045));
  ASSERT_EQ(n.status.addresses.size(), 2u);
  EXPECT_EQ(n.status.addresses[0].type, core_v1::node_address_type::kInternalIP);
  EXPECT_EQ(n.status.addresses[0].address, "10.0.0.7");
  const core_v1::NodeCondition* ready = core_v1::find_node_condition(n, "Ready");
  ASSERT_NE(ready, nullptr);
  EXPECT_EQ(ready->reason, "KubeletReady");
  EXPECT_EQ(core_v1::find_node_condition(n, "MemoryPressure"), nullptr);
  EXPECT_EQ(n.status.extra.fields().at("capacity"),
            parse_test_json(R"({"cpu":"4","memory":"8Gi"})"));
  EXPECT_EQ(to_json_string(encode_json(n)), input);
}

TEST(DescribedJsonTest, ChangesKeepUnknownMembersAndOrder) {
  const std::string input =
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a"},)"
      R"("spec":{"podCIDR":"10.244.0.0/24","providerID":"ecs://i-abc"},)"
      R"("status":{"capacity":{"cpu":"4"},"addresses":[{"type":"InternalIP","address":"10.0.0.7"}]}})";
  core_v1::Node n = decode_ok<core_v1::Node>(input);
  n.spec.unschedulable = true;
  n.spec.provider_id.clear();
  n.status.addresses.push_back({.type = "Hostname", .address = "node-a"});
  n.status.conditions.push_back({.type = "Ready", .status = "Unknown"});
  n.extra.fields()["newTopLevel"] = "x";
  // Members in the input keep their places (providerID now empty: written
  // empty, as it was present); new ones follow in declaration order.
  EXPECT_EQ(
      to_json_string(encode_json(n)),
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a"},)"
      R"("spec":{"podCIDR":"10.244.0.0/24","providerID":"","unschedulable":true},)"
      R"("status":{"capacity":{"cpu":"4"},"addresses":[{"type":"InternalIP","address":"10.0.0.7"},)"
      R"({"type":"Hostname","address":"node-a"}],"conditions":[{"type":"Ready","status":"Unknown"}]},)"
      R"("newTopLevel":"x"})");

  // An unknown member removed by the caller is gone.
  n.status.extra.fields().erase("capacity");
  EXPECT_FALSE(encode_json(n).at("status").as_object().contains("capacity"));
}

TEST(DescribedJsonTest, TypeMetaGoesFirstWhenTheInputHadNone) {
  const core_v1::Node n = decode_ok<core_v1::Node>(R"({"metadata":{"name":"a"},"x":1})");
  EXPECT_EQ(to_json_string(encode_json(n)),
            R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"a"},"x":1})");
}

TEST(DescribedJsonTest, StructsWithoutUnknownFieldsDropUnknownMembers) {
  const Inner i = decode_ok<Inner>(R"({"weight":2,"name":"n","other":true})");
  EXPECT_EQ(to_json_string(encode_json(i)), R"({"name":"n","weight":2})");
}

// --- conditions -----------------------------------------------------------------------

TEST(ConditionTest, SetConditionFollowsUpstream) {
  const Time t0 = at(1000);
  const Time t1 = at(2000);
  const Time t_given = at(3000);
  struct Case {
    std::string name;
    std::vector<Condition> start;
    Condition set;
    bool changed;
    std::vector<Condition> want;
  };
  const Condition ready{.type = "Ready",
                        .status = "True",
                        .observed_generation = 1,
                        .last_transition_time = t0,
                        .reason = "Up",
                        .message = "m"};
  auto with = [](Condition c, auto&& change) {
    change(c);
    return c;
  };
  const std::vector<Case> cases = {
      {"new condition gets now",
       {},
       {.type = "Ready", .status = "True", .reason = "Up"},
       true,
       {{.type = "Ready", .status = "True", .last_transition_time = t1, .reason = "Up"}}},
      {"new condition keeps its time",
       {},
       {.type = "Ready", .status = "True", .last_transition_time = t_given},
       true,
       {{.type = "Ready", .status = "True", .last_transition_time = t_given}}},
      {"same values: no change",
       {ready},
       with(ready, [](Condition& c) { c.last_transition_time = {}; }),
       false,
       {ready}},
      {"status change moves the time to now",
       {ready},
       with(ready,
            [](Condition& c) {
              c.status = "False";
              c.last_transition_time = {};
            }),
       true,
       {with(ready,
             [&](Condition& c) {
               c.status = "False";
               c.last_transition_time = t1;
             })}},
      {"status change takes the given time",
       {ready},
       with(ready,
            [&](Condition& c) {
              c.status = "Unknown";
              c.last_transition_time = t_given;
            }),
       true,
       {with(ready,
             [&](Condition& c) {
               c.status = "Unknown";
               c.last_transition_time = t_given;
             })}},
      {"reason, message and generation change without a transition",
       {ready},
       with(ready,
            [&](Condition& c) {
              c.reason = "Other";
              c.message = "";
              c.observed_generation = 2;
              c.last_transition_time = t_given;
            }),
       true,
       {with(ready,
             [](Condition& c) {
               c.reason = "Other";
               c.message = "";
               c.observed_generation = 2;
             })}},
      {"other types are untouched and order kept",
       {ready, {.type = "Synced", .status = "False", .last_transition_time = t0}},
       {.type = "Synced", .status = "True"},
       true,
       {ready, {.type = "Synced", .status = "True", .last_transition_time = t1}}},
  };
  for (const Case& c : cases) {
    std::vector<Condition> conditions = c.start;
    EXPECT_EQ(set_condition(conditions, c.set, t1), c.changed) << c.name;
    EXPECT_EQ(conditions, c.want) << c.name;
  }
}

TEST(ConditionTest, FindRemoveAndPredicates) {
  std::vector<Condition> conditions = {
      {.type = "Ready", .status = "True"},
      {.type = "Synced", .status = "False"},
  };
  ASSERT_NE(find_condition(conditions, "Synced"), nullptr);
  EXPECT_EQ(find_condition(conditions, "Synced")->status, "False");
  EXPECT_EQ(find_condition(conditions, "Missing"), nullptr);
  const auto& const_conditions = conditions;
  EXPECT_EQ(find_condition(const_conditions, "Ready"), &conditions[0]);
  EXPECT_TRUE(is_condition_true(conditions, "Ready"));
  EXPECT_FALSE(is_condition_false(conditions, "Ready"));
  EXPECT_TRUE(is_condition_false(conditions, "Synced"));
  EXPECT_FALSE(is_condition_true(conditions, "Missing"));
  EXPECT_FALSE(is_condition_false(conditions, "Missing"));
  EXPECT_TRUE(is_condition_present_and_equal(conditions, "Synced", "False"));
  EXPECT_TRUE(remove_condition(conditions, "Ready"));
  EXPECT_FALSE(remove_condition(conditions, "Ready"));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].type, "Synced");
}

TEST(ConditionTest, DefaultNowIsWholeSeconds) {
  std::vector<Condition> conditions;
  set_condition(conditions, {.type = "Ready", .status = "True"});
  ASSERT_EQ(conditions.size(), 1u);
  const Time t = conditions[0].last_transition_time;
  EXPECT_FALSE(t.is_zero());
  EXPECT_EQ(t, t.rfc3339_copy());
}

}  // namespace
}  // namespace kcm::api
