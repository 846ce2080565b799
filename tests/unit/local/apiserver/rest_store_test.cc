// The generic REST semantics of kcm-local, on an in-memory store.
#include "local/apiserver/rest_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>

#include "local/apiserver/stored_codec.h"
#include "rest_store_fixture.h"

namespace kcm::local::apiserver {
namespace {

using ::testing::HasSubstr;

TEST_F(RestStoreTest, CreateFillsServerFields) {
  auto r = create(resource("", "pods"), "default", pod("p"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->code, 201);
  const json::object o = parse_stored(*r->object);
  EXPECT_EQ(meta(o, "namespace"), "default");
  EXPECT_EQ(meta(o, "uid").size(), 36u);
  EXPECT_NE(meta(o, "creationTimestamp"), "<absent>");
  EXPECT_EQ(meta(o, "resourceVersion"), std::to_string(r->object->revision));
}

TEST_F(RestStoreTest, GenerateNameAppendsFiveCharacters) {
  json::object p = pod("");
  p["metadata"].as_object().erase("name");
  p["metadata"].as_object()["generateName"] = "web-";
  auto r = create(resource("", "pods"), "default", std::move(p));
  ASSERT_TRUE(r) << r.error().message;
  const std::string name = r->object->name;
  ASSERT_EQ(name.size(), 9u);
  EXPECT_EQ(name.substr(0, 4), "web-");
  EXPECT_EQ(name.find_first_not_of("bcdfghjklmnpqrstvwxz2456789", 4), std::string::npos);
}

TEST_F(RestStoreTest, CreateErrors) {
  ASSERT_TRUE(create(resource("", "pods"), "default", pod("p")));
  auto dup = create(resource("", "pods"), "default", pod("p"));
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, 409);
  EXPECT_EQ(dup.error().message, R"(pods "p" already exists)");
  auto no_ns = create(resource("", "pods"), "nowhere", pod("p"));
  ASSERT_FALSE(no_ns);
  EXPECT_EQ(no_ns.error().code, 404);
  EXPECT_EQ(no_ns.error().message, R"(namespaces "nowhere" not found)");
  auto wrong_ns = create(resource("", "pods"), "default", pod("q", R"(,"namespace":"other")"));
  ASSERT_FALSE(wrong_ns);
  EXPECT_EQ(wrong_ns.error().code, 400);
  auto no_name = create(resource("", "pods"), "default", pod(""));
  ASSERT_FALSE(no_name);
  EXPECT_EQ(no_name.error().code, 422);
  EXPECT_THAT(no_name.error().message, HasSubstr("name or generateName is required"));
}

TEST_F(RestStoreTest, DryRunCreatesNothing) {
  WriteOptions dry;
  dry.dry_run = true;
  auto r = create(resource("", "pods"), "default", pod("p"), dry);
  ASSERT_TRUE(r);
  EXPECT_FALSE(rest_.get(resource("", "pods"), "default", "p"));
}

TEST_F(RestStoreTest, NoOpUpdateKeepsResourceVersion) {
  const auto& deploy = resource("apps", "deployments");
  auto created = create(deploy, "default", deployment("web"));
  ASSERT_TRUE(created) << created.error().message;
  json::object same = current(deploy, "default", "web");
  auto r = update(deploy, "default", "web", same);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->object->revision, created->object->revision);
}

TEST_F(RestStoreTest, StaleResourceVersionConflicts) {
  const auto& deploy = resource("apps", "deployments");
  ASSERT_TRUE(create(deploy, "default", deployment("web")));
  json::object obj = current(deploy, "default", "web");
  obj["metadata"].as_object()["resourceVersion"] = "1";
  obj["spec"].as_object()["replicas"] = 5;
  auto r = update(deploy, "default", "web", obj);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, 409);
  EXPECT_EQ(r.error().message,
            "Operation cannot be fulfilled on deployments.apps \"web\": the object has been "
            "modified; please apply your changes to the latest version and try again");
}

