// The resources kcm-local serves right now: the built-in kinds, fixed at
// start, plus the custom resources of the established CustomResourceDefinitions,
// which change while the server runs. Readers take a snapshot (an immutable
// table) and keep it for the whole request, so a CRD deleted meanwhile cannot
// pull a ResourceInfo from under them.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "local/registry/resource_info.h"

namespace kcm::local::registry {

class ResourceCatalog {
 public:
  explicit ResourceCatalog(ResourceTable builtins);

  // The served resources: the built-ins first, then the custom ones.
  std::shared_ptr<const ResourceTable> snapshot() const;
  // The built-in kinds alone (never changes).
  const ResourceTable& builtins() const { return *builtins_; }

  // Replaces the custom resources. Bumps generation().
  void set_custom(std::vector<std::shared_ptr<const ResourceInfo>> custom);
  // Changes with every set_custom(): caches of derived documents (discovery,
  // OpenAPI) compare it to know when to rebuild.
  std::uint64_t generation() const;

 private:
  const std::shared_ptr<const ResourceTable> builtins_;
  mutable std::mutex mu_;
  std::shared_ptr<const ResourceTable> current_;
  std::uint64_t generation_ = 0;
};

}  // namespace kcm::local::registry
