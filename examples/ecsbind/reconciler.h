// The ecsbind-controller's decisions, apart from any I/O: which Node an
// EcsBind wants, what to do with the Node found under that name, which Nodes
// it no longer wants, and what its status should say. The controller
// (controller.h) reads the caches, calls these, and writes what they return;
// everything here is a function of its arguments, so it can be tested
// without an API server.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/kinds/node.h"
#include "api/time.h"
#include "ecsbind/ecsbind_types.h"

namespace kcm::ecsbind {

using api::core_v1::Node;

// spec.nodeName, or "ecs-<instanceId>" when it is unset or empty.
std::string desired_node_name(const EcsBind& bind);

// The Node the controller keeps for `bind`: the desired name, the label
// ecsbind.kcm.dev/instance-id=<instanceId>, `bind` as its controller owner
// (cluster-scoped owner of a cluster-scoped object), and spec.privateIP as
// its InternalIP address.
Node desired_node(const EcsBind& bind);

// Whether `node`'s controller reference names `bind` (by uid, as
// apimachinery's IsControlledBy). A node without a controller reference, or
// controlled by anything else, is not ours: the controller never adopts.
bool controlled_by(const Node& node, const EcsBind& bind);

enum class NodeAction {
  kCreate,  // no node of the desired name: create `node`
  kInSync,  // ours and as wanted: nothing to write
  kRepair,  // ours but changed: write `node` back (see the flags)
  kTaken,   // the name belongs to a node we do not control: phase Failed
};

struct NodePlan {
  NodeAction action = NodeAction::kInSync;
  // kCreate: the new node; kRepair: the existing node with our members set
  // again and everything else as found.
  Node node;
  bool metadata_changed = false;   // kRepair: the label differs (PUT the node)
  bool addresses_changed = false;  // kRepair: the InternalIP differs (PUT its status)
};

// What to do with `existing`, the node of desired_node_name(bind) (nullopt
// when there is none).
NodePlan plan_node(const EcsBind& bind, const std::optional<Node>& existing);

// Names of the nodes in `nodes` that `bind` controls under another name than
// the desired one (left over when spec.nodeName or spec.instanceId changed):
// the controller deletes them.
std::vector<std::string> stale_node_names(const EcsBind& bind, const std::vector<Node>& nodes);

// Where a reconcile got to, as the status reports it.
struct Outcome {
  std::string_view phase;  // phase::kPending, kBound or kFailed
  std::string reason;
  std::string message;
  std::string node_name;  // status.nodeName: set only when Bound
};

// Just seen: the finalizer is in place, the node not yet.
Outcome pending_outcome(const EcsBind& bind);
// The node exists, is ours and is as wanted.
Outcome bound_outcome(const EcsBind& bind);
// The desired name belongs to a node we do not control.
Outcome taken_outcome(const EcsBind& bind);

// The status `bind` should have after `outcome`: phase, reason, message,
// nodeName, observedGeneration = metadata.generation, and the Ready
// condition (True when Bound, False when Failed, Unknown when Pending; its
// lastTransitionTime moves only when its status does, to `now`). nullopt
// when that is the status it already has, so an unchanged status is never
// written (a write would be a watch event, and another reconcile).
std::optional<EcsBindStatus> status_update(const EcsBind& bind, const Outcome& outcome,
                                           api::Time now = api::Time::now().rfc3339_copy());

}  // namespace kcm::ecsbind
