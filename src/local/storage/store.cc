#include "local/storage/store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "local/storage/write_ahead_log.h"

namespace kcm::local::storage {

std::string_view to_string(StoreError e) {
  switch (e) {
    case StoreError::kAlreadyExists:
      return "already exists";
    case StoreError::kNotFound:
      return "not found";
    case StoreError::kConflict:
      return "conflict";
    case StoreError::kExpired:
      return "expired";
    case StoreError::kStorage:
      return "storage failure";
  }
  return "unknown";
}

struct Store::Watcher {
  ResourceId resource;
  std::string key_prefix;
  std::uint64_t start_after;  // events at or before this revision were sent already
  std::shared_ptr<WatchSink> sink;
};

namespace {

bool has_prefix(std::string_view key, std::string_view prefix) {
  return key.substr(0, prefix.size()) == prefix;
}

// What a write's log record points into until the log has written it.
struct LoggedWrite {
  ObjectPtr object;  // the record's value is object->json
  std::string resource;
  std::string key;
};

}  // namespace

Store::Store(StoreOptions options) : options_(options) {}

Store::Store(StoreOptions options, std::unique_ptr<WriteAheadLog> log)
    : options_(options), log_(std::move(log)) {}

Store::~Store() {
  {
    std::lock_guard lock(compact_mu_);
    if (compactor_.joinable()) compactor_.join();
  }
  log_.reset();  // flushes what is buffered
}

Result<std::unique_ptr<Store>> Store::open(const std::filesystem::path& dir, StoreOptions options,
                                           const ObjectFactory& factory,
                                           std::vector<std::string>* warnings) {
  WalOptions wal_options;
  wal_options.fsync = options.fsync;
  Recovery recovery;
  auto log = WriteAheadLog::open(dir, wal_options, &recovery);
  if (!log) return fail(log.error());
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), recovery.warnings.begin(), recovery.warnings.end());
  }
  std::unique_ptr<Store> store(new Store(options, std::move(*log)));  // private constructor

  std::lock_guard lock(store->mu_);
  auto load = [&](const Record& record) -> Result<ObjectPtr> {
    auto object = factory(record.resource, record.value);
    if (!object) {
      return fail(fmt::format("{} {} at revision {}: {}", record.resource, record.key,
                              record.revision, object.error()));
    }
    return object;
  };
  for (const Record& record : recovery.snapshot) {
    auto object = load(record);
    if (!object) return fail(object.error());
    ResourceState& rs = store->state(store->resource_locked(record.resource));
    rs.objects[record.key] = *object;
  }
  std::uint64_t revision = recovery.snapshot_revision;
  for (const Record& record : recovery.tail) {
    auto object = load(record);
    if (!object) return fail(object.error());
    ResourceState& rs = store->state(store->resource_locked(record.resource));
    auto it = rs.objects.find(record.key);
    ObjectPtr prev = it == rs.objects.end() ? nullptr : it->second;
    Event event;
    event.revision = record.revision;
    event.object = *object;
    event.prev = prev;
    if (record.op == Record::Op::kDelete) {
      event.type = EventType::kDeleted;
      if (it != rs.objects.end()) rs.objects.erase(it);
    } else {
      event.type = prev ? EventType::kModified : EventType::kAdded;
      rs.objects[record.key] = *object;
    }
    revision = record.revision;
    store->revision_ = revision;
    store->visible_revision_ = revision;
    store->record_history_locked(rs, std::move(event));
  }
  store->revision_ = revision;
  store->visible_revision_ = revision;
  store->compacted_floor_ = recovery.snapshot_revision;
  for (auto& rs : store->resources_)
    rs->compacted_revision = recovery.snapshot_revision;
  return store;
}

ResourceId Store::resource(std::string_view name) {
  std::lock_guard lock(mu_);
  return resource_locked(name);
}

ResourceId Store::resource_locked(std::string_view name) {
  auto it = names_.find(std::string(name));
  if (it != names_.end()) return it->second;
  auto id = static_cast<ResourceId>(resources_.size());
  auto rs = std::make_unique<ResourceState>();
  rs->name = std::string(name);
  // A resource first seen now had no changes since the floor of the history.
  rs->compacted_revision = compacted_floor_;
  resources_.push_back(std::move(rs));
  names_.emplace(std::string(name), id);
  return id;
}

