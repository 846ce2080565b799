// kcm's writes as seen from the server's side: for when kcm's /metrics has
// no rest_client_requests_total, the benchmark watches the namespace's pods,
// ReplicaSets, Deployments and Events and attributes each change to kcm or
// not (pods appear and get deleted only by kcm's controllers; Deployment
// changes that keep the generation are kcm's status writes; Events are kcm's
// when their source.component is one of its controllers).
//
// A lower bound: writes the server refused (409 Conflict) or that changed
// nothing leave no event, and a relist after 410 would count items again.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "bench/collection_watch.h"

namespace kcm::bench {

class ObservedWrites {
 public:
  struct Counts {
    std::uint64_t pod_creates = 0, pod_deletes = 0;
    std::uint64_t replicaset_creates = 0, replicaset_updates = 0, replicaset_deletes = 0;
    std::uint64_t deployment_updates = 0;
    std::uint64_t event_creates = 0, event_updates = 0;
    std::uint64_t total() const;
    boost::json::object to_json() const;
  };

  // `event_components`: the source.component values of kcm's Events.
  explicit ObservedWrites(std::set<std::string> event_components);

  // Handlers for the watches of each collection (any thread).
  CollectionWatch::Handler pods();
  CollectionWatch::Handler replica_sets();
  CollectionWatch::Handler deployments();
  CollectionWatch::Handler events();

  Counts counts() const;

 private:
  void on_pod(WatchEventType type, const boost::json::object& pod);
  void on_replica_set(WatchEventType type, const boost::json::object& rs);
  void on_deployment(WatchEventType type, const boost::json::object& d);
  void on_event(WatchEventType type, const boost::json::object& e);

  const std::set<std::string> event_components_;
  mutable std::mutex mu_;
  Counts counts_;
  std::set<std::string> terminating_pods_;                     // deletionTimestamp seen
  std::map<std::string, std::int64_t> deployment_generation_;  // last seen
};

}  // namespace kcm::bench
