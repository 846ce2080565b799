#include "cache/label_index.h"

#include "cache/shared_informer.h"

namespace kcm::cache {

std::string label_index_name(std::string_view label) {
  return "label:" + std::string(label);
}

IndexFunc label_index_func(std::string label) {
  return [label = std::move(label)](const CachedObject& obj) {
    std::vector<std::string> out;
    if (const std::optional<std::string_view> value = obj.label_value(label)) {
      std::string entry(obj.namespace_());
      entry += '/';
      entry += *value;
      out.push_back(std::move(entry));
    }
    return out;
  };
}

Result<void> add_label_index(SharedIndexInformer& informer, std::string_view label) {
  std::string name = label_index_name(label);
  if (informer.indexer()->has_index(name)) return {};
  return informer.add_indexers({{std::move(name), label_index_func(std::string(label))}});
}

std::optional<std::vector<ObjectPtr>> list_by_label_index(const Indexer& indexer,
                                                          std::string_view namespace_,
                                                          const api::labels::Selector& selector) {
  for (const api::labels::Requirement& requirement : selector.requirements()) {
    const std::optional<std::string_view> value = selector.requires_exact_match(requirement.key());
    if (!value) continue;
    const std::string name = label_index_name(requirement.key());
    if (!indexer.has_index(name)) continue;
    std::string entry(namespace_);
    entry += '/';
    entry += *value;
    auto candidates = indexer.by_index(name, entry);
    if (!candidates.ok()) continue;
    std::vector<ObjectPtr> out;
    for (ObjectPtr& obj : *candidates)
      if (obj->matches(selector)) out.push_back(std::move(obj));
    return out;
  }
  return std::nullopt;
}

}  // namespace kcm::cache
