// What an informer tells its handlers (upstream ResourceEventHandler). Each
// handler is called one notification at a time, in order: from a thread of its
// own by default, as upstream's processorListener does.
#pragma once

#include <functional>

#include "cache/cached_object.h"

namespace kcm::cache {

// The notifications a handler acts on. The informer queues only these for it:
// every queued notification wakes the handler's thread.
struct HandlerInterest {
  bool add = true;
  bool update = true;  // resyncs included
  bool remove = true;
};

// Where the informer calls a handler.
enum class HandlerDelivery {
  // A queue and a thread of the handler's own: a slow handler delays nobody.
  kOwnThread,
  // On the thread that applies the informer's deltas, before the next one.
  // For handlers that only read caches and queue keys (every built-in
  // controller's): it saves a thread wake-up per notification. Such a handler
  // must not block, nor call the informer that calls it (has_synced,
  // add_event_handler, ...): the informer is held while it runs.
  kInline,
};

class ResourceEventHandler {
 public:
  virtual ~ResourceEventHandler() = default;
  // Both read once, when the handler is added to an informer.
  virtual HandlerInterest interest() const { return {}; }
  virtual HandlerDelivery delivery() const { return HandlerDelivery::kOwnThread; }
  // `is_in_initial_list`: the object came with the initial list (or is
  // replayed to a handler added after the informer started).
  virtual void on_add(const ObjectPtr& obj, bool is_in_initial_list) = 0;
  // Also for resyncs (old == new resourceVersion) when the handler's resync is due.
  virtual void on_update(const ObjectPtr& old_obj, const ObjectPtr& new_obj) = 0;
  // The object, or a DeletedFinalStateUnknown tombstone.
  virtual void on_delete(const DeletedObject& obj) = 0;
};

// A handler from functions; unset ones do nothing (upstream
// ResourceEventHandlerFuncs). Set them before adding the handler: the
// informer sends only what a set function handles.
struct EventHandlerFuncs : ResourceEventHandler {
  std::function<void(const ObjectPtr&, bool)> add;
  std::function<void(const ObjectPtr&, const ObjectPtr&)> update;
  std::function<void(const DeletedObject&)> remove;
  HandlerDelivery delivery_mode = HandlerDelivery::kOwnThread;

  HandlerDelivery delivery() const override { return delivery_mode; }
  HandlerInterest interest() const override {
    return {.add = static_cast<bool>(add),
            .update = static_cast<bool>(update),
            .remove = static_cast<bool>(remove)};
  }
  void on_add(const ObjectPtr& obj, bool initial) override {
    if (add) add(obj, initial);
  }
  void on_update(const ObjectPtr& o, const ObjectPtr& n) override {
    if (update) update(o, n);
  }
  void on_delete(const DeletedObject& obj) override {
    if (remove) remove(obj);
  }
};

// The registration of a handler, returned by add_event_handler.
class ResourceEventHandlerRegistration {
 public:
  virtual ~ResourceEventHandlerRegistration() = default;
  // True once the informer synced and this handler has processed every
  // initial-list notification it was sent.
  virtual bool has_synced() const = 0;
};

}  // namespace kcm::cache