TEST_F(RestStoreTest, GenerationFollowsSpecNotStatus) {
  const auto& deploy = resource("apps", "deployments");
  ASSERT_TRUE(create(deploy, "default", deployment("web")));
  EXPECT_EQ(meta(current(deploy, "default", "web"), "generation"), "1");
  json::object obj = current(deploy, "default", "web");
  obj["status"] = json::object{{"replicas", 2}};
  obj["spec"].as_object()["replicas"] = 3;
  ASSERT_TRUE(update(deploy, "default", "web", obj));
  json::object after = current(deploy, "default", "web");
  EXPECT_EQ(meta(after, "generation"), "2");
  // The main resource cannot write status...
  EXPECT_EQ(json::serialize(after.at("status")), "{}");
  // ...and the status subresource cannot write spec or bump generation.
  after["status"] = json::object{{"replicas", 3}};
  after["spec"].as_object()["replicas"] = 9;
  ASSERT_TRUE(update(deploy, "default", "web", after, Subresource::kStatus));
  json::object final_obj = current(deploy, "default", "web");
  EXPECT_EQ(json::serialize(final_obj.at("status")), R"({"replicas":3})");
  EXPECT_EQ(final_obj.at("spec").as_object().at("replicas").as_int64(), 3);
  EXPECT_EQ(meta(final_obj, "generation"), "2");
}

TEST_F(RestStoreTest, ImmutableMetadataIsRefused) {
  const auto& pods = resource("", "pods");
  ASSERT_TRUE(create(pods, "default", pod("p")));
  json::object obj = current(pods, "default", "p");
  obj["metadata"].as_object()["uid"] = "changed";
  auto r = update(pods, "default", "p", obj);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, 422);
  EXPECT_THAT(r.error().message,
              HasSubstr("metadata.uid: Invalid value: \"changed\": field is immutable"));
}

TEST_F(RestStoreTest, DeleteWithoutFinalizersRemovesAndAnswersStatus) {
  const auto& deploy = resource("apps", "deployments");
  ASSERT_TRUE(create(deploy, "default", deployment("web")));
  auto r = remove(deploy, "default", "web");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->code, 200);
  ASSERT_TRUE(r->body.has_value());
  EXPECT_THAT(json::serialize(*r->body), HasSubstr(R"("status":"Success")"));
  EXPECT_THAT(json::serialize(*r->body), HasSubstr(R"("kind":"deployments")"));
  EXPECT_FALSE(rest_.get(deploy, "default", "web"));
}

TEST_F(RestStoreTest, PropagationPoliciesSetFinalizers) {
  const auto& deploy = resource("apps", "deployments");
  struct Case {
    std::string policy;
    std::string finalizers;
  };
  for (const Case& c :
       {Case{"Foreground", R"(["foregroundDeletion"])"}, Case{"Orphan", R"(["orphan"])"}}) {
    ASSERT_TRUE(create(deploy, "default", deployment("web")));
    DeleteOptions options;
    options.propagation_policy = c.policy;
    auto r = remove(deploy, "default", "web", options);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->code, 202);
    json::object obj = current(deploy, "default", "web");
    EXPECT_EQ(meta(obj, "finalizers"), c.finalizers) << c.policy;
    EXPECT_NE(meta(obj, "deletionTimestamp"), "<absent>");
    EXPECT_EQ(meta(obj, "generation"), "2") << "deletion marks a new generation";
    // Removing the finalizer completes the deletion.
    obj["metadata"].as_object().erase("finalizers");
    ASSERT_TRUE(update(deploy, "default", "web", obj));
    EXPECT_FALSE(rest_.get(deploy, "default", "web"));
  }
}

TEST_F(RestStoreTest, FinalizersCannotBeAddedWhileDeleting) {
  const auto& pods = resource("", "pods");
  ASSERT_TRUE(create(pods, "default", pod("p", R"(,"finalizers":["example.com/a"])")));
  ASSERT_TRUE(remove(pods, "default", "p"));
  json::object obj = current(pods, "default", "p");
  obj["metadata"].as_object()["finalizers"] = json::array{"example.com/a", "example.com/b"};
  auto r = update(pods, "default", "p", obj);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message,
              HasSubstr("no new finalizers can be added if the object is being "
                        "deleted, found new finalizers []string{\"example.com/b\"}"));
}

