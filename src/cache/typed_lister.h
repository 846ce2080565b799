// TypedLister<T>: an informer's cache read as values of a kind T declared as
// a described struct (api/kind_info.h), over the untyped Lister.
//
//   SharedInformerFactory factory(...);
//   auto [informer, binds] = cache::typed_informer<EcsBind>(factory);
//   factory.start(stop);
//   factory.wait_for_cache_sync(stop);
//   Result<EcsBind, api::Status> bind = binds.get("bind-1");  // no API call
//
// Decoded values are not cached: each get/list decodes from the informer's
// compact store, so the cache costs no more than an untyped one, and every
// value returned is the caller's own copy to modify (unlike client-go's
// listers, whose shared objects must not be mutated).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/described_json.h"
#include "api/labels.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/cached_object.h"
#include "cache/informer_factory.h"
#include "cache/lister.h"
#include "cache/shared_informer.h"

namespace kcm::cache {

// A cached object decoded as T (for event handlers, which get ObjectPtrs).
template <api::Kind T>
Result<T, api::Status> decode_cached(const CachedObject& object) {
  return api::decode_object<T>(object.object());
}

namespace detail {
template <api::Kind T>
Result<std::vector<T>, api::Status> decode_all(const std::vector<ObjectPtr>& objects) {
  std::vector<T> out;
  out.reserve(objects.size());
  for (const ObjectPtr& o : objects) {
    auto decoded = decode_cached<T>(*o);
    if (!decoded) return fail(std::move(decoded).error());
    out.push_back(std::move(*decoded));
  }
  return out;
}
}  // namespace detail

template <api::Kind T>
class TypedNamespaceLister {
 public:
  explicit TypedNamespaceLister(NamespaceLister lister) : lister_(std::move(lister)) {}

  Result<std::vector<T>, api::Status> list(
      const api::labels::Selector& selector = api::labels::Selector::everything()) const {
    return detail::decode_all<T>(lister_.list(selector));
  }
  // NotFound: `ecsbinds.ecsbind.kcm.dev "name" not found`.
  Result<T, api::Status> get(std::string_view name) const {
    auto object = lister_.get(name);
    if (!object) return fail(std::move(object).error());
    return decode_cached<T>(**object);
  }

 private:
  NamespaceLister lister_;
};

template <api::Kind T>
class TypedLister {
 public:
  // `lister` must read T's informer (T::kind_info.gvr()).
  explicit TypedLister(Lister lister) : lister_(std::move(lister)) {}

  // Every cached object matching `selector` (all namespaces).
  Result<std::vector<T>, api::Status> list(
      const api::labels::Selector& selector = api::labels::Selector::everything()) const {
    return detail::decode_all<T>(lister_.list(selector));
  }
  // A cluster-scoped object by name, or a namespaced one by "namespace/name".
  Result<T, api::Status> get(std::string_view name) const {
    auto object = lister_.get(name);
    if (!object) return fail(std::move(object).error());
    return decode_cached<T>(**object);
  }
  TypedNamespaceLister<T> namespace_(std::string ns) const
      requires(T::kind_info.scope == api::Scope::kNamespaced) {
    return TypedNamespaceLister<T>(lister_.namespace_(std::move(ns)));
  }
  // The untyped lister, for ObjectPtr access without decoding.
  const Lister& untyped() const { return lister_; }

 private:
  Lister lister_;
};

template <api::Kind T>
struct TypedInformer {
  std::shared_ptr<SharedIndexInformer> informer;  // add event handlers here
  TypedLister<T> lister;
};

// The factory's informer for T (created on first use) and its typed lister.
template <api::Kind T>
TypedInformer<T> typed_informer(SharedInformerFactory& factory) {
  const api::GroupVersionResource gvr = T::kind_info.gvr();
  return {factory.informer_for(gvr), TypedLister<T>(factory.lister_for(gvr))};
}

}  // namespace kcm::cache
