// kcm-local's default-scheduler: watches pods and nodes, binds each
// unscheduled pod (schedulerName default-scheduler, no scheduling gates)
// through the pods/binding subresource to the best Ready node that fits
// (fit.h), and records the verdict as upstream does: a Scheduled event, or
// PodScheduled=False/Unschedulable with a FailedScheduling event. Pods that
// fit nowhere are retried when nodes change or assigned pods go away, with
// upstream's per-pod back-off (1s doubling to 10s) and a 5 minute flush.
// Runs on the cluster's Loop thread only.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "api/json.h"
#include "local/cluster/api_access.h"
#include "local/cluster/events.h"
#include "local/cluster/fit.h"
#include "local/cluster/loop.h"

namespace kcm::local::cluster {

class Scheduler {
 public:
  Scheduler(Loop& loop, ApiAccess& api, EventRecorder& events);

  void on_pod(ApiAccess::EventType type, const json::object& pod);
  void on_node(ApiAccess::EventType type, const json::object& node);

 private:
  using Clock = std::chrono::steady_clock;

  struct Pending {
    json::object pod;
    std::string uid;
    int attempts = 0;
    Clock::time_point due;
    Clock::time_point last_attempt;
    bool unschedulable = false;  // waits for a cluster change (or the flush)
    bool binding = false;        // a binding is in flight
  };
  struct Assigned {
    std::string node;
    std::string uid;
    PodFacts facts;
  };
  // What the assigned pods of one node request, kept as pods come and go so
  // that a scheduling pass costs O(nodes), not O(pods).
  struct NodeUsage {
    Resources requested;
    Resources non_zero_requested;
    void add(const PodFacts& pod) {
      requested += pod.requests;
      non_zero_requested += pod.non_zero_requests;
    }
    void remove(const PodFacts& pod) {
      requested -= pod.requests;
      non_zero_requested -= pod.non_zero_requests;
    }
    void apply_to(NodeFacts& node) const {
      node.requested += requested;
      node.non_zero_requested += non_zero_requested;
    }
  };

  void cluster_changed();
  void arm();
  void run();
  void schedule_one(const std::string& key, Pending& p, std::vector<NodeFacts>& nodes);
  void bind(const std::string& key, Pending& p, const std::string& node);
  void unschedulable(Pending& p, const std::string& message);
  std::vector<NodeFacts> node_facts() const;
  // Every change to assigned_ goes through these, which keep usage_ in step.
  void assign(const std::string& key, Assigned a);
  bool unassign(const std::string& key);
  void unassign(std::map<std::string, Assigned>::iterator it);

  Loop& loop_;
  ApiAccess& api_;
  EventRecorder& events_;
  // A node as the filters see it; heartbeats that leave the view alone keep it.
  struct KnownNode {
    std::string scheduling_view;
    NodeFacts facts;  // without its pods (see usage_)
  };
  std::map<std::string, KnownNode> nodes_;    // by name
  std::map<std::string, Pending> pending_;    // by namespace/name
  std::map<std::string, Assigned> assigned_;  // bound (or being bound) pods, by namespace/name
  std::map<std::string, NodeUsage> usage_;    // of assigned_, by node name
  Loop::Timer timer_;
  Clock::time_point timer_due_ = Clock::time_point::max();
};

}  // namespace kcm::local::cluster
