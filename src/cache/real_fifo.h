// The delta queue of shared informers: upstream's RealFIFO (the default since
// the InOrderInformers gate went GA in 1.36). Every notification is its own
// entry, delivered in arrival order, with no per-key merging. A re-list queues
// Replaced for every listed object after Deleted(DeletedFinalStateUnknown) for
// each known or queued key the list no longer has.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "cache/delta.h"
#include "cache/indexer.h"

namespace kcm::cache {

class RealFifo : public ReflectorStore {
 public:
  // `known` is the consumer's cache (the informer's indexer); it must outlive the queue.
  explicit RealFifo(const KnownObjects& known) : known_(known) {}

  void add(ObjectPtr obj) override;
  void update(ObjectPtr obj) override;
  void remove(ObjectPtr obj) override;
  void replace(std::vector<ObjectPtr> objects, const std::string& resource_version) override;
  // Queues Sync for every known object that has nothing queued.
  void resync() override;

  // Blocks for the oldest entry and calls `process` with it under the queue's
  // lock (so Replace and Resync see the cache consistent with the queue).
  // `is_in_initial_list` is true while the first Replace's items are popped.
  // Returns false once closed and empty.
  using Process = std::function<void(const Delta& delta, bool is_in_initial_list)>;
  bool pop(const Process& process);

  // Once set, an add, update or remove that finds the queue empty is processed
  // at once on the calling thread, under the queue's lock as pop() would,
  // instead of waking pop()'s thread for it: the order is the same, one thread
  // wake-up per delta fewer. Set before the producer starts; off after close().
  void process_directly_when_empty(Process process);

  // Wakes pop() for good; entries still queued are popped first.
  void close();
  bool is_closed() const;
  // True once Add/Update/Delete came first, or the first Replace's items were all popped.
  bool has_synced() const;
  std::size_t size() const;

 private:
  void push(DeltaType type, DeletedObject obj);
  bool has_synced_locked() const { return populated_ && initial_population_count_ == 0; }

  const KnownObjects& known_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Delta> items_;
  Process direct_;
  bool populated_ = false;
  std::size_t initial_population_count_ = 0;
  bool closed_ = false;
};

}  // namespace kcm::cache