Store::ResourceState& Store::state(ResourceId r) const {
  return *resources_.at(r);
}

std::uint64_t Store::visible_revision() const {
  std::lock_guard lock(mu_);
  return visible_revision_;
}

std::uint64_t Store::latest_revision() const {
  std::lock_guard lock(mu_);
  return revision_;
}

void Store::when_visible(std::uint64_t revision, std::function<void()> f) {
  {
    std::lock_guard lock(mu_);
    if (revision > visible_revision_) {
      visible_waiters_.emplace(revision, std::move(f));
      return;
    }
  }
  f();
}

std::map<std::string, ObjectPtr, std::less<>> Store::overlay_locked(const ResourceState& rs,
                                                                    std::uint64_t revision) const {
  std::map<std::string, ObjectPtr, std::less<>> overlay;
  // Walk back through the changes after `revision`; the oldest one per key
  // holds (in `prev`) the state at `revision`.
  for (auto it = rs.history.rbegin(); it != rs.history.rend() && it->revision > revision; ++it) {
    const ObjectPtr& any = it->object ? it->object : it->prev;
    overlay[object_key(any->namespace_, any->name)] = it->prev;
  }
  return overlay;
}

ObjectPtr Store::get(ResourceId r, std::string_view key) const {
  std::lock_guard lock(mu_);
  const ResourceState& rs = state(r);
  ObjectPtr current;
  if (auto it = rs.objects.find(key); it != rs.objects.end()) current = it->second;
  if (revision_ == visible_revision_) return current;
  for (auto it = rs.history.rbegin(); it != rs.history.rend() && it->revision > visible_revision_;
       ++it) {
    const ObjectPtr& any = it->object ? it->object : it->prev;
    if (object_key(any->namespace_, any->name) == key) current = it->prev;
  }
  return current;
}

Result<Store::ListResult, StoreError> Store::list(ResourceId r, const ListOptions& options) const {
  std::lock_guard lock(mu_);
  const ResourceState& rs = state(r);
  const std::uint64_t at = options.at_revision.value_or(visible_revision_);
  if (at < rs.compacted_revision) return fail(StoreError::kExpired);
  const auto overlay = overlay_locked(rs, std::min(at, revision_));

  ListResult result;
  result.revision = at;
  // Merge the current map with the overlay (both sorted by key), starting at
  // the first key after `start_after` within the prefix.
  auto lower = [&](const auto& m) {
    auto it = m.lower_bound(options.key_prefix);
    if (!options.start_after.empty() && options.start_after >= options.key_prefix) {
      it = m.upper_bound(options.start_after);
    }
    return it;
  };
  auto oi = lower(rs.objects);
  auto vi = lower(overlay);
  auto in_prefix = [&](const std::string& key) { return has_prefix(key, options.key_prefix); };
  bool counting = false;  // past the limit: only counting what remains
  for (;;) {
    const bool o_ok = oi != rs.objects.end() && in_prefix(oi->first);
    const bool v_ok = vi != overlay.end() && in_prefix(vi->first);
    if (!o_ok && !v_ok) break;
    ObjectPtr object;
    if (v_ok && (!o_ok || vi->first <= oi->first)) {
      if (o_ok && vi->first == oi->first) ++oi;
      object = vi->second;
      ++vi;
    } else {
      object = oi->second;
      ++oi;
    }
    if (!object) continue;
    if (options.predicate && !options.predicate(*object)) continue;
    if (counting) {
      ++result.remaining;
      continue;
    }
    if (options.limit != 0 && result.items.size() == options.limit) {
      result.more = true;
      if (options.predicate) break;  // upstream gives no count when filtering
      counting = true;
      ++result.remaining;
      continue;
    }
    result.items.push_back(std::move(object));
  }
  return result;
}

void Store::record_history_locked(ResourceState& rs, Event event) {
  rs.history.push_back(std::move(event));
  while (rs.history.size() > options_.history_per_resource &&
         rs.history.front().revision <= visible_revision_) {
    rs.compacted_revision = rs.history.front().revision;
    rs.history.pop_front();
  }
}

