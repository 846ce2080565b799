// The immutable form of an object in an informer's cache, shared as
// std::shared_ptr<const CachedObject> by the store, the delta queue, event
// handlers and listers. The metadata controllers index and filter on is kept
// parsed (in one compact block); the whole object is kept compressed (see
// object_codec.h) and decoded on demand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "api/json.h"
#include "api/labels.h"
#include "api/result.h"
#include "cache/object_codec.h"
#include "cache/object_summary.h"

namespace kcm::cache {

class CachedObject;
using ObjectPtr = std::shared_ptr<const CachedObject>;

// metadata.ownerReferences[i], as views into the cached object.
struct OwnerRef {
  std::string_view api_version;
  std::string_view kind;
  std::string_view name;
  std::string_view uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
};

class CachedObject {
 public:
  // Parses the metadata and stores the whole object through `codec`. An error
  // when `obj` is not a JSON object.
  static Result<ObjectPtr> from_json(const api::json::value& obj, ObjectCodec& codec);
  // Same, without compression (tests, tiny caches).
  static Result<ObjectPtr> from_json(const api::json::value& obj);
  // Either of the above (`codec` may be null), also keeping `summarize(obj)`
  // (when `summarize` is set) as the object's summary.
  static Result<ObjectPtr> from_json(const api::json::value& obj, ObjectCodec* codec,
                                     Summarizer summarize);

  // The store key: "namespace/name", or "name" for cluster-scoped objects
  // (upstream MetaNamespaceKeyFunc).
  std::string_view key() const { return text(kKey); }
  std::string_view namespace_() const { return key().substr(0, namespace_size_); }
  std::string_view name() const {
    return namespace_size_ == 0 ? key() : key().substr(namespace_size_ + 1);
  }
  std::string_view uid() const { return text(kUid); }
  std::string_view resource_version() const { return text(kResourceVersion); }
  std::string_view creation_timestamp() const { return text(kCreationTimestamp); }
  // The RFC 3339 text, when metadata.deletionTimestamp is set.
  std::optional<std::string_view> deletion_timestamp() const;
  std::int64_t generation() const { return generation_; }

  // metadata.labels, sorted by key.
  std::size_t label_count() const { return label_count_; }
  std::pair<std::string_view, std::string_view> label(std::size_t i) const {
    return {text(kFixedSpans + 2 * i), text(kFixedSpans + 2 * i + 1)};
  }
  std::optional<std::string_view> label_value(std::string_view key) const;
  bool matches(const api::labels::Selector& selector) const;

  std::size_t owner_count() const { return owner_count_; }
  OwnerRef owner_reference(std::size_t i) const;
  // The owner reference with controller=true (upstream GetControllerOf).
  std::optional<OwnerRef> controller_ref() const;

  // The whole object, decoded (a fresh value each call: callers may modify
  // it), allocated from `sp`.
  api::json::value object(api::json::storage_ptr sp = {}) const;
  // Its JSON text (as serialized when cached).
  std::string json_text() const;

  // The summary its informer's summarizer made of it (null: none was set).
  const std::shared_ptr<const ObjectSummary>& summary() const { return summary_; }

  // Bytes this object holds on the heap, excluding the shared dictionary.
  std::size_t footprint_bytes() const;
  std::size_t body_bytes() const { return body_size_; }

  // Public for std::make_shared; use from_json.
  struct Private {};
  explicit CachedObject(Private) {}

 private:
  struct Span {
    std::uint32_t offset;
    std::uint32_t size;
  };
  enum : std::size_t {
    kKey,
    kUid,
    kResourceVersion,
    kCreationTimestamp,
    kDeletionTimestamp,
    kFixedSpans
  };
  enum Flags : std::uint8_t { kHasDeletion = 1, kCompressed = 2 };

  std::string_view text(std::size_t span) const {
    Span s;
    std::memcpy(&s, block_.get() + span * sizeof(Span), sizeof(Span));
    return {reinterpret_cast<const char*>(block_.get()) + s.offset, s.size};
  }
  std::size_t span_count() const { return kFixedSpans + 2 * label_count_ + 4 * owner_count_; }
  const std::uint8_t* owner_flags() const {
    return reinterpret_cast<const std::uint8_t*>(block_.get()) + span_count() * sizeof(Span);
  }

  // [spans][owner flags][text][body]: one allocation for everything variable.
  std::unique_ptr<std::byte[]> block_;
  std::shared_ptr<const CompressionDictionary> dictionary_;
  std::shared_ptr<const ObjectSummary> summary_;
  std::int64_t generation_ = 0;
  std::uint32_t block_size_ = 0;
  std::uint32_t body_offset_ = 0;
  std::uint32_t body_size_ = 0;
  std::uint32_t raw_size_ = 0;
  std::uint32_t namespace_size_ = 0;
  std::uint16_t label_count_ = 0;
  std::uint16_t owner_count_ = 0;
  std::uint8_t flags_ = 0;
};

// What a delete delivers when the final state of the object is unknown: it
// vanished while the watch was down and a re-list no longer contains it.
// `object` is the last known state (may be null).
struct DeletedFinalStateUnknown {
  std::string key;
  ObjectPtr object;
};

// An object or its tombstone, as the delta queue and on_delete carry it.
using DeletedObject = std::variant<ObjectPtr, DeletedFinalStateUnknown>;

// upstream DeletionHandlingMetaNamespaceKeyFunc.
std::string_view key_of(const DeletedObject& obj);
// The object, or the tombstone's last known state (may be null).
const ObjectPtr& object_of(const DeletedObject& obj);

// "namespace/name" or "name" (upstream MetaNamespaceKeyFunc for a namespace and name).
std::string make_key(std::string_view namespace_, std::string_view name);
// upstream SplitMetaNamespaceKey: an error for more than one '/'.
Result<std::pair<std::string, std::string>> split_key(std::string_view key);

}  // namespace kcm::cache
