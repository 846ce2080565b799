#include "api/schema/canonical.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/schema/registry.h"

namespace kcm::api::schema {
namespace {

json::value parse(std::string_view text) {
  std::string error;
  auto v = parse_json(text, &error);
  EXPECT_TRUE(v.has_value()) << error << " in " << text;
  return v ? std::move(*v) : json::value();
}

const Type& builtin(std::string_view package, std::string_view name) {
  const Type* t = Registry::builtin().find(package, name);
  if (t == nullptr) ADD_FAILURE() << "no type " << package << "." << name;
  return t != nullptr ? *t : *Registry::builtin().find("meta/v1", "ObjectMeta");
}

std::string canon(const Type& type, std::string_view in, const CanonicalOptions& opts = {}) {
  json::value v = parse(in);
  canonicalize(v, type, opts);
  return to_json_string(v);
}

std::string canon(std::string_view package, std::string_view name, std::string_view in,
                  const CanonicalOptions& opts = {}) {
  return canon(builtin(package, name), in, opts);
}

std::vector<std::string> keys(const json::value& v) {
  std::vector<std::string> out;
  for (const auto& kv : v.as_object())
    out.emplace_back(kv.key());
  return out;
}

struct CanonicalCase {
  const char* what;
  const char* package;
  const char* type;
  const char* in;
  const char* want;
};

void run(const std::vector<CanonicalCase>& cases) {
  for (const auto& c : cases) {
    EXPECT_EQ(canon(c.package, c.type, c.in), c.want) << c.what;
    // Every result is a fixed point.
    EXPECT_EQ(canon(c.package, c.type, c.want), c.want) << c.what << " (second pass)";
  }
}

TEST(Canonical, DropsUnknownFields) {
  run({
      {"unknown top-level field", "apps/v1", "ReplicaSetStatus", R"({"replicas":1,"foo":2})",
       R"({"replicas":1})"},
      {"unknown field in a list element", "core/v1", "PodSpec",
       R"({"containers":[{"name":"a","imagee":"x"}],"foo":{"bar":1}})",
       R"({"containers":[{"name":"a","resources":{}}]})"},
      {"names are case-sensitive", "core/v1", "ContainerPort", R"({"ContainerPort":80})",
       R"({"containerPort":0})"},
      {"an inline struct has no name of its own", "core/v1", "Volume",
       R"({"name":"v","volumeSource":{"emptyDir":{}}})", R"({"name":"v"})"},
  });
}

TEST(Canonical, NullsAndOmitEmptyZeros) {
  run({
      {"null string, map and list", "meta/v1", "ObjectMeta",
       R"({"name":null,"labels":null,"finalizers":null})", R"({"creationTimestamp":null})"},
      {"empty annotations after the last one is removed", "meta/v1", "ObjectMeta",
       R"({"name":"a","annotations":{}})", R"({"name":"a","creationTimestamp":null})"},
      {"empty strings and lists", "core/v1", "Container",
       R"({"name":"a","image":"","args":[],"env":[],"workingDir":""})",
       R"({"name":"a","resources":{}})"},
      {"zero scalars, including paused: false (a bool, not a pointer)", "apps/v1", "DeploymentSpec",
       R"({"minReadySeconds":0,"paused":false,"template":{}})",
       R"({"selector":null,"template":{"metadata":{"creationTimestamp":null},)"
       R"("spec":{"containers":null}},"strategy":{}})"},
      {"non-zero scalars stay", "apps/v1", "DeploymentStatus",
       R"({"replicas":3,"observedGeneration":2,"readyReplicas":0})",
       R"({"observedGeneration":2,"replicas":3})"},
  });
}

TEST(Canonical, PointersKeepTheirZeroValues) {
  run({
      {"*int32 zero", "apps/v1", "DeploymentSpec",
       R"({"replicas":0,"revisionHistoryLimit":0,"progressDeadlineSeconds":0,"selector":{}})",
       R"({"replicas":0,"selector":{},"template":{"metadata":{"creationTimestamp":null},)"
       R"("spec":{"containers":null}},"strategy":{},"revisionHistoryLimit":0,)"
       R"("progressDeadlineSeconds":0})"},
      {"*bool false and *string empty", "core/v1", "PodSpec",
       R"({"containers":[],"enableServiceLinks":false,"runtimeClassName":"","hostNetwork":false})",
       R"({"containers":[],"runtimeClassName":"","enableServiceLinks":false})"},
      {"empty pointer structs stay", "core/v1", "PodSpec",
       R"({"containers":[],"securityContext":{},"affinity":{}})",
       R"({"containers":[],"securityContext":{},"affinity":{}})"},
      {"null pointer is nil", "core/v1", "PodSpec",
       R"({"containers":[],"securityContext":null,"priority":null})", R"({"containers":[]})"},
      {"pointer without omitempty prints null when nil", "core/v1", "TypedLocalObjectReference",
       R"({"name":"n","kind":"K"})", R"({"apiGroup":null,"kind":"K","name":"n"})"},
      {"set pointer without omitempty", "core/v1", "GRPCAction", R"({"port":9,"service":""})",
       R"({"port":9,"service":""})"},
      {"nil pointer without omitempty", "core/v1", "GRPCAction", R"({"service":null})",
       R"({"port":0,"service":null})"},
      {"pointer to a zero Time is nil", "meta/v1", "ObjectMeta",
       R"({"name":"a","deletionTimestamp":"0001-01-01T00:00:00Z"})",
       R"({"name":"a","creationTimestamp":null})"},
      {"*Quantity", "core/v1", "EmptyDirVolumeSource", R"({"sizeLimit":"0.5Gi"})",
       R"({"sizeLimit":"512Mi"})"},
      {"*IntOrString", "apps/v1", "RollingUpdateDeployment",
       R"({"maxSurge":0,"maxUnavailable":"25%"})", R"({"maxUnavailable":"25%","maxSurge":0})"},
  });
}

TEST(Canonical, FieldsWithoutOmitEmptyAlwaysPrint) {
  run({
      {"zero int", "core/v1", "ContainerPort", R"({"protocol":"TCP"})",
       R"({"containerPort":0,"protocol":"TCP"})"},
      {"zero values of a status", "core/v1", "ContainerStatus", R"({})",
       R"({"name":"","state":{},"lastState":{},"ready":false,"restartCount":0,)"
       R"("image":"","imageID":""})"},
      {"nil list prints null, empty list stays", "core/v1", "PodSpec", R"({})",
       R"({"containers":null})"},
      {"empty list", "core/v1", "ProjectedVolumeSource", R"({"sources":[]})", R"({"sources":[]})"},
      {"a MicroTime is a struct: omitempty does not apply", "core/v1", "EventSeries", R"({})",
       R"({"lastObservedTime":null})"},
      {"DaemonEndpoint keeps its upper-case name", "core/v1", "NodeDaemonEndpoints", R"({})",
       R"({"kubeletEndpoint":{"Port":0}})"},
  });
}

TEST(Canonical, StructsAlwaysPrint) {
  run({
      {"absent struct members become their zero", "core/v1", "Pod", R"({})",
       R"({"metadata":{"creationTimestamp":null},"spec":{"containers":null},"status":{}})"},
      {"null struct is the zero struct", "core/v1", "Pod",
       R"({"kind":"Pod","apiVersion":"v1","status":null,"spec":{"containers":[]}})",
       R"({"kind":"Pod","apiVersion":"v1","metadata":{"creationTimestamp":null},)"
       R"("spec":{"containers":[]},"status":{}})"},
      {"zero Time in nested templates", "core/v1", "PodTemplateSpec",
       R"({"metadata":{"labels":{"app":"web"}},"spec":{"containers":[]}})",
       R"({"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[]}})"},
      {"ResourceRequirements is a struct", "core/v1", "Container", R"({"name":"c"})",
       R"({"name":"c","resources":{}})"},
      {"zero Quantity prints 0", "core/v1", "ResourceFieldSelector", R"({"resource":"limits.cpu"})",
       R"({"resource":"limits.cpu","divisor":"0"})"},
      {"zero IntOrString prints 0", "core/v1", "TCPSocketAction", R"({"port":null})",
       R"({"port":0})"},
      {"core/v1 Event", "core/v1", "Event",
       R"({"kind":"Event","apiVersion":"v1","metadata":{"name":"e"},"reason":"Started"})",
       R"({"kind":"Event","apiVersion":"v1","metadata":{"name":"e","creationTimestamp":null},)"
       R"("involvedObject":{},"reason":"Started","source":{},"firstTimestamp":null,)"
       R"("lastTimestamp":null,"eventTime":null,"reportingComponent":"",)"
       R"("reportingInstance":""})"},
      {"events.k8s.io Event", "events.k8s.io/v1", "Event", R"({"note":"n"})",
       R"({"metadata":{"creationTimestamp":null},"eventTime":null,"regarding":{},"note":"n",)"
       R"("deprecatedSource":{},"deprecatedFirstTimestamp":null,)"
       R"("deprecatedLastTimestamp":null})"},
  });
}

