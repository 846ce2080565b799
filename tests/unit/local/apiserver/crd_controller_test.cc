// kcm-local's CRD controller on an in-memory store: names and conditions,
// serving (the catalog), the custom resources' API rules, and the cleanup
// of a deleted CRD's objects.
#include "local/apiserver/crd_controller.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "local/apiserver/stored_codec.h"

namespace kcm::local::apiserver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string widget_crd(std::string_view plural, std::string_view kind,
                       std::string_view short_name = "wdg") {
  return fmt::format(R"({{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
  "metadata":{{"name":"{0}.example.com"}},
  "spec":{{"group":"example.com","scope":"Namespaced",
    "names":{{"plural":"{0}","kind":"{1}","shortNames":["{2}"]}},
    "versions":[{{"name":"v1","served":true,"storage":true,"subresources":{{"status":{{}}}},
      "schema":{{"openAPIV3Schema":{{"type":"object","properties":{{
        "spec":{{"type":"object","required":["size"],"properties":{{
          "size":{{"type":"integer","maximum":10}},
          "color":{{"type":"string","default":"red"}}}}}},
        "status":{{"type":"object","properties":{{"state":{{"type":"string"}}}}}}}}}}}}}}]}}}})",
                     plural, kind, short_name);
}

class CrdControllerTest : public ::testing::Test {
 protected:
  CrdControllerTest()
      : catalog_(registry::builtin_resources()), rest_(store_, catalog_.builtins()) {
    crds_ = catalog_.builtins().find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    namespaces_ = catalog_.builtins().find("", "v1", "namespaces");
    EXPECT_TRUE(create(*namespaces_, "",
                       R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"}})"));
    auto started = CrdController::start(rest_, catalog_);
    EXPECT_TRUE(started) << (started ? "" : started.error());
    if (started) controller_ = std::move(*started);
  }

  Result<WriteResult, api::Status> create(const ResourceInfo& r, std::string_view ns,
                                          std::string_view text) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.create(r, ns, json::parse(text).as_object(), {}, [&](auto res) { out = std::move(res); });
    return out;
  }
  Result<WriteResult, api::Status> remove(const ResourceInfo& r, std::string_view ns,
                                          std::string_view name) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.remove(r, ns, name, {}, [&](auto res) { out = std::move(res); });
    return out;
  }
  std::optional<json::object> get(const ResourceInfo& r, std::string_view ns,
                                  std::string_view name) {
    auto o = rest_.get(r, ns, name);
    if (!o) return std::nullopt;
    return parse_stored(**o);
  }
  // The served resource (a snapshot entry kept alive by the test).
  std::shared_ptr<const ResourceInfo> served(std::string_view plural) {
    auto table = catalog_.snapshot();
    return table->share(table->find("example.com", "v1", plural));
  }
  std::string condition(std::string_view crd, std::string_view type) {
    auto obj = get(*crds_, "", crd);
    if (!obj) return "<no crd>";
    const json::object* status = api::find_object(*obj, "status");
    const json::array* conditions = status ? api::find_array(*status, "conditions") : nullptr;
    if (conditions == nullptr) return "<none>";
    for (const auto& c : *conditions) {
      const json::object& o = c.as_object();
      if (api::find_string(o, "type") == type) {
        return fmt::format("{}/{}", api::find_string(o, "status").value_or(""),
                           api::find_string(o, "reason").value_or(""));
      }
    }
    return "<absent>";
  }

  storage::Store store_;
  registry::ResourceCatalog catalog_;
  RestStore rest_;
  const ResourceInfo* crds_ = nullptr;
  const ResourceInfo* namespaces_ = nullptr;
  std::unique_ptr<CrdController> controller_;
};