void Store::commit(Write write, WriteCallback done) {
  std::unique_lock lock(mu_);
  ResourceState& rs = state(write.resource);
  auto it = rs.objects.find(write.key);
  ObjectPtr prev = it == rs.objects.end() ? nullptr : it->second;
  switch (write.op) {
    case Op::kCreate:
      if (prev) {
        lock.unlock();
        done(fail(StoreError::kAlreadyExists));
        return;
      }
      break;
    case Op::kUpdate:
    case Op::kDelete:
      if (!prev) {
        lock.unlock();
        done(fail(StoreError::kNotFound));
        return;
      }
      if (write.expected_revision && *write.expected_revision != prev->revision) {
        lock.unlock();
        done(fail(StoreError::kConflict));
        return;
      }
      break;
  }
  const std::uint64_t revision = ++revision_;
  ObjectPtr object = write.build(revision);
  Event event;
  event.revision = revision;
  event.object = object;
  event.prev = prev;
  if (write.op == Op::kDelete) {
    event.type = EventType::kDeleted;
    rs.objects.erase(it);
  } else {
    event.type = prev ? EventType::kModified : EventType::kAdded;
    if (prev) {
      it->second = object;
    } else {
      rs.objects.emplace(write.key, object);
    }
  }
  record_history_locked(rs, event);

  if (!log_) {
    // In memory: visible at once. Publishing under mu_ keeps revision order.
    visible_revision_ = revision;
    {
      std::lock_guard wlock(watch_mu_);
      publish(revision, write.resource, event);
    }
    lock.unlock();
    done(std::move(object));
    return;
  }

  // The log writes the object's JSON from the object itself (no copy under mu_).
  auto logged =
      std::make_shared<const LoggedWrite>(LoggedWrite{object, rs.name, std::move(write.key)});
  const RecordView record{write.op == Op::kDelete ? Record::Op::kDelete : Record::Op::kPut,
                          revision, logged->resource, logged->key, object->json};
  const ResourceId r = write.resource;
  auto on_durable = [this, revision, r, event = std::move(event), object,
                     done = std::move(done)](const Result<void>& durable) {
    if (!durable) {
      // The in-memory state is already ahead of the disk; serving on would
      // acknowledge writes that a restart loses. Stop like etcd does.
      std::fprintf(stderr, "kcm-local: fatal: cannot persist revision %llu: %s\n",
                   static_cast<unsigned long long>(revision), durable.error().c_str());
      std::fflush(stderr);
      std::_Exit(70);
    }
    std::vector<std::function<void()>> now_visible;
    {
      std::lock_guard lock(mu_);
      visible_revision_ = std::max(visible_revision_, revision);
      const auto last = visible_waiters_.upper_bound(visible_revision_);
      for (auto it = visible_waiters_.begin(); it != last; ++it)
        now_visible.push_back(std::move(it->second));
      visible_waiters_.erase(visible_waiters_.begin(), last);
    }
    // The writer hears first (its answer is not queued behind every watcher's),
    // then the watchers, still in revision order.
    done(object);
    {
      std::lock_guard wlock(watch_mu_);
      publish(revision, r, event);
    }
    for (auto& f : now_visible)
      f();
  };
  log_->append(record, std::move(logged), std::move(on_durable));
  lock.unlock();
  maybe_compact_log();
}

// Called with watch_mu_ held.
void Store::publish(std::uint64_t revision, ResourceId r, const Event& event) {
  const ObjectPtr& any = event.object ? event.object : event.prev;
  const std::string key = object_key(any->namespace_, any->name);
  for (const auto& w : watchers_) {
    if (w->resource != r || revision <= w->start_after) continue;
    if (!has_prefix(key, w->key_prefix)) continue;
    w->sink->deliver(event);
  }
}

