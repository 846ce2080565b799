#include "local/registry/resource_catalog.h"

namespace kcm::local::registry {

ResourceCatalog::ResourceCatalog(ResourceTable builtins)
    : builtins_(std::make_shared<const ResourceTable>(std::move(builtins))), current_(builtins_) {}

std::shared_ptr<const ResourceTable> ResourceCatalog::snapshot() const {
  std::lock_guard lock(mu_);
  return current_;
}

void ResourceCatalog::set_custom(std::vector<std::shared_ptr<const ResourceInfo>> custom) {
  auto table = std::make_shared<ResourceTable>();
  for (const auto& info : builtins_->all())
    table->add(info);
  for (auto& info : custom)
    table->add(std::move(info));
  std::lock_guard lock(mu_);
  current_ = std::move(table);
  ++generation_;
}

std::uint64_t ResourceCatalog::generation() const {
  std::lock_guard lock(mu_);
  return generation_;
}

}  // namespace kcm::local::registry
