#include "cache/real_fifo.h"

#include <unordered_map>
#include <unordered_set>

namespace kcm::cache {

std::string_view to_string(DeltaType type) {
  switch (type) {
    case DeltaType::kAdded:
      return "Added";
    case DeltaType::kUpdated:
      return "Updated";
    case DeltaType::kDeleted:
      return "Deleted";
    case DeltaType::kReplaced:
      return "Replaced";
    case DeltaType::kSync:
      return "Sync";
  }
  return "";
}

void RealFifo::push(DeltaType type, DeletedObject obj) {
  {
    std::lock_guard lock(mu_);
    populated_ = true;
    if (direct_ && items_.empty() && !closed_) {
      // Nothing queued: an initial list, if any, is all popped.
      direct_(Delta{type, std::move(obj)}, /*is_in_initial_list=*/false);
      return;
    }
    items_.push_back(Delta{type, std::move(obj)});
  }
  // Woken after the unlock: a pop() woken under the lock would only block
  // again on the mutex (a futex wait and wake more for every delta).
  cv_.notify_all();
}

void RealFifo::add(ObjectPtr obj) {
  push(DeltaType::kAdded, std::move(obj));
}

void RealFifo::update(ObjectPtr obj) {
  push(DeltaType::kUpdated, std::move(obj));
}

void RealFifo::remove(ObjectPtr obj) {
  push(DeltaType::kDeleted, std::move(obj));
}

void RealFifo::replace(std::vector<ObjectPtr> objects, const std::string& /*resource_version*/) {
  std::lock_guard lock(mu_);
  std::unordered_set<std::string_view> new_keys;
  new_keys.reserve(objects.size());
  for (const ObjectPtr& obj : objects)
    new_keys.insert(obj->key());

  // The last queued entry per key, in first-queued order.
  std::vector<std::string_view> queued_keys;
  std::unordered_map<std::string_view, const Delta*> last_queued;
  for (const Delta& d : items_) {
    const std::string_view key = key_of(d.object);
    auto [it, inserted] = last_queued.try_emplace(key, &d);
    if (inserted) {
      queued_keys.push_back(key);
    } else {
      it->second = &d;
    }
  }

  std::vector<Delta> deletes;
  // Queued objects the list no longer has: deleted while the watch was down,
  // unless their last entry already is a delete.
  for (std::string_view key : queued_keys) {
    if (new_keys.count(key) != 0) continue;
    const Delta* last = last_queued.at(key);
    if (last->type == DeltaType::kDeleted) continue;
    deletes.push_back(
        {DeltaType::kDeleted, DeletedFinalStateUnknown{std::string(key), object_of(last->object)}});
  }
  // Known objects the list no longer has.
  for (std::string& key : known_.list_keys()) {
    if (new_keys.count(key) != 0 || last_queued.count(key) != 0) continue;
    // The cache can only lose it meanwhile if someone else writes it; then the
    // tombstone carries no object, as upstream's.
    ObjectPtr last = known_.get_by_key(key);
    deletes.push_back(
        {DeltaType::kDeleted, DeletedFinalStateUnknown{std::move(key), std::move(last)}});
  }
  // `last_queued` points into items_: it is not used past this point.
  for (Delta& d : deletes)
    items_.push_back(std::move(d));
  for (ObjectPtr& obj : objects)
    items_.push_back({DeltaType::kReplaced, std::move(obj)});
  cv_.notify_all();

  if (!populated_) {
    populated_ = true;
    initial_population_count_ = items_.size();
  }
}

void RealFifo::resync() {
  std::lock_guard lock(mu_);
  std::unordered_set<std::string_view> queued;
  for (const Delta& d : items_)
    queued.insert(key_of(d.object));
  bool pushed = false;
  for (const std::string& key : known_.list_keys()) {
    // An object with an entry queued is left alone: a Sync would carry the
    // cache's older state after the queued newer one.
    if (queued.count(key) != 0) continue;
    ObjectPtr obj = known_.get_by_key(key);
    if (!obj) continue;
    items_.push_back({DeltaType::kSync, std::move(obj)});
    pushed = true;
  }
  if (pushed) cv_.notify_all();
}

bool RealFifo::pop(const Process& process) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !items_.empty() || closed_; });
  if (items_.empty()) return false;
  const bool is_in_initial_list = !has_synced_locked();
  const Delta item = std::move(items_.front());
  items_.pop_front();
  if (initial_population_count_ > 0) --initial_population_count_;
  process(item, is_in_initial_list);
  return true;
}

void RealFifo::process_directly_when_empty(Process process) {
  std::lock_guard lock(mu_);
  direct_ = std::move(process);
}

void RealFifo::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

bool RealFifo::is_closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

bool RealFifo::has_synced() const {
  std::lock_guard lock(mu_);
  return has_synced_locked();
}

std::size_t RealFifo::size() const {
  std::lock_guard lock(mu_);
  return items_.size();
}

}  // namespace kcm::cache
