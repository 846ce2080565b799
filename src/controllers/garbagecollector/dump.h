// The garbage collector's graph as Graphviz DOT text (upstream dump.go), for
// the debugging endpoint kcm serves at
// /debug/controllers/garbage-collector-controller/graph.
#pragma once

#include <string>
#include <vector>

#include "controllers/garbagecollector/graph.h"

namespace kcm::controllers::garbagecollector {

// One object of the dump: a graph node, or an owner some node references
// that the graph does not hold (`missing_from_graph`).
struct DotVertex {
  std::string uid;
  std::string group;
  std::string version;
  std::string kind;
  std::string namespace_;
  std::string name;
  bool missing_from_graph = false;
  bool being_deleted = false;
  bool deleting_dependents = false;
  bool virtual_ = false;
};

// Dependent -> owner.
struct DotEdge {
  std::string from;
  std::string to;
  friend bool operator==(const DotEdge&, const DotEdge&) = default;
  friend auto operator<=>(const DotEdge&, const DotEdge&) = default;
};

struct DotGraph {
  std::vector<DotVertex> vertices;  // by uid
  std::vector<DotEdge> edges;       // by (from, to)
};

// Every node with an owner or a dependent, and an edge per owner reference.
// Upstream files a missing owner's vertex under the dependent's uid, so a
// missing owner shared by two dependents is written twice and a later edge
// to that dependent may point at the missing owner instead (depending on Go's
// map order); here it is filed under the owner's uid and written once.
DotGraph dot_graph(const Graph& graph);

// The part of the graph connected to `uids` (through owners and dependents,
// transitively); uids the graph does not hold are skipped.
DotGraph dot_graph_for(const Graph& graph, const std::vector<std::string>& uids);

// The DOT text: "strict digraph full {", the vertices with their attributes
// (label, group, version, kind, namespace, name, uid, missing, beingDeleted,
// deletingDependents, virtual), the edges, "}", every string quoted as Go's %q.
std::string marshal_dot(const DotGraph& graph);

}  // namespace kcm::controllers::garbagecollector
