#include "cache/lister.h"

#include "cache/label_index.h"
#include "cache/log.h"

namespace kcm::cache {

std::vector<ObjectPtr> list_all(const Indexer& indexer, const api::labels::Selector& selector) {
  if (selector.empty()) return indexer.list();
  std::vector<ObjectPtr> out;
  indexer.for_each([&](const ObjectPtr& obj) {
    if (obj->matches(selector)) out.push_back(obj);
  });
  return out;
}

std::vector<ObjectPtr> list_all_by_namespace(const Indexer& indexer, std::string_view namespace_,
                                             const api::labels::Selector& selector) {
  if (namespace_.empty()) return list_all(indexer, selector);
  if (auto indexed = list_by_label_index(indexer, namespace_, selector)) return std::move(*indexed);
  std::vector<ObjectPtr> out;
  auto items = indexer.by_index(kNamespaceIndex, namespace_);
  if (!items.ok()) {
    // No namespace index: scan everything.
    log(LogLevel::kWarning, "can not retrieve list of objects using index : " + items.error());
    indexer.for_each([&](const ObjectPtr& obj) {
      if (obj->namespace_() == namespace_ && obj->matches(selector)) out.push_back(obj);
    });
    return out;
  }
  if (selector.empty()) return std::move(items).value();
  for (ObjectPtr& obj : *items) {
    if (obj->matches(selector)) out.push_back(std::move(obj));
  }
  return out;
}

Lister::Lister(std::shared_ptr<const Indexer> indexer, api::GroupResource resource)
    : indexer_(std::move(indexer)), resource_(std::move(resource)) {}

std::vector<ObjectPtr> Lister::list(const api::labels::Selector& selector) const {
  return list_all(*indexer_, selector);
}

Result<std::vector<ObjectPtr>> Lister::list(const api::LabelSelector& selector) const {
  auto s = api::as_selector(selector);
  if (!s.ok()) return fail(s.error());
  return list(*s);
}

Result<ObjectPtr, api::Status> Lister::get(std::string_view name) const {
  if (ObjectPtr obj = indexer_->get_by_key(name)) return obj;
  return fail(api::not_found(resource_, name));
}

NamespaceLister Lister::namespace_(std::string ns) const {
  return NamespaceLister(*this, std::move(ns));
}

std::vector<ObjectPtr> NamespaceLister::list(const api::labels::Selector& selector) const {
  return list_all_by_namespace(*lister_.indexer_, namespace_, selector);
}

Result<std::vector<ObjectPtr>> NamespaceLister::list(const api::LabelSelector& selector) const {
  auto s = api::as_selector(selector);
  if (!s.ok()) return fail(s.error());
  return list(*s);
}

Result<ObjectPtr, api::Status> NamespaceLister::get(std::string_view name) const {
  if (ObjectPtr obj = lister_.indexer_->get(namespace_, name)) return obj;
  return fail(api::not_found(lister_.resource_, name));
}

std::vector<ObjectPtr> NamespaceLister::controlled_by(std::string_view uid, Orphans orphans) const {
  return list_controlled_by(*lister_.indexer_, namespace_, uid, orphans);
}

}  // namespace kcm::cache