TEST(Canonical, OrderIsGoDeclarationOrder) {
  run({
      {"TypeMeta first, kind before apiVersion", "coordination.k8s.io/v1", "Lease",
       R"({"spec":{},"metadata":{"name":"l"},"apiVersion":"coordination.k8s.io/v1","kind":"Lease"})",
       R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1",)"
       R"("metadata":{"name":"l","creationTimestamp":null},"spec":{}})"},
      {"inline members in place of the embedding", "core/v1", "Probe",
       R"({"periodSeconds":10,"httpGet":{"scheme":"HTTP","port":80,"path":"/"}})",
       R"({"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"periodSeconds":10})"},
      {"inline then own fields", "core/v1", "Volume", R"({"configMap":{"name":"c"},"name":"v"})",
       R"({"name":"v","configMap":{"name":"c"}})"},
      {"map keys sorted by bytes", "meta/v1", "LabelSelector",
       R"({"matchLabels":{"b":"1","a":"","B":"2"}})",
       R"({"matchLabels":{"B":"2","a":"","b":"1"}})"},
  });
}

TEST(Canonical, MapsAndListElements) {
  run({
      {"empty string values are kept", "meta/v1", "ObjectMeta", R"({"annotations":{"note":""}})",
       R"({"creationTimestamp":null,"annotations":{"note":""}})"},
      {"null map values are the element zero", "core/v1", "ResourceRequirements",
       R"({"limits":{"memory":null,"cpu":"0.5"},"requests":{}})",
       R"({"limits":{"cpu":"500m","memory":"0"}})"},
      {"null list elements are the element zero", "core/v1", "Container",
       R"({"name":"a","args":["x",null],"ports":[null]})",
       R"({"name":"a","args":["x",""],"ports":[{"containerPort":0}],"resources":{}})"},
      {"null struct elements", "core/v1", "PodSpec", R"({"containers":[null]})",
       R"({"containers":[{"name":"","resources":{}}]})"},
  });
}