TEST_F(RestStoreTest, ScheduledPodsTerminateGracefully) {
  const auto& pods = resource("", "pods");
  json::object p = pod("p");
  p["spec"].as_object()["nodeName"] = "node-1";
  ASSERT_TRUE(create(pods, "default", p));
  auto r = remove(pods, "default", "p");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->code, 202);
  json::object obj = current(pods, "default", "p");
  EXPECT_EQ(meta(obj, "deletionGracePeriodSeconds"), "30");
  // A second delete with a longer period changes nothing; a shorter one shortens.
  DeleteOptions longer;
  longer.grace_period_seconds = 60;
  ASSERT_TRUE(remove(pods, "default", "p", longer));
  EXPECT_EQ(meta(current(pods, "default", "p"), "deletionGracePeriodSeconds"), "30");
  DeleteOptions now;
  now.grace_period_seconds = 0;
  auto gone = remove(pods, "default", "p", now);
  ASSERT_TRUE(gone) << gone.error().message;
  EXPECT_EQ(gone->code, 200);
  EXPECT_FALSE(rest_.get(pods, "default", "p"));
}

TEST_F(RestStoreTest, UnscheduledPodsAreDeletedAtOnce) {
  const auto& pods = resource("", "pods");
  ASSERT_TRUE(create(pods, "default", pod("p")));
  auto r = remove(pods, "default", "p");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, 200);
  EXPECT_THAT(r->object->json, HasSubstr(R"("name":"p")"));  // pods answer with the object
  EXPECT_FALSE(rest_.get(pods, "default", "p"));
}

TEST_F(RestStoreTest, DeletePreconditions) {
  const auto& pods = resource("", "pods");
  ASSERT_TRUE(create(pods, "default", pod("p")));
  DeleteOptions wrong_uid;
  wrong_uid.precondition_uid = "nope";
  auto r = remove(pods, "default", "p", wrong_uid);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, 409);
  EXPECT_THAT(r.error().message, HasSubstr("Precondition failed: UID in precondition: nope"));
}

TEST_F(RestStoreTest, NamespaceDeletionRules) {
  const auto& namespaces = resource("", "namespaces");
  auto protected_ns = remove(namespaces, "", "default");
  ASSERT_FALSE(protected_ns);
  EXPECT_EQ(protected_ns.error().code, 403);
  EXPECT_EQ(protected_ns.error().message,
            R"(namespaces "default" is forbidden: this namespace may not be deleted)");
  create_namespace("team");
  auto r = remove(namespaces, "", "team");
  ASSERT_TRUE(r) << r.error().message;
  json::object ns = current(namespaces, "", "team");
  EXPECT_EQ(json::serialize(ns.at("status")), R"({"phase":"Terminating"})");
  // Nothing new may be created in it.
  auto blocked = create(resource("", "pods"), "team", pod("p"));
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().code, 403);
  EXPECT_THAT(
      blocked.error().message,
      HasSubstr("unable to create new content in namespace team because it is being terminated"));
  auto again = remove(namespaces, "", "team");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, 409);
}

TEST_F(RestStoreTest, ListPaginationIsAConsistentSnapshot) {
  const auto& pods = resource("", "pods");
  for (const char* n : {"a", "b", "c"})
    ASSERT_TRUE(create(pods, "default", pod(n)));
  ListRequest first;
  first.namespace_ = "default";
  first.limit = 2;
  auto page1 = rest_.list(pods, first);
  ASSERT_TRUE(page1);
  ASSERT_EQ(page1->items.size(), 2u);
  ASSERT_FALSE(page1->continue_token.empty());
  EXPECT_EQ(page1->remaining_item_count, 1);
  // A change after the first page does not show in the next one.
  ASSERT_TRUE(remove(pods, "default", "c"));
  ListRequest next = first;
  next.continue_token = page1->continue_token;
  auto page2 = rest_.list(pods, next);
  ASSERT_TRUE(page2) << page2.error().message;
  ASSERT_EQ(page2->items.size(), 1u);
  EXPECT_EQ(page2->items[0]->name, "c");
  EXPECT_EQ(page2->revision, page1->revision);

  ListRequest bad = first;
  bad.continue_token = "!!!";
  auto r = rest_.list(pods, bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, 400);
}