TEST_F(CrdControllerTest, EstablishedCrdIsServedWithItsSchema) {
  const std::uint64_t generation = catalog_.generation();
  ASSERT_TRUE(create(*crds_, "", widget_crd("widgets", "Widget")));
  controller_->sync();
  EXPECT_EQ(condition("widgets.example.com", "NamesAccepted"), "True/NoConflicts");
  EXPECT_EQ(condition("widgets.example.com", "Established"), "True/InitialNamesAccepted");
  EXPECT_GT(catalog_.generation(), generation);

  auto widgets = served("widgets");
  ASSERT_NE(widgets, nullptr);
  EXPECT_EQ(widgets->kind, "Widget");
  EXPECT_EQ(widgets->singular, "widget");  // defaulted from the kind
  EXPECT_THAT(widgets->short_names, ElementsAre("wdg"));
  ASSERT_NE(widgets->subresource("status"), nullptr);
  EXPECT_EQ(widgets->subresource("scale"), nullptr);
  // No columns declared: upstream serves AGE.
  ASSERT_EQ(widgets->printer_columns.size(), 1u);
  EXPECT_EQ(widgets->printer_columns[0].json_path, ".metadata.creationTimestamp");

  // Unknown fields pruned, defaults applied, status dropped on create.
  auto made = create(*widgets, "default",
                     R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
                         "spec":{"size":3,"shape":"round"},"status":{"state":"x"}})");
  ASSERT_TRUE(made) << made.error().message;
  const json::object w = *get(*widgets, "default", "w");
  EXPECT_EQ(json::serialize(w.at("spec")), R"({"size":3,"color":"red"})");
  EXPECT_FALSE(w.contains("status"));
  EXPECT_EQ(api::find_int(w.at("metadata").as_object(), "generation"), 1);
  EXPECT_THAT(*widgets->strategy->unknown_fields(
                  json::parse(R"({"spec":{"size":1,"shape":"round","a":{}}})").as_object()),
              ElementsAre("spec.a", "spec.shape"));

  auto invalid = create(*widgets, "default",
                        R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"v"},
                            "spec":{"size":11}})");
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().code, 422);
  EXPECT_THAT(invalid.error().message,
              HasSubstr("spec.size: Invalid value: 11: spec.size in body should be less than or "
                        "equal to 10"));
}

TEST_F(CrdControllerTest, ConflictingKindIsNotAcceptedNorServed) {
  ASSERT_TRUE(create(*crds_, "", widget_crd("widgets", "Widget")));
  controller_->sync();
  ASSERT_TRUE(create(*crds_, "", widget_crd("gadgets", "Widget", "gdg")));
  controller_->sync();
  // Kind and list kind both clash; upstream's last check (list kind) names it.
  EXPECT_EQ(condition("gadgets.example.com", "NamesAccepted"), "False/ListKindConflict");
  EXPECT_NE(condition("gadgets.example.com", "Established"), "True/InitialNamesAccepted");
  EXPECT_EQ(served("gadgets"), nullptr);
  EXPECT_NE(served("widgets"), nullptr);
}

TEST_F(CrdControllerTest, DeletedCrdDeletesItsObjectsFirst) {
  ASSERT_TRUE(create(*crds_, "", widget_crd("widgets", "Widget")));
  controller_->sync();
  auto widgets = served("widgets");
  ASSERT_NE(widgets, nullptr);
  ASSERT_TRUE(create(*widgets, "default",
                     R"({"apiVersion":"example.com/v1","kind":"Widget",
                         "metadata":{"name":"held","finalizers":["example.com/hold"]},
                         "spec":{"size":1}})"));

  auto removed = remove(*crds_, "", "widgets.example.com");
  ASSERT_TRUE(removed) << removed.error().message;
  const json::object crd = *get(*crds_, "", "widgets.example.com");
  EXPECT_THAT(json::serialize(crd.at("metadata").at("finalizers")),
              HasSubstr("customresourcecleanup.apiextensions.k8s.io"));
  EXPECT_EQ(condition("widgets.example.com", "Terminating"), "True/InstanceDeletionPending");

  // The object's own finalizer holds it; the CRD waits, served but closed to creates.
  EXPECT_TRUE(controller_->sync());
  ASSERT_NE(get(*crds_, "", "widgets.example.com"), std::nullopt);
  auto terminating = served("widgets");
  ASSERT_NE(terminating, nullptr);
  EXPECT_TRUE(terminating->terminating);
  const json::object held = *get(*widgets, "default", "held");
  EXPECT_TRUE(held.at("metadata").as_object().contains("deletionTimestamp"));

  // Released: the object goes, then the CRD, and nothing is served.
  Result<WriteResult, api::Status> released = fail(api::internal_error("no callback"));
  rest_.update_with(
      *widgets, "default", "held", Subresource::kNone,
      [](const json::object& current) -> Result<json::object, api::Status> {
        json::object next = current;
        next["metadata"].as_object().erase("finalizers");
        return next;
      },
      {}, [&](auto r) { released = std::move(r); });
  ASSERT_TRUE(released) << released.error().message;
  EXPECT_FALSE(controller_->sync());
  EXPECT_EQ(get(*crds_, "", "widgets.example.com"), std::nullopt);
  EXPECT_EQ(served("widgets"), nullptr);
}

TEST_F(CrdControllerTest, StoredCrdsAreServedAtStart) {
  ASSERT_TRUE(create(*crds_, "", widget_crd("widgets", "Widget")));
  controller_->sync();
  controller_.reset();
  registry::ResourceCatalog fresh(registry::builtin_resources());
  auto restarted = CrdController::start(rest_, fresh);
  ASSERT_TRUE(restarted);
  auto table = fresh.snapshot();
  EXPECT_NE(table->find("example.com", "v1", "widgets"), nullptr);
}

}  // namespace
}  // namespace kcm::local::apiserver
