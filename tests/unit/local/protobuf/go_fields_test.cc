#include "local/protobuf/go_fields.h"

#include <gtest/gtest.h>

#include <string>

#include "api/schema/registry.h"

namespace kcm::local::protobuf {
namespace {

using api::schema::Registry;

const api::schema::Field& field_of(std::string_view package, std::string_view type,
                                   std::string_view name) {
  const auto* t = Registry::builtin().find(package, type);
  EXPECT_NE(t, nullptr) << package << "." << type;
  for (const auto& f : t->fields) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no field " << name << " in " << type;
  return t->fields.front();
}

GoPresence presence(std::string_view package, std::string_view type, std::string_view name) {
  return go_presence(*Registry::builtin().find(package, type), field_of(package, type, name));
}

TEST(GoFieldsTest, EveryOverrideNamesAFieldOfTheRegistry) {
  for (std::string_view key : go_presence_overrides()) {
    // "<package>.<Type>.<field>", where the package itself holds dots and a slash.
    const auto slash = key.find('/');
    ASSERT_NE(slash, std::string_view::npos) << key;
    const auto type_dot = key.find('.', slash);
    ASSERT_NE(type_dot, std::string_view::npos) << key;
    const std::string_view package = key.substr(0, type_dot);
    const std::string_view rest = key.substr(type_dot + 1);
    const auto field_dot = rest.find('.');
    const std::string_view type_name = rest.substr(0, field_dot);
    const auto* type = Registry::builtin().find(package, type_name);
    ASSERT_NE(type, nullptr) << key;
    if (field_dot == std::string_view::npos) continue;  // a whole-type rule
    const std::string_view field = rest.substr(field_dot + 1);
    bool found = false;
    for (const auto& f : type->fields)
      found = found || f.name == field;
    EXPECT_TRUE(found) << key;
  }
}

TEST(GoFieldsTest, Rules) {
  struct Row {
    const char* package;
    const char* type;
    const char* field;
    GoPresence want;
  };
  const Row rows[] = {
      // *int32 with omitempty
      {"apps/v1", "DeploymentSpec", "replicas", GoPresence::kPointer},
      // *LabelSelector `json:"selector"`
      {"apps/v1", "DeploymentSpec", "selector", GoPresence::kPointerOrNull},
      // int32 omitempty, bool omitempty
      {"apps/v1", "DeploymentSpec", "minReadySeconds", GoPresence::kOmitEmpty},
      {"apps/v1", "DeploymentSpec", "paused", GoPresence::kOmitEmpty},
      // required (no omitempty) from the schema's req flag
      {"core/v1", "Container", "name", GoPresence::kAlways},
      {"core/v1", "ContainerPort", "containerPort", GoPresence::kAlways},
      {"core/v1", "PodSpec", "containers", GoPresence::kAlways},
      // exceptions both ways
      {"core/v1", "ProjectedVolumeSource", "sources", GoPresence::kAlways},
      {"core/v1", "PodIP", "ip", GoPresence::kOmitEmpty},
      {"core/v1", "Event", "reportingComponent", GoPresence::kAlways},
      // every volume source member is a pointer
      {"core/v1", "VolumeSource", "emptyDir", GoPresence::kPointer},
      {"core/v1", "VolumeSource", "image", GoPresence::kPointer},
      {"meta/v1", "ObjectMeta", "creationTimestamp", GoPresence::kOmitEmpty},
      {"meta/v1", "ObjectMeta", "deletionTimestamp", GoPresence::kPointer},
      {"coordination.k8s.io/v1", "LeaseSpec", "holderIdentity", GoPresence::kPointer},
      {"events.k8s.io/v1", "EventSeries", "count", GoPresence::kAlways},
      {"core/v1", "EventSeries", "count", GoPresence::kOmitEmpty},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(presence(r.package, r.type, r.field), r.want)
        << r.package << "." << r.type << "." << r.field;
  }
}

}  // namespace
}  // namespace kcm::local::protobuf
