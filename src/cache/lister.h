// Read access to an informer's cache (upstream GenericLister): list by label
// selector, get by name, per namespace through the namespace index.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/controller_index.h"
#include "cache/indexer.h"

namespace kcm::cache {

class NamespaceLister;

class Lister {
 public:
  // `resource` names the NotFound errors ("pods", "replicasets.apps").
  Lister(std::shared_ptr<const Indexer> indexer, api::GroupResource resource);

  std::vector<ObjectPtr> list(const api::labels::Selector& selector) const;
  Result<std::vector<ObjectPtr>> list(const api::LabelSelector& selector) const;
  // Cluster-scoped objects, or a key "namespace/name". NotFound:
  // `pods "name" not found`.
  Result<ObjectPtr, api::Status> get(std::string_view name) const;
  NamespaceLister namespace_(std::string namespace_) const;

 private:
  friend class NamespaceLister;
  std::shared_ptr<const Indexer> indexer_;
  api::GroupResource resource_;
};

class NamespaceLister {
 public:
  // The namespace's objects matching `selector`; "" lists every namespace.
  std::vector<ObjectPtr> list(const api::labels::Selector& selector) const;
  Result<std::vector<ObjectPtr>> list(const api::LabelSelector& selector) const;
  Result<ObjectPtr, api::Status> get(std::string_view name) const;
  // The objects controlled by `uid` (and the orphans): see controller_index.h.
  std::vector<ObjectPtr> controlled_by(std::string_view uid, Orphans orphans) const;

 private:
  friend class Lister;
  NamespaceLister(const Lister& lister, std::string ns)
      : lister_(lister), namespace_(std::move(ns)) {}
  Lister lister_;
  std::string namespace_;
};

// upstream ListAllByNamespace: uses a label index the selector pins to one
// value (label_index.h), else the namespace index when the indexer has one,
// else scans.
std::vector<ObjectPtr> list_all_by_namespace(const Indexer& indexer, std::string_view namespace_,
                                             const api::labels::Selector& selector);
std::vector<ObjectPtr> list_all(const Indexer& indexer, const api::labels::Selector& selector);

}  // namespace kcm::cache