TEST(Canonical, WellKnownTypesAsTheyEncode) {
  run({
      {"Quantity canonical text", "core/v1", "ResourceRequirements",
       R"({"requests":{"cpu":"1000m","memory":"1048576Ki","ephemeral-storage":" 2Gi "}})",
       R"({"requests":{"cpu":"1","ephemeral-storage":"2Gi","memory":"1Gi"}})"},
      {"Quantity from a JSON number", "core/v1", "ResourceRequirements",
       R"({"limits":{"cpu":2,"memory":0.5}})", R"({"limits":{"cpu":"2","memory":"500m"}})"},
      {"Time in UTC with whole seconds", "core/v1", "PodCondition",
       R"({"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T12:00:00.75+02:00"})",
       R"({"type":"Ready","status":"True","lastProbeTime":null,)"
       R"("lastTransitionTime":"2026-11-30T10:00:00Z"})"},
      {"the zero Time is null", "core/v1", "PodCondition",
       R"({"type":"Ready","status":"True","lastProbeTime":"0001-01-01T00:00:00Z"})",
       R"({"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":null})"},
      {"MicroTime in UTC with six digits", "coordination.k8s.io/v1", "LeaseSpec",
       R"({"renewTime":"2026-11-30T10:00:00.123456+01:00","holderIdentity":""})",
       R"({"holderIdentity":"","renewTime":"2026-11-30T09:00:00.123456Z"})"},
      {"IntOrString keeps its form", "core/v1", "HTTPGetAction", R"({"port":"http","path":"/"})",
       R"({"path":"/","port":"http"})"},
      {"FieldsV1 is raw JSON, order and nulls kept", "meta/v1", "ManagedFieldsEntry",
       R"({"fieldsV1":{"f:spec":{"f:b":null,".":{},"f:a":{}}},"manager":"m","fieldsType":"FieldsV1"})",
       R"({"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:b":null,".":{},"f:a":{}}}})"},
      {"a null *FieldsV1 is nil", "meta/v1", "ManagedFieldsEntry",
       R"({"manager":"m","fieldsV1":null,"time":null})", R"({"manager":"m"})"},
  });
}