TEST_F(RestStoreTest, EventsApiVersionsShareOneStorage) {
  const ResourceInfo& core = resource("", "events");
  const ResourceInfo& events = *table_.find("events.k8s.io", "v1", "events");
  auto created = create(events, "default",
                        json::parse(R"({
      "apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e1"},
      "eventTime":"2026-11-30T10:00:00.000000Z","reportingController":"kcm.dev/test",
      "reportingInstance":"kcm-1","action":"Testing","reason":"Tested","type":"Normal",
      "note":"hello","regarding":{"kind":"Pod","namespace":"default","name":"p"}})")
                            .as_object());
  ASSERT_TRUE(created) << created.error().message;
  // The answer is in the version asked for...
  EXPECT_THAT(created->object->json, HasSubstr(R"("note":"hello")"));
  EXPECT_THAT(created->object->json, HasSubstr(R"("apiVersion":"events.k8s.io/v1")"));
  // ...and core/v1 sees the same event with its own field names.
  json::object as_core = current(core, "default", "e1");
  EXPECT_EQ(as_core.at("message").as_string(), "hello");
  EXPECT_EQ(as_core.at("involvedObject").at("name").as_string(), "p");
  EXPECT_EQ(as_core.at("reportingComponent").as_string(), "kcm.dev/test");
  // Selectors use each version's names for the same values.
  ListRequest by_regarding;
  by_regarding.namespace_ = "default";
  auto listed = rest_.list(events, by_regarding);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->items.size(), 1u);
  EXPECT_THAT(listed->items[0]->json, HasSubstr(R"("regarding":{)"));
  EXPECT_EQ(stored_field(events, *listed->items[0], "regarding.name"), "p");
  EXPECT_EQ(stored_field(core, *listed->items[0], "involvedObject.name"), "p");
}

// Concurrent unconditional updates of one object on a persisted store (writes
// become visible only once durable): each loser retries after the winner is
// visible, so none gives up with a 409 (at most 15 losses each, under the
// 16 attempts).
TEST(RestStorePersistedTest, ConcurrentUpdatesOfOneObjectAllSucceed) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kcm-rest-store-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  registry::ResourceTable table(registry::builtin_resources());
  auto factory = [&table](std::string_view resource,
                          std::string json) -> Result<storage::ObjectPtr> {
    const ResourceInfo* info = table.find_store_name(resource);
    if (info == nullptr) return fail("unknown resource " + std::string(resource));
    return decode_stored(*info, std::move(json));
  };
  storage::StoreOptions options;
  options.fsync = true;
  auto store = storage::Store::open(dir, options, factory, nullptr);
  ASSERT_TRUE(store) << store.error();
  RestStore rest(**store, table);
  const ResourceInfo& namespaces = *table.find("", "v1", "namespaces");
  const ResourceInfo* leases_info = table.find("coordination.k8s.io", "v1", "leases");
  ASSERT_NE(leases_info, nullptr);
  const ResourceInfo& leases = *leases_info;
  const auto wait = [](auto start) {
    std::promise<Result<WriteResult, api::Status>> done;
    start([&](Result<WriteResult, api::Status> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
  };
  ASSERT_TRUE(wait([&](auto done) {
    rest.create(namespaces, "",
                json::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}})")
                    .as_object(),
                {}, done);
  }));
  ASSERT_TRUE(wait([&](auto done) {
    rest.create(leases, "n",
                json::parse(R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
                            R"("metadata":{"name":"c"}})")
                    .as_object(),
                {}, done);
  }));

  constexpr int kWriters = 12;
  for (int round = 0; round < 5; ++round) {
    std::vector<std::future<Result<WriteResult, api::Status>>> results;
    for (int i = 0; i < kWriters; ++i) {
      results.push_back(std::async(std::launch::async, [&, i] {
        return wait([&](auto done) {
          rest.update(leases, "n", "c", Subresource::kNone,
                      json::parse(R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
                                  R"("metadata":{"name":"c"},"spec":{"holderIdentity":"writer-)" +
                                  std::to_string(i) + R"("}})")
                          .as_object(),
                      {}, done);
        });
      }));
    }
    for (auto& r : results) {
      const auto result = r.get();
      EXPECT_TRUE(result.ok()) << result.error().message;
    }
  }
  store->reset();
  std::filesystem::remove_all(dir);
}

TEST(DeleteOptionsTest, ParsesAndValidates) {
  auto ok = parse_delete_options(json::parse(
      R"({"gracePeriodSeconds":5,"propagationPolicy":"Foreground","preconditions":{"uid":"u"}})"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->grace_period_seconds, 5);
  EXPECT_EQ(ok->propagation_policy, "Foreground");
  EXPECT_EQ(ok->precondition_uid, "u");
  auto bad = parse_delete_options(json::parse(R"({"propagationPolicy":"Sideways"})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, 422);
  EXPECT_THAT(bad.error().message,
              HasSubstr(R"(propagationPolicy: Unsupported value: "Sideways": supported values: )"
                        R"("Background", "Foreground", "Orphan")"));
}

}  // namespace
}  // namespace kcm::local::apiserver