Result<std::unique_ptr<Store::WatchHandle>, StoreError> Store::watch(
    const WatchOptions& options, std::shared_ptr<WatchSink> sink) {
  std::lock_guard lock(mu_);
  ResourceState& rs = state(options.resource);
  if (options.from_revision && *options.from_revision < rs.compacted_revision) {
    return fail(StoreError::kExpired);
  }
  auto watcher = std::make_shared<Watcher>();
  watcher->resource = options.resource;
  watcher->key_prefix = options.key_prefix;
  watcher->sink = sink;
  std::vector<Event> initial;
  if (options.initial_state) {
    ListOptions list_options;
    list_options.key_prefix = options.key_prefix;
    const auto overlay = overlay_locked(rs, visible_revision_);
    // Same merge as list(), without a limit.
    auto oi = rs.objects.lower_bound(options.key_prefix);
    auto vi = overlay.lower_bound(options.key_prefix);
    for (;;) {
      const bool o_ok = oi != rs.objects.end() && has_prefix(oi->first, options.key_prefix);
      const bool v_ok = vi != overlay.end() && has_prefix(vi->first, options.key_prefix);
      if (!o_ok && !v_ok) break;
      ObjectPtr object;
      if (v_ok && (!o_ok || vi->first <= oi->first)) {
        if (o_ok && vi->first == oi->first) ++oi;
        object = (vi++)->second;
      } else {
        object = (oi++)->second;
      }
      if (object) initial.push_back({EventType::kAdded, object->revision, object, nullptr});
    }
    watcher->start_after = visible_revision_;
  } else if (options.from_revision) {
    for (const Event& e : rs.history) {
      if (e.revision <= *options.from_revision || e.revision > visible_revision_) continue;
      const ObjectPtr& any = e.object ? e.object : e.prev;
      if (!has_prefix(object_key(any->namespace_, any->name), options.key_prefix)) continue;
      initial.push_back(e);
    }
    watcher->start_after = std::max(*options.from_revision, visible_revision_);
  } else {
    watcher->start_after = visible_revision_;
  }
  std::lock_guard wlock(watch_mu_);
  for (const Event& e : initial)
    sink->deliver(e);
  watchers_.push_back(watcher);
  return std::unique_ptr<WatchHandle>(new WatchHandle(this, std::move(watcher)));
}

std::uint64_t Store::WatchHandle::start_revision() const {
  return watcher_->start_after;
}

Store::WatchHandle::~WatchHandle() {
  std::lock_guard wlock(store_->watch_mu_);
  auto& ws = store_->watchers_;
  ws.erase(std::remove(ws.begin(), ws.end(), watcher_), ws.end());
}

void Store::compact_history() {
  std::lock_guard lock(mu_);
  for (auto& rs : resources_) {
    while (!rs->history.empty() && rs->history.front().revision <= visible_revision_) {
      rs->history.pop_front();
    }
    rs->compacted_revision = visible_revision_;
  }
  compacted_floor_ = visible_revision_;
}

std::uint64_t Store::compacted_revision(ResourceId r) const {
  std::lock_guard lock(mu_);
  return state(r).compacted_revision;
}

Store::Stats Store::stats() const {
  Stats s;
  {
    std::lock_guard lock(mu_);
    for (const auto& rs : resources_) {
      s.objects += rs->objects.size();
      s.history_events += rs->history.size();
    }
  }
  std::lock_guard wlock(watch_mu_);
  s.watchers = watchers_.size();
  return s;
}

void Store::maybe_compact_log() {
  if (!log_ || log_->bytes_since_snapshot() < options_.compact_log_after_bytes) return;
  std::unique_lock compact_lock(compact_mu_, std::try_to_lock);
  if (!compact_lock.owns_lock() || compacting_.load()) return;
  if (compactor_.joinable()) compactor_.join();
  // Cut the log and take the object set at the same revision, under the lock.
  WriteAheadLog::SnapshotCut cut;
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, ObjectPtr>>>> state;
  {
    std::lock_guard lock(mu_);
    cut = log_->begin_snapshot(revision_);
    for (const auto& rs : resources_) {
      state.emplace_back(rs->name, std::vector<std::pair<std::string, ObjectPtr>>(
                                       rs->objects.begin(), rs->objects.end()));
    }
  }
  compacting_ = true;
  compactor_ = std::thread([this, cut, state = std::move(state)] {
    // Views into the stored objects, which `state` keeps alive: no copies.
    std::vector<RecordView> records;
    for (const auto& [resource, objects] : state) {
      for (const auto& [key, object] : objects) {
        records.push_back({Record::Op::kPut, object->revision, resource, key, object->json});
      }
    }
    auto result = log_->finish_snapshot(cut, records);
    if (!result) {
      std::fprintf(stderr, "kcm-local: warning: log compaction failed: %s\n",
                   result.error().c_str());
    }
    compacting_ = false;
  });
}

}  // namespace kcm::local::storage