TEST(Canonical, WrongTypesAreLeftAlone) {
  // The decoder refuses these bodies first; canonicalize must not crash or
  // lose them either.
  run({
      {"string for a list", "core/v1", "PodSpec", R"({"containers":"x"})", R"({"containers":"x"})"},
      {"string for an int", "apps/v1", "DeploymentSpec", R"({"replicas":"3","selector":null})",
       R"({"replicas":"3","selector":null,"template":{"metadata":{"creationTimestamp":null},)"
       R"("spec":{"containers":null}},"strategy":{}})"},
      {"array for a struct", "core/v1", "Pod", R"({"spec":[1]})",
       R"({"metadata":{"creationTimestamp":null},"spec":[1],"status":{}})"},
      {"bad quantity and time stay as written", "core/v1", "PodCondition",
       R"({"type":"Ready","status":"True","lastProbeTime":"yesterday"})",
       R"({"type":"Ready","status":"True","lastProbeTime":"yesterday","lastTransitionTime":null})"},
  });
  json::value v = parse("[1,2]");
  canonicalize(v, builtin("core/v1", "Pod"));
  EXPECT_EQ(to_json_string(v), "[1,2]");
  json::value n;
  canonicalize(n, builtin("core/v1", "Namespace"));
  EXPECT_EQ(to_json_string(n), R"({"metadata":{"creationTimestamp":null},"spec":{},"status":{}})");
}

TEST(Canonical, CreationTimestampOmitZeroOption) {
  CanonicalOptions opts;
  opts.omit_zero_creation_timestamp = true;
  EXPECT_EQ(canon("apps/v1", "ReplicaSetSpec", R"({"selector":{},"template":{}})", opts),
            R"({"selector":{},"template":{"metadata":{},"spec":{"containers":null}}})");
  EXPECT_EQ(canon("meta/v1", "ObjectMeta", R"({"creationTimestamp":null,"name":"a"})", opts),
            R"({"name":"a"})");
  EXPECT_EQ(canon("meta/v1", "ObjectMeta", R"({"creationTimestamp":"2026-01-01T00:00:00Z"})", opts),
            R"({"creationTimestamp":"2026-01-01T00:00:00Z"})");
  // Only creationTimestamp: other zero Times still print null.
  EXPECT_EQ(canon("core/v1", "PodCondition", R"({"type":"Ready","status":"True"})", opts),
            R"({"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":null})");
}

