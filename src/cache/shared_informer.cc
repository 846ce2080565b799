#include "cache/shared_informer.h"

#include <algorithm>
#include <thread>

#include "cache/log.h"
#include "cache/processor_listener.h"
#include "log/thread_name.h"

namespace kcm::cache {

namespace json = api::json;
using std::chrono::milliseconds;

namespace {

std::string format_duration(milliseconds d) {
  // Go's Duration.String() for whole milliseconds.
  const auto ms = d.count();
  if (ms == 0) return "0s";
  if (ms < 1000) return std::to_string(ms) + "ms";
  std::string out;
  auto s = ms / 1000;
  const auto frac = ms % 1000;
  if (s >= 3600) {
    out += std::to_string(s / 3600) + "h";
    s %= 3600;
    out += std::to_string(s / 60) + "m";
    s %= 60;
  } else if (s >= 60) {
    out += std::to_string(s / 60) + "m";
    s %= 60;
  }
  out += std::to_string(s);
  if (frac != 0) {
    std::string f = std::to_string(frac + 1000).substr(1);
    while (!f.empty() && f.back() == '0')
      f.pop_back();
    out += "." + f;
  }
  return out + "s";
}

milliseconds determine_resync_period(milliseconds desired, milliseconds check) {
  if (desired.count() == 0) return desired;
  if (check.count() == 0) {
    log(LogLevel::kWarning, "The specified resyncPeriod " + format_duration(desired) +
                                " is invalid because this shared informer doesn't support "
                                "resyncing");
    return milliseconds(0);
  }
  return desired < check ? check : desired;
}

}  // namespace

Result<void> drop_managed_fields(json::value& obj) {
  if (auto* o = obj.if_object()) {
    if (auto* meta = o->if_contains("metadata"); meta != nullptr && meta->is_object()) {
      meta->get_object().erase("managedFields");
    }
  }
  return {};
}

SharedIndexInformer::SharedIndexInformer(std::shared_ptr<ListerWatcher> lw,
                                         SharedInformerOptions options)
    : lw_(std::move(lw)),
      options_(std::move(options)),
      codec_(options_.compress ? std::make_unique<ObjectCodec>(options_.codec) : nullptr),
      indexer_(std::make_shared<Indexer>(std::move(options_.indexers))),
      fifo_(std::make_shared<RealFifo>(*indexer_)),
      resync_check_period_(options_.resync_period),
      default_resync_(options_.resync_period) {}

SharedIndexInformer::~SharedIndexInformer() {
  std::unique_lock lock(listeners_mu_);
  for (auto& l : listeners_)
    l->stop();
}

Result<ObjectPtr> SharedIndexInformer::decode(json::value&& obj) const {
  if (options_.transform) {
    auto r = options_.transform(obj);
    if (!r.ok()) return fail(r.error());
  }
  return CachedObject::from_json(obj, codec_.get(), options_.summarize);
}

Result<std::shared_ptr<ResourceEventHandlerRegistration>> SharedIndexInformer::add_event_handler(
    std::shared_ptr<ResourceEventHandler> handler, std::optional<milliseconds> resync) {
  std::lock_guard lock(started_mu_);
  if (stopped_) {
    return fail("handler was not added to shared informer because it has stopped already");
  }
  milliseconds period = resync.value_or(default_resync_);
  if (period.count() > 0) {
    if (period < kMinimumResyncPeriod) {
      log(LogLevel::kWarning, "resyncPeriod " + format_duration(period) +
                                  " is too small. Changing it to the minimum allowed value of " +
                                  format_duration(kMinimumResyncPeriod));
      period = kMinimumResyncPeriod;
    }
    if (period < resync_check_period_) {
      if (started_) {
        log(LogLevel::kWarning, "resyncPeriod " + format_duration(period) +
                                    " is smaller than resyncCheckPeriod " +
                                    format_duration(resync_check_period_) +
                                    " and the informer has already started. Changing it to " +
                                    format_duration(resync_check_period_));
        period = resync_check_period_;
      } else {
        // Not started: check more often, and re-derive the other handlers' periods.
        resync_check_period_ = period;
        std::shared_lock ll(listeners_mu_);
        for (auto& l : listeners_) {
          l->set_resync_period(determine_resync_period(l->requested_resync_period(), period));
        }
      }
    }
  }
  auto fifo = fifo_;
  auto listener = std::make_shared<ProcessorListener>(
      std::move(handler), period, determine_resync_period(period, resync_check_period_),
      [fifo] { return fifo->has_synced(); });

  if (!started_) {
    std::unique_lock ll(listeners_mu_);
    listeners_.push_back(listener);
    return std::shared_ptr<ResourceEventHandlerRegistration>(listener);
  }
  // Started: replay the cache to the new handler with no delta in between.
  std::lock_guard block(block_deltas_);
  {
    std::unique_lock ll(listeners_mu_);
    listeners_.push_back(listener);
    if (listeners_started_) listener->start();
  }
  // From a copy of the list: an inline handler runs in add() and may read
  // this informer's cache, which for_each would hold locked.
  for (ObjectPtr& obj : indexer_->list())
    listener->add(AddNotification{std::move(obj), true});
  return std::shared_ptr<ResourceEventHandlerRegistration>(listener);
}

Result<void> SharedIndexInformer::remove_event_handler(
    const std::shared_ptr<ResourceEventHandlerRegistration>& r) {
  std::lock_guard lock(started_mu_);
  std::lock_guard block(block_deltas_);
  std::shared_ptr<ProcessorListener> removed;
  {
    std::unique_lock ll(listeners_mu_);
    auto it = std::find_if(listeners_.begin(), listeners_.end(),
                           [&](const auto& l) { return l.get() == r.get(); });
    if (it == listeners_.end()) return {};
    removed = std::move(*it);
    listeners_.erase(it);
  }
  removed->stop();
  return {};
}

bool SharedIndexInformer::should_resync() {
  std::unique_lock ll(listeners_mu_);
  bool needed = false;
  const auto now = ProcessorListener::Clock::now();
  for (auto& l : listeners_) {
    l->syncing = l->should_resync(now);
    if (l->syncing) {
      needed = true;
      l->determine_next_resync(now);
    }
  }
  return needed;
}

void SharedIndexInformer::distribute(const auto& notification, bool is_sync) {
  std::shared_lock ll(listeners_mu_);
  for (auto& l : listeners_) {
    if (is_sync && !l->syncing) continue;
    l->add(notification);
  }
}

void SharedIndexInformer::handle_delta(const Delta& delta, bool is_in_initial_list) {
  std::lock_guard block(block_deltas_);
  switch (delta.type) {
    case DeltaType::kSync:
    case DeltaType::kReplaced:
    case DeltaType::kAdded:
    case DeltaType::kUpdated: {
      const ObjectPtr& obj = std::get<ObjectPtr>(delta.object);
      if (ObjectPtr old = indexer_->get_by_key(obj->key())) {
        indexer_->update(obj);
        // An unchanged resourceVersion is a resync: only handlers due for one get it.
        const bool is_sync = old->resource_version() == obj->resource_version();
        distribute(UpdateNotification{std::move(old), obj}, is_sync);
      } else {
        indexer_->add(obj);
        distribute(AddNotification{obj, is_in_initial_list}, false);
      }
      break;
    }
    case DeltaType::kDeleted:
      indexer_->remove(key_of(delta.object));
      distribute(DeleteNotification{delta.object}, false);
      break;
  }
}

void SharedIndexInformer::run(std::stop_token stop) {
  {
    std::lock_guard lock(started_mu_);
    if (started_) {
      log(LogLevel::kWarning,
          "The sharedIndexInformer has started, run more than once is not allowed");
      return;
    }
    ReflectorOptions ro = options_.reflector;
    ro.resync_period = resync_check_period_;
    ro.should_resync = [this] { return should_resync(); };
    ro.decode = [this](json::value&& obj) { return decode(std::move(obj)); };
    reflector_ = std::make_unique<Reflector>(*lw_, *fifo_, std::move(ro));
    started_ = true;
  }
  {
    std::unique_lock ll(listeners_mu_);
    for (auto& l : listeners_)
      l->start();
    listeners_started_ = true;
  }

  // Watch events that find the queue empty are applied on the reflector's
  // thread; pop() below takes the rest (lists, resyncs, backlogs).
  fifo_->process_directly_when_empty(
      [this](const Delta& d, bool initial) { handle_delta(d, initial); });
  std::thread reflector_thread([this, stop] {
    log::set_thread_name("reflector");
    reflector_->run(stop);
  });
  {
    std::stop_callback close_queue(stop, [this] { fifo_->close(); });
    while (!stop.stop_requested()) {
      if (!fifo_->pop([this](const Delta& d, bool initial) { handle_delta(d, initial); })) break;
    }
  }
  reflector_thread.join();

  std::vector<std::shared_ptr<ProcessorListener>> listeners;
  {
    std::lock_guard lock(started_mu_);
    stopped_ = true;
    std::unique_lock ll(listeners_mu_);
    listeners.swap(listeners_);
    listeners_started_ = false;
  }
  for (auto& l : listeners)
    l->stop();
}

bool SharedIndexInformer::has_synced() const {
  return fifo_->has_synced();
}

bool SharedIndexInformer::has_started() const {
  std::lock_guard lock(started_mu_);
  return started_;
}

bool SharedIndexInformer::is_stopped() const {
  std::lock_guard lock(started_mu_);
  return stopped_;
}

std::string SharedIndexInformer::last_sync_resource_version() const {
  std::lock_guard lock(started_mu_);
  return reflector_ ? reflector_->last_sync_resource_version() : std::string();
}

Result<void> SharedIndexInformer::add_indexers(Indexers indexers) {
  std::lock_guard lock(started_mu_);
  if (started_) return fail("informer has already started");
  return indexer_->add_indexers(std::move(indexers));
}

Result<void> SharedIndexInformer::set_transform(TransformFunc transform) {
  std::lock_guard lock(started_mu_);
  if (started_) return fail("informer has already started");
  options_.transform = std::move(transform);
  return {};
}

Result<void> SharedIndexInformer::set_summarizer(Summarizer summarize) {
  std::lock_guard lock(started_mu_);
  if (options_.summarize == summarize) return {};
  if (started_) return fail("informer has already started");
  if (options_.summarize != nullptr) return fail("informer already keeps another summary");
  options_.summarize = summarize;
  return {};
}

}  // namespace kcm::cache
