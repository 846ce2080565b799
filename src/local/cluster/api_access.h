// The cluster's way into kcm-local's API: the same REST semantics the HTTP
// handlers use (RestStore: validation, status subresource rules, graceful
// deletion, the binding subresource), called in-process, with every
// completion and watch event delivered on the cluster's Loop thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "local/apiserver/rest_store.h"
#include "local/cluster/loop.h"

namespace kcm::local::cluster {

namespace json = boost::json;

enum class Kind { kPods, kNodes, kLeases, kCoreEvents, kEvents };

class ApiAccess {
 public:
  ApiAccess(apiserver::RestStore& rest, const registry::ResourceTable& table,
            std::shared_ptr<Loop> loop);

  // The object a write left, decoded only when asked for: most writers only
  // need to know that the write worked. Empty for a Status answer.
  class Written {
   public:
    Written() = default;
    explicit Written(storage::ObjectPtr stored) : stored_(std::move(stored)) {}
    json::object object() const;

   private:
    storage::ObjectPtr stored_;
  };
  // What a write left, or the API error.
  using Outcome = Result<Written, api::Status>;
  using Done = std::function<void(Outcome)>;
  using Mutation = apiserver::RestStore::Mutation;

  // The managedFields names of kcm-local's components, as upstream's User-Agents give them.
  static constexpr std::string_view kKubelet = "kubelet";
  static constexpr std::string_view kScheduler = "kube-scheduler";

  std::optional<json::object> get(Kind kind, std::string_view ns, std::string_view name) const;
  void create(Kind kind, std::string_view ns, json::object obj, Done done,
              std::string_view manager = kKubelet);
  // Read-modify-write of the main resource or of its status subresource.
  void update(Kind kind, std::string_view ns, std::string_view name, Mutation mutate, Done done,
              std::string_view manager = kKubelet);
  void update_status(Kind kind, std::string_view ns, std::string_view name, Mutation mutate,
                     Done done, std::string_view manager = kKubelet);
  void remove(Kind kind, std::string_view ns, std::string_view name,
              const apiserver::DeleteOptions& options, Done done);
  // POST pods/NAME/binding.
  void bind(std::string_view ns, std::string_view name, json::object binding, Done done);

  enum class EventType { kAdded, kModified, kDeleted };
  using WatchHandler = std::function<void(EventType, json::object)>;
  class Watch;
  // Every existing object as kAdded, then every change; stops when the Watch is destroyed.
  // Objects come without metadata.managedFields, which no simulated component reads.
  Result<std::unique_ptr<Watch>, std::string> watch(Kind kind, WatchHandler handler);

 private:
  const registry::ResourceInfo& info(Kind kind) const;
  apiserver::WriteDone deliver(Done done) const;

  apiserver::RestStore& rest_;
  std::shared_ptr<Loop> loop_;
  std::vector<const registry::ResourceInfo*> infos_;  // by Kind
};

class ApiAccess::Watch {
 public:
  ~Watch();

 private:
  friend class ApiAccess;
  struct Sink;
  std::shared_ptr<Sink> sink_;
  std::unique_ptr<storage::Store::WatchHandle> handle_;
};

}  // namespace kcm::local::cluster
