#include "api/schema/registry.h"

#include <gtest/gtest.h>

#include <set>

namespace kcm::api::schema {
namespace {

TEST(SchemaRegistry, ServesEveryKindKcmLocalNeeds) {
  const auto& r = Registry::builtin();
  const std::vector<GroupVersionKind> kinds = {
      {"", "v1", "Pod"},
      {"", "v1", "Namespace"},
      {"", "v1", "Node"},
      {"", "v1", "Event"},
      {"", "v1", "Binding"},
      {"apps", "v1", "Deployment"},
      {"apps", "v1", "ReplicaSet"},
      {"coordination.k8s.io", "v1", "Lease"},
      {"events.k8s.io", "v1", "Event"},
      {"autoscaling", "v1", "Scale"},
      {"", "v1", "Status"},
      {"", "v1", "DeleteOptions"},
  };
  for (const auto& gvk : kinds) {
    const Type* t = r.root(gvk);
    ASSERT_NE(t, nullptr) << gvk.api_version() << " " << gvk.kind;
    EXPECT_EQ(t->name, gvk.kind);
  }
  EXPECT_EQ(r.root({"apps", "v1", "StatefulSet"}), nullptr);
  EXPECT_EQ(r.root({"apps", "v2", "Deployment"}), nullptr);
  // The two Events are different types.
  EXPECT_NE(r.root({"", "v1", "Event"}), r.root({"events.k8s.io", "v1", "Event"}));
}

TEST(SchemaRegistry, FieldsCarryUpstreamFacts) {
  const auto& r = Registry::builtin();
  const Type* spec = r.find("apps/v1", "DeploymentSpec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->openapi_name, "io.k8s.api.apps.v1.DeploymentSpec");
  const Field* replicas = spec->field("replicas");
  ASSERT_NE(replicas, nullptr);
  EXPECT_EQ(replicas->type->kind, Kind::kInt32);
  EXPECT_EQ(replicas->proto_number, 1);
  EXPECT_FALSE(replicas->required);
  const Field* selector = spec->field("selector");
  ASSERT_NE(selector, nullptr);
  EXPECT_TRUE(selector->required);
  EXPECT_EQ(selector->type->object, r.find("meta/v1", "LabelSelector"));
  EXPECT_EQ(spec->field("progressDeadlineSeconds")->proto_number, 9);

  const Type* container = r.find("core/v1", "Container");
  ASSERT_NE(container, nullptr);
  const Field* policy = container->field("imagePullPolicy");
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->type->go_name, "v1.PullPolicy");
  EXPECT_EQ(policy->type->enum_values,
            (std::vector<std::string>{"Always", "IfNotPresent", "Never"}));
  EXPECT_EQ(container->field("ports")->type->go_name, "[]v1.ContainerPort");
  EXPECT_EQ(container->field("envFrom")->proto_number, 19);
  EXPECT_EQ(r.find("core/v1", "ResourceRequirements")->field("limits")->type->go_name,
            "v1.ResourceList");
  EXPECT_EQ(r.find("meta/v1", "ObjectMeta")->field("uid")->type->go_name, "types.UID");
  EXPECT_EQ(r.find("meta/v1", "ObjectMeta")->field("labels")->type->go_name, "map[string]string");
}

TEST(SchemaRegistry, InlineMembersAreVisibleInTheParent) {
  const auto& r = Registry::builtin();
  const Type* volume = r.find("core/v1", "Volume");
  ASSERT_NE(volume, nullptr);
  const Field* host_path = volume->field("hostPath");
  ASSERT_NE(host_path, nullptr);
  EXPECT_EQ(host_path->proto_number, 1);              // number within VolumeSource
  EXPECT_EQ(volume->field("volumeSource"), nullptr);  // the embedding itself has no JSON name
  const Type* probe = r.find("core/v1", "Probe");
  EXPECT_NE(probe->field("httpGet"), nullptr);
  EXPECT_NE(probe->field("periodSeconds"), nullptr);
  const Type* eph = r.find("core/v1", "EphemeralContainer");
  EXPECT_NE(eph->field("image"), nullptr);
  EXPECT_NE(eph->field("targetContainerName"), nullptr);
}

// Every protobuf number is unique within its type (0 marks fields outside
// protobuf) and every struct reachable from the kinds is defined.
TEST(SchemaRegistry, ProtobufNumbersAreUniquePerType) {
  for (const auto& t : Registry::builtin().types()) {
    std::set<int> numbers;
    for (const auto& f : t.fields) {
      if (f.proto_number == 0) {
        EXPECT_TRUE(f.name == "apiVersion" || f.name == "kind") << t.name << "." << f.name;
        continue;
      }
      EXPECT_TRUE(numbers.insert(f.proto_number).second)
          << t.name << "." << f.name << " reuses " << f.proto_number;
    }
  }
}

TEST(SchemaRegistry, ParseErrorsNameFileAndLine) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"type A \"x\"\n", "t.schema:1: declaration before the package line"},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\n  f Nope 1 \"d\"\n",
       "t.schema:3: unknown type \"Nope\""},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\n  f string x \"d\"\n",
       "t.schema:3: bad protobuf number \"x\""},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\n  f []A 1 patch=merge \"d\"\n",
       "t.schema:3: merging a list of objects needs key="},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\n  f []string 1 list=map \"d\"\n",
       "t.schema:3: list=map and keys= go together"},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\ntype A \"y\"\n",
       "t.schema:3: a/v1.A declared twice"},
      {"package a/v1 prefix=p short=a\ntype A \"x\n", "t.schema:2: unterminated description"},
      {"package a/v1 prefix=p short=a\ntype A \"x\"\n  f string 1 bogus \"d\"\n",
       "t.schema:3: unknown field option \"bogus\""},
      {"package a/v1 prefix=p short=a\ntype A gvk=apps/Deployment \"x\"\n",
       "t.schema:2: gvk must be group/version/Kind, got \"apps/Deployment\""},
  };
  for (const auto& c : cases) {
    auto r = Registry::parse({{"t.schema", c.text}});
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error(), c.error) << c.text;
  }
}

TEST(SchemaRegistry, ParsesAliasesAndCrossPackageReferences) {
  auto r = Registry::parse({
      {"a.schema",
       "package a/v1 prefix=io.a.v1 short=a\n"
       "alias Mode string enum=,X,Y \"m\"\n"
       "type A gvk=a/v1/A \"a\"  # comment\n"
       "  mode Mode 1 \"d\"\n"
       "  b    b.B  2 req \"d\"\n"},
      {"b.schema", "package b/v1 prefix=io.b.v1 short=b\ntype B atomic \"b\"\n  n int64 1 \"d\"\n"},
  });
  ASSERT_TRUE(r.ok()) << r.error();
  const Type* a = (*r)->root({"a", "v1", "A"});
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->field("mode")->type->enum_values, (std::vector<std::string>{"", "X", "Y"}));
  EXPECT_EQ(a->field("b")->type->object->openapi_name, "io.b.v1.B");
  EXPECT_EQ(a->field("b")->type->object->struct_type, MapType::kAtomic);
  EXPECT_EQ(a->description, "a");
}

}  // namespace
}  // namespace kcm::api::schema
