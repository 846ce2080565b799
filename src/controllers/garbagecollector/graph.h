// The garbage collector's dependency graph (upstream graph.go): one node per
// object UID, with the object's owner references and the UIDs of the objects
// that name it as an owner. Pure data: the GraphBuilder is its only writer
// and guards it with its own lock.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/object_meta.h"

namespace kcm::controllers::garbagecollector {

inline constexpr std::string_view kOrphanFinalizer = "orphan";
inline constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";

using OwnerReference = api::OwnerReference;

// blockOwnerDeletion=true.
inline bool blocks(const OwnerReference& ref) {
  return ref.block_owner_deletion.value_or(false);
}
// A reference from its parts (api::OwnerReference is no aggregate).
OwnerReference make_owner_reference(std::string api_version, std::string kind, std::string name,
                                    std::string uid, std::optional<bool> controller = std::nullopt,
                                    std::optional<bool> block_owner_deletion = std::nullopt);

// An object's coordinates (upstream objectReference): an owner reference plus
// the namespace ("" for cluster-scoped objects).
struct ObjectReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::string namespace_;

  // upstream objectReference.String(): "[v1/ConfigMap, namespace: ns, name: a, uid: 1]".
  std::string to_string() const;
  friend bool operator==(const ObjectReference&, const ObjectReference&) = default;
  friend auto operator<=>(const ObjectReference&, const ObjectReference&) = default;
};

// apiVersion, kind, name and uid of `ref` match `identity` (upstream
// ownerReferenceMatchesCoordinates; the namespace is not compared).
bool matches_coordinates(const OwnerReference& ref, const ObjectReference& identity);

struct Node {
  ObjectReference identity;
  std::vector<OwnerReference> owners;
  std::set<std::string> dependents;  // UIDs
  bool being_deleted = false;
  bool deleting_dependents = false;
  // Referenced as an owner but not (yet) seen by an informer.
  bool virtual_ = false;
};

class Graph {
 public:
  const Node* find(const std::string& uid) const;
  Node* find(const std::string& uid);
  // Adds or replaces the node of `node.identity.uid`.
  Node& put(Node node);
  void erase(const std::string& uid);
  std::size_t size() const { return nodes_.size(); }
  // Calls `fn(const Node&)` for every node, in no particular order.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const auto& [uid, node] : nodes_)
      fn(node);
  }

  // The dependents of `node` present in the graph.
  std::vector<const Node*> dependents_of(const Node& node) const;
  // Its dependents whose reference to it has blockOwnerDeletion=true
  // (upstream blockingDependents).
  std::vector<const Node*> blocking_dependents_of(const Node& node) const;

 private:
  std::unordered_map<std::string, Node> nodes_;
};

}  // namespace kcm::controllers::garbagecollector
