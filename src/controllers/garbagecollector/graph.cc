#include "controllers/garbagecollector/graph.h"

#include <fmt/format.h>

namespace kcm::controllers::garbagecollector {

std::string ObjectReference::to_string() const {
  return fmt::format("[{}/{}, namespace: {}, name: {}, uid: {}]", api_version, kind, namespace_,
                     name, uid);
}

OwnerReference make_owner_reference(std::string api_version, std::string kind, std::string name,
                                    std::string uid, std::optional<bool> controller,
                                    std::optional<bool> block_owner_deletion) {
  OwnerReference ref;
  ref.api_version = std::move(api_version);
  ref.kind = std::move(kind);
  ref.name = std::move(name);
  ref.uid = std::move(uid);
  ref.controller = controller;
  ref.block_owner_deletion = block_owner_deletion;
  return ref;
}

bool matches_coordinates(const OwnerReference& ref, const ObjectReference& identity) {
  return ref.uid == identity.uid && ref.name == identity.name && ref.kind == identity.kind &&
         ref.api_version == identity.api_version;
}

const Node* Graph::find(const std::string& uid) const {
  const auto it = nodes_.find(uid);
  return it == nodes_.end() ? nullptr : &it->second;
}

Node* Graph::find(const std::string& uid) {
  const auto it = nodes_.find(uid);
  return it == nodes_.end() ? nullptr : &it->second;
}

Node& Graph::put(Node node) {
  std::string uid = node.identity.uid;
  return nodes_.insert_or_assign(std::move(uid), std::move(node)).first->second;
}

void Graph::erase(const std::string& uid) {
  nodes_.erase(uid);
}

std::vector<const Node*> Graph::dependents_of(const Node& node) const {
  std::vector<const Node*> out;
  for (const std::string& uid : node.dependents) {
    if (const Node* dep = find(uid)) out.push_back(dep);
  }
  return out;
}

std::vector<const Node*> Graph::blocking_dependents_of(const Node& node) const {
  std::vector<const Node*> out;
  for (const Node* dep : dependents_of(node)) {
    for (const OwnerReference& ref : dep->owners) {
      if (ref.uid == node.identity.uid && blocks(ref)) {
        out.push_back(dep);
        break;
      }
    }
  }
  return out;
}

}  // namespace kcm::controllers::garbagecollector
