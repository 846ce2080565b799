// EcsBind (ecsbind.kcm.dev/v1, cluster-scoped): the typed kind of the custom
// resource that examples/ecsbind/crd.yaml defines. An EcsBind binds an
// external compute instance to the cluster; the ecsbind-controller keeps a
// Node for it.
//
// The structs mirror the CRD's schema member for member. Declaring them with
// Boost.Describe and a `kind_info` is all kcm needs to read and write them:
// TypedClient<EcsBind>, TypedLister<EcsBind> and the JSON codec come from
// templates (api/described_json.h), so there is no code generator to run.
// The UnknownFields members keep whatever a newer CRD version adds, so a
// get-modify-update round trip never drops it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/condition.h"
#include "api/described_json.h"
#include "api/kind_info.h"
#include "api/object_meta.h"

namespace kcm::ecsbind {

// Held by every EcsBind this controller has seen; released once its Node is gone.
inline constexpr std::string_view kFinalizer = "ecsbind.kcm.dev/cleanup";
// On every Node the controller creates: the instance it stands for.
inline constexpr std::string_view kInstanceIdLabel = "ecsbind.kcm.dev/instance-id";
// The default node name is this prefix and the instance ID.
inline constexpr std::string_view kNodeNamePrefix = "ecs-";

// status.phase (the CRD's enum).
namespace phase {
inline constexpr std::string_view kPending = "Pending";
inline constexpr std::string_view kBound = "Bound";
inline constexpr std::string_view kFailed = "Failed";
}  // namespace phase

// The type of the one condition the controller maintains.
inline constexpr std::string_view kReadyCondition = "Ready";

struct EcsBindSpec {
  std::string instance_id;               // "instanceId", e.g. i-0abc123
  std::string private_ip;                // "privateIP": the Node's InternalIP
  std::optional<std::string> node_name;  // "nodeName"; default ecs-<instanceId>
  api::UnknownFields extra;

  // "privateIP" is not lowerCamelCase of private_ip ("privateIp").
  static constexpr api::JsonMember json_members[] = {
      {.member = "private_ip", .json = "privateIP"},
  };
};
BOOST_DESCRIBE_STRUCT(EcsBindSpec, (), (instance_id, private_ip, node_name, extra))

struct EcsBindStatus {
  std::string phase;    // phase::kPending, kBound or kFailed
  std::string reason;   // why the phase is what it is (CamelCase)
  std::string message;  // the same for humans
  std::string node_name;
  std::int64_t observed_generation = 0;  // the metadata.generation last acted on
  std::vector<api::Condition> conditions;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBindStatus, (),
                      (phase, reason, message, node_name, observed_generation, conditions, extra))

struct EcsBind {
  static constexpr api::KindInfo kind_info{.group = "ecsbind.kcm.dev",
                                           .version = "v1",
                                           .kind = "EcsBind",
                                           .plural = "ecsbinds",
                                           .scope = api::Scope::kCluster};
  api::ObjectMeta metadata;
  EcsBindSpec spec;
  EcsBindStatus status;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, status, extra))

}  // namespace kcm::ecsbind
