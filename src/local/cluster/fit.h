// The scheduling decision as pure functions over small views of pods and
// nodes: upstream's default filter plugins (NodeUnschedulable, TaintToleration,
// NodeAffinity, NodeResourcesFit), LeastAllocated scoring, and the FitError
// message ("0/3 nodes are available: 3 Insufficient cpu. preemption: ...").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/json.h"
#include "local/cluster/resources.h"

namespace kcm::local::cluster {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule | PreferNoSchedule | NoExecute
};

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal | Exists
  std::string value;
  std::string effect;  // empty: every effect
  bool tolerates(const Taint& taint) const;
};

struct NodeSelectorRequirement {
  std::string key;
  std::string op;  // In | NotIn | Exists | DoesNotExist | Gt | Lt
  std::vector<std::string> values;
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;  // on labels
  std::vector<NodeSelectorRequirement> match_fields;       // on metadata.name
};

// What scheduling reads from a pod.
struct PodFacts {
  std::string namespace_;
  std::string name;
  std::map<std::string, std::string> node_selector;
  // requiredDuringSchedulingIgnoredDuringExecution (ORed terms); absent: no constraint.
  bool has_required_affinity = false;
  std::vector<NodeSelectorTerm> required_terms;
  std::vector<Toleration> tolerations;
  Resources requests;
  Resources non_zero_requests;
  bool preemption_never = false;

  static PodFacts from(const json::object& pod);
};

// What scheduling reads from a node, plus the pods assigned to it.
struct NodeFacts {
  std::string name;
  std::map<std::string, std::string> labels;
  bool unschedulable = false;
  std::vector<Taint> taints;  // including the not-ready taint a NotReady node would carry
  Resources allocatable;
  Resources requested;  // of its non-terminated pods; .pods counts them
  Resources non_zero_requested;

  static NodeFacts from(const json::object& node);
  void add_pod(const PodFacts& pod) {
    requested += pod.requests;
    non_zero_requested += pod.non_zero_requests;
  }
};

enum class FitCode {
  kFits,
  kUnschedulable,  // resources: preemption could help
  kUnresolvable,   // labels, taints, cordon: preemption cannot help
};

struct FitResult {
  FitCode code = FitCode::kFits;
  std::vector<std::string> reasons;  // upstream's reason strings
};

// Runs the filters in upstream's order; the first failing plugin decides.
FitResult filter_node(const PodFacts& pod, const NodeFacts& node);

// LeastAllocated over cpu and memory (0..100), with the pod's non-zero requests added.
std::int64_t least_allocated_score(const PodFacts& pod, const NodeFacts& node);

struct Decision {
  std::string node;     // the chosen node; empty when none fits
  std::string message;  // why not (the PodScheduled=False message), when none fits
};

// Filters every node, then picks the best score (ties: fewer pods, then name).
Decision schedule_pod(const PodFacts& pod, const std::vector<NodeFacts>& nodes);

// The FitError text for `results` (one per node), with the preemption
// post-filter's verdict (kcm-local never preempts, as no victims are eligible).
std::string fit_error_message(const std::vector<FitResult>& results, bool preemption_never);

inline constexpr std::string_view kNoNodesAvailable = "no nodes available to schedule pods";

}  // namespace kcm::local::cluster
