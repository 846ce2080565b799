// The object store of kcm-local: every API object in memory, one global
// revision (the resourceVersion), a bounded per-resource history of changes,
// and watchers fed in revision order.
//
// Writes are made durable by the write-ahead log before anyone can see them:
// a commit updates the maps at once, but reads and watches are served at the
// "visible" revision, the newest one that is on disk and dispatched. Newer,
// not yet durable changes are hidden by undoing them through the history
// (the same mechanism serves consistent paginated lists at an older revision).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "api/result.h"
#include "local/storage/stored_object.h"

namespace kcm::local::storage {

class WriteAheadLog;

enum class EventType { kAdded, kModified, kDeleted };

struct Event {
  EventType type;
  std::uint64_t revision;
  ObjectPtr object;  // the new state; for kDeleted the final state at `revision`
  ObjectPtr prev;    // the state before (null for kAdded)
};

// Receives the events of one watch. deliver() is called in revision order
// from the store's notification path and must not block.
class WatchSink {
 public:
  virtual ~WatchSink() = default;
  virtual void deliver(const Event& event) = 0;
};

enum class StoreError {
  kAlreadyExists,  // create of an existing key
  kNotFound,       // update/delete of a missing key
  kConflict,       // the key changed since the caller read it
  kExpired,        // the requested revision is older than the retained history
  kStorage,        // the log could not persist the write
};

using ResourceId = std::uint32_t;

struct StoreOptions {
  std::size_t history_per_resource = 10000;  // events kept for watch resumption
  std::uint64_t compact_log_after_bytes = 64ull << 20;
  bool fsync = true;
};

// Builds a StoredObject from persisted JSON (used on recovery).
using ObjectFactory = std::function<Result<ObjectPtr>(std::string_view resource, std::string json)>;

class Store {
 public:
  // An in-memory store (nothing persisted), for tests and benchmarks.
  explicit Store(StoreOptions options = {});
  // A store persisted in `dir`: recovers the objects and history from it.
  static Result<std::unique_ptr<Store>> open(const std::filesystem::path& dir, StoreOptions options,
                                             const ObjectFactory& factory,
                                             std::vector<std::string>* warnings);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The id of a resource such as "apps/deployments" (registered on first use).
  ResourceId resource(std::string_view name);

  std::uint64_t visible_revision() const;

  // Reads at the visible revision.
  ObjectPtr get(ResourceId r, std::string_view key) const;

  struct ListOptions {
    std::optional<std::uint64_t> at_revision;  // nullopt: the visible revision
    std::string key_prefix;                    // "ns/" to restrict to a namespace
    std::string start_after;                   // exclusive start key (pagination)
    std::size_t limit = 0;                     // 0: no limit
    std::function<bool(const StoredObject&)> predicate;
  };
  struct ListResult {
    std::vector<ObjectPtr> items;
    std::uint64_t revision = 0;
    bool more = false;          // stopped because of the limit
    std::size_t remaining = 0;  // items left after the page (only when !predicate)
  };
  Result<ListResult, StoreError> list(ResourceId r, const ListOptions& options) const;

  // Writes. `build` runs under the store lock with the revision the write gets
  // and returns the object to store (with that resourceVersion in its JSON); it
  // must be cheap. `done` runs once the write is durable and visible (on the log's
  // thread) or at once when a precondition fails.
  enum class Op { kCreate, kUpdate, kDelete };
  struct Write {
    ResourceId resource;
    std::string key;
    Op op;
    // For updates and deletes: the revision the caller based its change on;
    // a different current revision is a conflict. nullopt: unconditional.
    std::optional<std::uint64_t> expected_revision;
    std::function<ObjectPtr(std::uint64_t revision)> build;
  };
  using WriteCallback = std::function<void(Result<ObjectPtr, StoreError>)>;
  void commit(Write write, WriteCallback done);

  // The newest revision assigned, visible or still being persisted.
  std::uint64_t latest_revision() const;
  // Runs `f` once every revision up to `revision` is visible: at once when it
  // is, else on the log's thread after the write that makes it so. A writer
  // that lost a conflict to a write not yet visible waits here before reading
  // again (etcd's GuaranteedUpdate re-reads the winner's state).
  void when_visible(std::uint64_t revision, std::function<void()> f);

  // Watches. Events after `from_revision` are replayed from the history, then
  // live ones follow. With `initial_state`, the objects existing at the visible
  // revision are first sent as kAdded (what a watch from resourceVersion=0 does).
  struct WatchOptions {
    ResourceId resource;
    std::string key_prefix;
    std::optional<std::uint64_t> from_revision;  // nullopt: from now
    bool initial_state = false;
  };
  class WatchHandle;
  Result<std::unique_ptr<WatchHandle>, StoreError> watch(const WatchOptions& options,
                                                         std::shared_ptr<WatchSink> sink);

  // Drops every retained history event (watches from older revisions get 410).
  void compact_history();
  // The oldest revision a watch or consistent list can start from.
  std::uint64_t compacted_revision(ResourceId r) const;

  struct Stats {
    std::size_t objects = 0;
    std::size_t history_events = 0;
    std::size_t watchers = 0;
  };
  Stats stats() const;

 private:
  struct Watcher;
  struct ResourceState {
    std::string name;
    std::map<std::string, ObjectPtr, std::less<>> objects;
    std::deque<Event> history;             // events in revision order
    std::uint64_t compacted_revision = 0;  // history covers revisions after this
  };

  Store(StoreOptions options, std::unique_ptr<WriteAheadLog> log);
  ResourceState& state(ResourceId r) const;
  ResourceId resource_locked(std::string_view name);
  // Objects of `rs` whose state at `revision` differs from the current map:
  // key -> state at `revision` (null when absent then).
  std::map<std::string, ObjectPtr, std::less<>> overlay_locked(const ResourceState& rs,
                                                               std::uint64_t revision) const;
  void record_history_locked(ResourceState& rs, Event event);
  void publish(std::uint64_t revision, ResourceId r, const Event& event);
  void maybe_compact_log();

  const StoreOptions options_;
  std::unique_ptr<WriteAheadLog> log_;

  mutable std::mutex mu_;  // guards resources_, names_, revision_, visible_revision_
  std::vector<std::unique_ptr<ResourceState>> resources_;
  std::unordered_map<std::string, ResourceId> names_;
  std::uint64_t revision_ = 0;          // last assigned
  std::uint64_t visible_revision_ = 0;  // last durable and dispatched
  std::uint64_t compacted_floor_ = 0;   // no history is kept before this, for any resource
  // when_visible() callbacks by the revision they wait for (guarded by mu_).
  std::multimap<std::uint64_t, std::function<void()>> visible_waiters_;

  // Guards watchers_. Lock order: mu_ before watch_mu_.
  mutable std::mutex watch_mu_;
  std::vector<std::shared_ptr<Watcher>> watchers_;

  std::mutex compact_mu_;  // guards compactor_: one log compaction at a time
  std::thread compactor_;
  std::atomic<bool> compacting_{false};
};

class Store::WatchHandle {
 public:
  ~WatchHandle();  // unregisters the watcher
  // The revision the watch started at: every later event is delivered.
  std::uint64_t start_revision() const;
  WatchHandle(const WatchHandle&) = delete;
  WatchHandle& operator=(const WatchHandle&) = delete;

 private:
  friend class Store;
  WatchHandle(Store* store, std::shared_ptr<Watcher> watcher)
      : store_(store), watcher_(std::move(watcher)) {}
  Store* store_;
  std::shared_ptr<Watcher> watcher_;
};

std::string_view to_string(StoreError e);

}  // namespace kcm::local::storage