// Kinds the built-in schema does not use: bytes, double, Duration, RawExtension,
// and a type that contains itself.
const Registry& custom() {
  static const std::unique_ptr<Registry> r = [] {
    auto p = Registry::parse({{"t.schema", R"(package x/v1 prefix=io.x.v1 short=x
type Thing "A thing."
  data     bytes        1 omitempty "Bytes."
  raw      bytes        2 "Bytes without omitempty."
  ratio    double       3 omitempty "A float."
  score    double       4 "A float without omitempty."
  period   Duration     5 omitempty "A duration."
  ext      RawExtension 6 omitempty "Any JSON."
  next     Thing        7 ptr omitempty "A chain through pointers."
  self     Thing        8 omitempty "A chain Go would not allow."
)"}});
    EXPECT_TRUE(p) << (p ? "" : p.error());
    return p ? std::move(*p) : std::make_unique<Registry>();
  }();
  return *r;
}

TEST(Canonical, OtherKinds) {
  const Type& thing = *custom().find("x/v1", "Thing");
  // self is a struct that contains itself: its zero is cut off at the depth bound.
  json::value zero = parse("{}");
  canonicalize(zero, thing);
  int depth = 0;
  for (const json::value* v = &zero; v->is_object() && v->as_object().contains("self");
       v = &v->as_object().at("self"))
    ++depth;
  EXPECT_GT(depth, 10);
  EXPECT_LT(depth, 100);
  EXPECT_EQ(zero.at("raw"), nullptr);
  EXPECT_EQ(zero.at("score"), 0);
  EXPECT_EQ(zero.at("period"), "0s");
  EXPECT_EQ(zero.at("ext"), nullptr);
  EXPECT_FALSE(zero.as_object().contains("data"));
  EXPECT_FALSE(zero.as_object().contains("next"));

  json::value v = parse(
      R"({"self":null,"period":"90s","raw":"","data":"aGk=","ratio":0,"ext":{"b":1,"a":[null]}})");
  canonicalize(v, thing);
  EXPECT_EQ(v.at("data"), "aGk=");
  EXPECT_EQ(v.at("raw"), "");
  EXPECT_EQ(v.at("period"), "1m30s");
  EXPECT_EQ(to_json_string(v.at("ext")), R"({"b":1,"a":[null]})");
  EXPECT_FALSE(v.as_object().contains("ratio"));
}

TEST(Canonical, DeepInputIsBoundedNotRecursedWithoutLimit) {
  const Type& thing = *custom().find("x/v1", "Thing");
  std::string text;
  constexpr int kLevels = 5000;
  for (int i = 0; i < kLevels; ++i)
    text += R"({"next":)";
  text += "{}";
  for (int i = 0; i < kLevels; ++i)
    text += "}";
  boost::json::parse_options po;
  po.max_depth = kLevels + 10;
  json::value v = boost::json::parse(text, {}, po);
  canonicalize(v, thing);  // must not overflow the stack
  // The top is canonical (zero members filled in), the deep rest untouched.
  EXPECT_EQ(v.at("raw"), nullptr);
  const json::value* p = &v;
  int levels = 0;
  while (p->is_object() && p->as_object().contains("next")) {
    p = &p->as_object().at("next");
    ++levels;
  }
  EXPECT_EQ(levels, kLevels);
}

json::value pod_typical() {
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/pod-typical.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str());
}

TEST(Canonical, TypicalPod) {
  const Type& pod = *Registry::builtin().root({"", "v1", "Pod"});
  json::value in = pod_typical();
  ASSERT_TRUE(in.is_object());
  json::value out = in;
  canonicalize(out, pod);

  // Only the bogus nested status.status goes: PodStatus has no "status" field,
  // so Go drops it and the status is empty. Everything else is kept as sent.
  json::value want = in;
  want.as_object()["status"] = json::object();
  EXPECT_EQ(out, want) << to_json_string(out);

  // ...in Go's order.
  EXPECT_EQ(keys(out),
            (std::vector<std::string>{"kind", "apiVersion", "metadata", "spec", "status"}));
  EXPECT_EQ(
      keys(out.at("metadata")),
      (std::vector<std::string>{"name", "generateName", "namespace", "uid", "resourceVersion",
                                "creationTimestamp", "labels", "annotations", "ownerReferences"}));
  EXPECT_EQ(keys(out.at("metadata").at("annotations")),
            (std::vector<std::string>{"kubectl.kubernetes.io/restartedAt", "prometheus.io/port",
                                      "prometheus.io/scrape"}));
  const auto& container = out.at("spec").at("containers").at(0);
  EXPECT_EQ(keys(container),
            (std::vector<std::string>{"name", "image", "args", "ports", "env", "resources",
                                      "volumeMounts", "livenessProbe", "readinessProbe",
                                      "terminationMessagePath", "terminationMessagePolicy",
                                      "imagePullPolicy", "securityContext"}));
  EXPECT_EQ(keys(container.at("securityContext")),
            (std::vector<std::string>{"capabilities", "runAsUser", "runAsNonRoot",
                                      "readOnlyRootFilesystem", "allowPrivilegeEscalation"}));
  EXPECT_EQ(keys(out.at("spec").at("volumes").at(0)),
            (std::vector<std::string>{"name", "configMap"}));
  EXPECT_EQ(out.at("spec").at("priority"), 0);  // *int32 zero

  // Idempotent.
  json::value again = out;
  canonicalize(again, pod);
  EXPECT_EQ(to_json_string(again), to_json_string(out));
}

// Every object's members in reverse order (maps included: canonical maps are
// sorted again).
json::value scrambled(const json::value& v) {
  if (const json::array* a = v.if_array()) {
    json::array out;
    for (const auto& item : *a)
      out.push_back(scrambled(item));
    return out;
  }
  const json::object* o = v.if_object();
  if (o == nullptr) return v;
  json::object out;
  for (auto it = o->end(); it != o->begin();) {
    --it;
    out[it->key()] = scrambled(it->value());
  }
  return out;
}

// Canonical input is walked in order; any other order, or unknown members,
// must give the same result (the walk gives up and searches).
TEST(Canonical, MemberOrderOfTheInputDoesNotMatter) {
  const Type& pod = *Registry::builtin().root({"", "v1", "Pod"});
  json::value canonical = pod_typical();
  canonicalize(canonical, pod);

  json::value from_scrambled = scrambled(canonical);
  // And members the types do not have.
  from_scrambled.as_object()["zz-unknown"] = 1;
  from_scrambled.at("spec").as_object().emplace("aa-unknown", 1);
  from_scrambled.at("spec").at("containers").at(0).as_object()["zz-unknown"] = 1;
  canonicalize(from_scrambled, pod);
  EXPECT_EQ(to_json_string(from_scrambled), to_json_string(canonical));

  // Only the metadata out of order: the other objects are walked.
  json::value partly = canonical;
  partly.as_object()["metadata"] = scrambled(canonical.at("metadata"));
  canonicalize(partly, pod);
  EXPECT_EQ(to_json_string(partly), to_json_string(canonical));
}

TEST(Canonical, TimesAlreadyInTheirFormAreKept) {
  run({
      {"Time", "core/v1", "PodCondition",
       R"({"type":"Ready","status":"True","lastProbeTime":null,)"
       R"("lastTransitionTime":"2026-11-30T10:00:00Z"})",
       R"({"type":"Ready","status":"True","lastProbeTime":null,)"
       R"("lastTransitionTime":"2026-11-30T10:00:00Z"})"},
      {"a Time that does not parse stays as it is", "core/v1", "PodCondition",
       R"({"type":"Ready","status":"True","lastProbeTime":"2026-02-30T10:00:00Z",)"
       R"("lastTransitionTime":"2026-11-30T24:00:00Z"})",
       R"({"type":"Ready","status":"True","lastProbeTime":"2026-02-30T10:00:00Z",)"
       R"("lastTransitionTime":"2026-11-30T24:00:00Z"})"},
      {"MicroTime", "coordination.k8s.io/v1", "LeaseSpec",
       R"({"holderIdentity":"","renewTime":"2026-11-30T09:00:00.123456Z"})",
       R"({"holderIdentity":"","renewTime":"2026-11-30T09:00:00.123456Z"})"},
      {"the zero MicroTime is null", "coordination.k8s.io/v1", "LeaseSpec",
       R"({"holderIdentity":"","renewTime":"0001-01-01T00:00:00.000000Z"})",
       R"({"holderIdentity":""})"},
  });
}

}  // namespace
}  // namespace kcm::api::schema
