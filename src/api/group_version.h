// Group/version/kind/resource identifiers, as in apimachinery's schema package.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kcm::api {

struct GroupVersion {
  std::string group;  // "" for the core group
  std::string version;

  // "v1" for the core group, "apps/v1" otherwise: the apiVersion field.
  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  static GroupVersion parse(std::string_view api_version);
  // schema.ParseGroupVersion: as parse(), but nullopt for more than one '/'.
  static std::optional<GroupVersion> parse_checked(std::string_view api_version);
  friend bool operator==(const GroupVersion&, const GroupVersion&) = default;
};

struct GroupKind {
  std::string group;
  std::string kind;
  // "Deployment.apps", or "Pod" for the core group (upstream's GroupKind.String()).
  std::string string() const { return group.empty() ? kind : kind + "." + group; }
  friend bool operator==(const GroupKind&, const GroupKind&) = default;
};

struct GroupResource {
  std::string group;
  std::string resource;
  // "deployments.apps", or "pods" for the core group (upstream's GroupResource.String()).
  std::string string() const { return group.empty() ? resource : resource + "." + group; }
  friend bool operator==(const GroupResource&, const GroupResource&) = default;
};

struct GroupVersionKind {
  std::string group;
  std::string version;
  std::string kind;
  std::string api_version() const { return GroupVersion{group, version}.api_version(); }
  GroupKind group_kind() const { return {group, kind}; }
  friend bool operator==(const GroupVersionKind&, const GroupVersionKind&) = default;
};

struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;
  GroupResource group_resource() const { return {group, resource}; }
  friend bool operator==(const GroupVersionResource&, const GroupVersionResource&) = default;
};

inline GroupVersion GroupVersion::parse(std::string_view api_version) {
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

inline std::optional<GroupVersion> GroupVersion::parse_checked(std::string_view api_version) {
  const auto slash = api_version.find('/');
  if (slash != std::string_view::npos && api_version.find('/', slash + 1) != std::string_view::npos)
    return std::nullopt;
  return parse(api_version);
}

}  // namespace kcm::api
