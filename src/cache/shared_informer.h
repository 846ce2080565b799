// SharedIndexInformer: one reflector and one cache per resource, shared by
// any number of event handlers (client-go tools/cache shared_informer.go;
// spec §6.3–6.5). The reflector feeds a RealFIFO; one thread pops it, updates
// the indexer and copies each notification to every handler's own queue.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "cache/event_handler.h"
#include "cache/indexer.h"
#include "cache/lister_watcher.h"
#include "cache/object_codec.h"
#include "cache/object_summary.h"
#include "cache/real_fifo.h"
#include "cache/reflector.h"

namespace kcm::cache {

class ProcessorListener;

// Changes an object before it is cached; must be idempotent (upstream TransformFunc).
using TransformFunc = std::function<Result<void>(api::json::value& obj)>;
// kcm's transform: drops metadata.managedFields, which no controller reads.
Result<void> drop_managed_fields(api::json::value& obj);

// Handlers may not resync more often than this.
inline constexpr std::chrono::milliseconds kMinimumResyncPeriod{1000};

struct SharedInformerOptions {
  // The default resync of handlers (the factory's), and the initial resync check period.
  std::chrono::milliseconds resync_period{0};
  Indexers indexers;
  TransformFunc transform;
  // Keeps a typed summary beside each cached object (null: none).
  Summarizer summarize = nullptr;
  // Keep objects zstd-compressed (with a trained dictionary); off: raw JSON text.
  bool compress = true;
  ObjectCodec::Options codec;
  // name, type_description, page_size, use_watch_list, timeouts, back-off,
  // watch_error_handler. (resync_period, should_resync and decode are set by the informer.)
  ReflectorOptions reflector;
};

class SharedIndexInformer {
 public:
  SharedIndexInformer(std::shared_ptr<ListerWatcher> lw, SharedInformerOptions options);
  ~SharedIndexInformer();
  SharedIndexInformer(const SharedIndexInformer&) = delete;
  SharedIndexInformer& operator=(const SharedIndexInformer&) = delete;

  // Registers a handler with the default resync period (or `resync`). After
  // start, the handler first gets on_add(obj, true) for every cached object.
  // Error once the informer stopped.
  Result<std::shared_ptr<ResourceEventHandlerRegistration>> add_event_handler(
      std::shared_ptr<ResourceEventHandler> handler,
      std::optional<std::chrono::milliseconds> resync = std::nullopt);
  Result<void> remove_event_handler(const std::shared_ptr<ResourceEventHandlerRegistration>& r);

  // Runs until stop is requested (blocks); then stops every handler's thread.
  // A second call returns at once.
  void run(std::stop_token stop);

  // True once the initial list has been popped and processed.
  bool has_synced() const;
  bool has_started() const;
  bool is_stopped() const;
  std::string last_sync_resource_version() const;

  std::shared_ptr<const Indexer> indexer() const { return indexer_; }
  // Only before run: "informer has already started".
  Result<void> add_indexers(Indexers indexers);
  Result<void> set_transform(TransformFunc transform);
  // Only before run, and only one summarizer: asking again for the same one
  // succeeds (several controllers read the same summary of a shared informer).
  Result<void> set_summarizer(Summarizer summarize);

  // The compression of cached objects (for measurements).
  const ObjectCodec* codec() const { return codec_.get(); }

 private:
  void handle_delta(const Delta& delta, bool is_in_initial_list);
  void distribute(const auto& notification, bool is_sync);
  bool should_resync();
  Result<ObjectPtr> decode(api::json::value&& obj) const;

  const std::shared_ptr<ListerWatcher> lw_;
  SharedInformerOptions options_;
  const std::unique_ptr<ObjectCodec> codec_;
  const std::shared_ptr<Indexer> indexer_;
  const std::shared_ptr<RealFifo> fifo_;

  // started_, stopped_, resync periods, reflector_, transform.
  mutable std::mutex started_mu_;
  bool started_ = false;
  bool stopped_ = false;
  std::chrono::milliseconds resync_check_period_;
  std::chrono::milliseconds default_resync_;
  std::unique_ptr<Reflector> reflector_;

  // Held while a delta is processed, so a late handler's replay sees a stable cache.
  std::mutex block_deltas_;

  mutable std::shared_mutex listeners_mu_;
  std::vector<std::shared_ptr<ProcessorListener>> listeners_;
  bool listeners_started_ = false;
};

}  // namespace kcm::cache
