// KindInfo: what identifies a kind on the wire and in URLs (group, version,
// kind, plural resource, scope). A typed kind is a struct that declares it as
// `static constexpr api::KindInfo kind_info{...}` next to its members; the
// codec (described_json.h), TypedClient (client/typed_client.h) and
// TypedLister (cache/typed_lister.h) read it, so built-in and custom kinds
// are declared the same way and need no code generator:
//
//   struct EcsBind {
//     static constexpr api::KindInfo kind_info{.group = "ecsbind.kcm.dev",
//                                              .version = "v1",
//                                              .kind = "EcsBind",
//                                              .plural = "ecsbinds",
//                                              .scope = api::Scope::kCluster};
//     api::ObjectMeta metadata;
//     EcsBindSpec spec;
//     EcsBindStatus status;
//     api::UnknownFields extra;  // top-level members kcm does not model
//   };
//   BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, status, extra))
//
// A static member (rather than a traits specialisation) keeps the whole
// declaration in one place and works for structs in any namespace.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

#include "api/group_version.h"

namespace kcm::api {

enum class Scope { kNamespaced, kCluster };

struct KindInfo {
  std::string_view group;  // "" for the core group
  std::string_view version;
  std::string_view kind;    // "EcsBind"
  std::string_view plural;  // "ecsbinds": the resource in URLs
  Scope scope = Scope::kNamespaced;

  bool namespaced() const { return scope == Scope::kNamespaced; }
  // "v1" for the core group, "ecsbind.kcm.dev/v1" otherwise.
  std::string api_version() const {
    return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  }
  GroupVersionResource gvr() const {
    return {std::string(group), std::string(version), std::string(plural)};
  }
  GroupVersionKind gvk() const {
    return {std::string(group), std::string(version), std::string(kind)};
  }
  GroupResource group_resource() const { return {std::string(group), std::string(plural)}; }
  GroupKind group_kind() const { return {std::string(group), std::string(kind)}; }
};

// A struct that declares `static constexpr api::KindInfo kind_info`.
template <class T>
concept HasKindInfo = requires {
  { T::kind_info } -> std::convertible_to<const KindInfo&>;
};

}  // namespace kcm::api
