#include "controllers/garbagecollector/dump.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "api/field_error.h"
#include "api/group_version.h"

namespace kcm::controllers::garbagecollector {
namespace {

// An apiVersion that does not parse shows an empty group and version, as
// upstream's dump logs the error and goes on with the zero GroupVersion.
api::GroupVersion parse_group_version(const std::string& api_version) {
  return api::GroupVersion::parse_checked(api_version).value_or(api::GroupVersion{});
}

DotVertex vertex_of(const Node& node) {
  api::GroupVersion gv = parse_group_version(node.identity.api_version);
  return DotVertex{.uid = node.identity.uid,
                   .group = std::move(gv.group),
                   .version = std::move(gv.version),
                   .kind = node.identity.kind,
                   .namespace_ = node.identity.namespace_,
                   .name = node.identity.name,
                   .being_deleted = node.being_deleted,
                   .deleting_dependents = node.deleting_dependents,
                   .virtual_ = node.virtual_};
}

DotVertex missing_vertex_of(const OwnerReference& owner) {
  api::GroupVersion gv = parse_group_version(owner.api_version);
  return DotVertex{.uid = owner.uid,
                   .group = std::move(gv.group),
                   .version = std::move(gv.version),
                   .kind = owner.kind,
                   .name = owner.name,
                   .missing_from_graph = true};
}

// upstream toDOTNodesAndEdges over the nodes `nodes` (a map so that the
// result does not depend on hash order before sorting).
DotGraph dot_graph_of(const std::map<std::string, const Node*>& nodes) {
  DotGraph out;
  std::set<std::string> written;
  for (const auto& [uid, node] : nodes) {
    // Objects nobody owns and that own nothing are left out.
    if (node->owners.empty() && node->dependents.empty()) continue;
    out.vertices.push_back(vertex_of(*node));
    written.insert(uid);
  }
  for (const auto& [uid, node] : nodes) {
    for (const OwnerReference& owner : node->owners) {
      if (written.insert(owner.uid).second) out.vertices.push_back(missing_vertex_of(owner));
      out.edges.push_back(DotEdge{uid, owner.uid});
    }
  }
  std::stable_sort(out.vertices.begin(), out.vertices.end(),
                   [](const DotVertex& a, const DotVertex& b) { return a.uid < b.uid; });
  std::stable_sort(out.edges.begin(), out.edges.end());
  return out;
}

std::string flag(bool b) {
  return b ? "true" : "false";
}

std::string label_of(const DotVertex& v) {
  std::string label = "uid=" + v.uid + "\nnamespace=" + v.namespace_ + "\n" + v.kind + "." +
                      v.version + (v.group.empty() ? "" : "." + v.group) + "/" + v.name + "\n";
  std::vector<std::string_view> conditions;
  if (v.being_deleted) conditions.push_back("beingDeleted");
  if (v.deleting_dependents) conditions.push_back("deletingDependents");
  if (v.virtual_) conditions.push_back("virtual");
  if (v.missing_from_graph) conditions.push_back("missingFromGraph");
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    label += conditions[i];
    label += i + 1 < conditions.size() ? "," : "\n";
  }
  return label;
}

}  // namespace

DotGraph dot_graph(const Graph& graph) {
  std::map<std::string, const Node*> nodes;
  graph.for_each([&](const Node& n) { nodes.emplace(n.identity.uid, &n); });
  return dot_graph_of(nodes);
}

DotGraph dot_graph_for(const Graph& graph, const std::vector<std::string>& uids) {
  std::map<std::string, const Node*> nodes;
  std::deque<std::string> to_check(uids.begin(), uids.end());
  while (!to_check.empty()) {
    const std::string uid = std::move(to_check.front());
    to_check.pop_front();
    if (nodes.contains(uid)) continue;
    const Node* node = graph.find(uid);
    if (node == nullptr) continue;
    nodes.emplace(uid, node);
    for (const OwnerReference& owner : node->owners) {
      if (!nodes.contains(owner.uid)) to_check.push_back(owner.uid);
    }
    for (const std::string& dependent : node->dependents) {
      if (!nodes.contains(dependent)) to_check.push_back(dependent);
    }
  }
  return dot_graph_of(nodes);
}

std::string marshal_dot(const DotGraph& graph) {
  std::string out = "strict digraph full {\n";
  if (!graph.vertices.empty()) out += "  // Node definitions.\n";
  for (const DotVertex& v : graph.vertices) {
    out += "  " + api::go_quote(v.uid) + " [\n";
    const std::pair<std::string_view, std::string> attributes[] = {
        {"label", label_of(v)},
        {"group", v.group},
        {"version", v.version},
        {"kind", v.kind},
        {"namespace", v.namespace_},
        {"name", v.name},
        {"uid", v.uid},
        {"missing", flag(v.missing_from_graph)},
        {"beingDeleted", flag(v.being_deleted)},
        {"deletingDependents", flag(v.deleting_dependents)},
        {"virtual", flag(v.virtual_)},
    };
    for (const auto& [key, value] : attributes) {
      out += "    ";
      out += key;
      out += "=" + api::go_quote(value) + "\n";
    }
    out += "  ];\n";
  }
  if (!graph.edges.empty()) out += "  // Edge definitions.\n";
  for (const DotEdge& e : graph.edges)
    out += "  " + api::go_quote(e.from) + " -> " + api::go_quote(e.to) + ";\n";
  out += "}\n";
  return out;
}

}  // namespace kcm::controllers::garbagecollector
