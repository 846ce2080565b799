// The served resources: built-ins fixed, custom ones swapped in whole, and
// snapshots that stay valid after a swap.
#include "local/registry/resource_catalog.h"

#include <gtest/gtest.h>

namespace kcm::local::registry {
namespace {

std::shared_ptr<const ResourceInfo> custom(std::string plural) {
  ResourceInfo info;
  info.gvr = {"example.com", "v1", std::move(plural)};
  info.kind = "Widget";
  info.strategy = std::make_shared<Strategy>();
  return std::make_shared<const ResourceInfo>(std::move(info));
}

TEST(ResourceCatalogTest, CustomResourcesJoinAndLeaveTheBuiltIns) {
  ResourceCatalog catalog(builtin_resources());
  const std::size_t builtins = catalog.builtins().all().size();
  const std::uint64_t first = catalog.generation();
  EXPECT_EQ(catalog.snapshot()->all().size(), builtins);
  EXPECT_NE(catalog.snapshot()->find("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
            nullptr);

  catalog.set_custom({custom("widgets")});
  EXPECT_GT(catalog.generation(), first);
  const auto with_widgets = catalog.snapshot();
  EXPECT_EQ(with_widgets->all().size(), builtins + 1);
  const ResourceInfo* widgets = with_widgets->find("example.com", "v1", "widgets");
  ASSERT_NE(widgets, nullptr);
  EXPECT_EQ(with_widgets->share(widgets).get(), widgets);

  catalog.set_custom({});
  EXPECT_EQ(catalog.snapshot()->find("example.com", "v1", "widgets"), nullptr);
  // The earlier snapshot still holds its entry.
  EXPECT_EQ(with_widgets->find("example.com", "v1", "widgets"), widgets);
  EXPECT_EQ(widgets->kind, "Widget");
  // Built-in entries are shared, not copied.
  EXPECT_EQ(catalog.snapshot()->find("", "v1", "pods"), catalog.builtins().find("", "v1", "pods"));
}

}  // namespace
}  // namespace kcm::local::registry
