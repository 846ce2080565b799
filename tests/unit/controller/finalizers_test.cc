#include "controller/finalizers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controller_test_util.h"
#include "recording_transport.h"

namespace kcm::controller {
namespace {

using test_support::RecordingTransport;

constexpr std::string_view kFinalizer = "example.com/cleanup";
const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

TEST(Finalizers, FinalizersOf) {
  struct Case {
    std::string name;
    std::string input;
    std::vector<std::string> want;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"no metadata", R"({})", {}, ""},
      {"null metadata", R"({"metadata":null})", {}, ""},
      {"no finalizers", R"({"metadata":{"name":"a"}})", {}, ""},
      {"null finalizers", R"({"metadata":{"finalizers":null}})", {}, ""},
      {"two", R"({"metadata":{"finalizers":["a","b"]}})", {"a", "b"}, ""},
      {"metadata string", R"({"metadata":"x"})", {}, "metadata: expected object, got string"},
      {"finalizers object",
       R"({"metadata":{"finalizers":{}}})",
       {},
       "metadata.finalizers: expected array, got object"},
      {"element number",
       R"({"metadata":{"finalizers":["a",1]}})",
       {},
       "metadata.finalizers[1]: expected string, got number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto got = finalizers_of(json_object(c.input));
    if (c.error.empty()) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(*got, c.want);
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
  }
}

TEST(Finalizers, HasFinalizer) {
  EXPECT_TRUE(has_finalizer(json_object(R"({"metadata":{"finalizers":["a","b"]}})"), "b"));
  EXPECT_FALSE(has_finalizer(json_object(R"({"metadata":{"finalizers":["a","b"]}})"), "c"));
  EXPECT_FALSE(has_finalizer(json_object(R"({})"), "a"));
  // Malformed lists hold nothing rather than failing.
  EXPECT_FALSE(has_finalizer(json_object(R"({"metadata":{"finalizers":"a"}})"), "a"));
  EXPECT_FALSE(has_finalizer(json_object(R"({"metadata":{"finalizers":["a",{}]}})"), "a"));
  const api::Object o(json_object(R"({"metadata":{"finalizers":["x"]}})"));
  EXPECT_TRUE(has_finalizer(o, "x"));
  EXPECT_FALSE(has_finalizer(o, "y"));
}

struct EditCase {
  std::string name;
  std::string input;
  std::string finalizer;
  bool changed = false;
  std::string want;  // the object after the edit (for errors: unchanged input)
  std::string error;
};

void run_edit_cases(const std::vector<EditCase>& cases, bool add) {
  for (const EditCase& c : cases) {
    SCOPED_TRACE(c.name);
    json::object o = json_object(c.input);
    const auto got = add ? add_finalizer(o, c.finalizer) : remove_finalizer(o, c.finalizer);
    if (c.error.empty()) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(*got, c.changed);
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
    EXPECT_EQ(json::serialize(o), json::serialize(json_object(c.want.empty() ? c.input : c.want)));
  }
}

TEST(Finalizers, AddFinalizer) {
  run_edit_cases(
      {
          {"no metadata", R"({"kind":"W"})", "f", true,
           R"({"kind":"W","metadata":{"finalizers":["f"]}})", ""},
          {"null metadata", R"({"metadata":null})", "f", true,
           R"({"metadata":{"finalizers":["f"]}})", ""},
          {"appends, keeps the rest", R"({"metadata":{"finalizers":["a"],"name":"w"},"spec":1})",
           "f", true, R"({"metadata":{"finalizers":["a","f"],"name":"w"},"spec":1})", ""},
          {"already there", R"({"metadata":{"finalizers":["f","a"]}})", "f", false, "", ""},
          {"empty name", R"({})", "", false, "", "finalizer name must not be empty"},
          {"metadata array", R"({"metadata":[]})", "f", false, "",
           "metadata: expected object, got array"},
          {"finalizers string", R"({"metadata":{"finalizers":"f"}})", "f", false, "",
           "metadata.finalizers: expected array, got string"},
          {"finalizer bool", R"({"metadata":{"finalizers":[true]}})", "f", false, "",
           "metadata.finalizers[0]: expected string, got boolean"},
      },
      true);
}

TEST(Finalizers, RemoveFinalizer) {
  run_edit_cases(
      {
          {"removes every copy", R"({"metadata":{"finalizers":["f","a","f","b"]}})", "f", true,
           R"({"metadata":{"finalizers":["a","b"]}})", ""},
          {"last one removes the member", R"({"metadata":{"name":"w","finalizers":["f"]}})", "f",
           true, R"({"metadata":{"name":"w"}})", ""},
          {"absent: no metadata is created", R"({"kind":"W"})", "f", false, "", ""},
          {"not there", R"({"metadata":{"finalizers":["a"]}})", "f", false, "", ""},
          {"finalizers number", R"({"metadata":{"finalizers":3}})", "f", false, "",
           "metadata.finalizers: expected array, got number"},
      },
      false);
}

TEST(Finalizers, EditsThroughObject) {
  api::Object o(json_object(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})"));
  ASSERT_TRUE(add_finalizer(o, "f").ok());
  EXPECT_TRUE(has_finalizer(o, "f"));
  auto removed = remove_finalizer(o, "f");
  ASSERT_TRUE(removed.ok());
  EXPECT_TRUE(*removed);
  EXPECT_EQ(o.to_json_string(),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})");
}

TEST(Finalizers, BeingDeleted) {
  EXPECT_TRUE(
      being_deleted(json_object(R"({"metadata":{"deletionTimestamp":"2024-01-01T00:00:00Z"}})")));
  EXPECT_FALSE(being_deleted(json_object(R"({"metadata":{"deletionTimestamp":null}})")));
  EXPECT_FALSE(being_deleted(json_object(R"({"metadata":{}})")));
  EXPECT_FALSE(being_deleted(json_object(R"({"metadata":7})")));
  EXPECT_FALSE(being_deleted(json_object(R"({})")));
}

TEST(Finalizers, MergePatch) {
  EXPECT_EQ(finalizers_merge_patch({"a", "b"}, "42"),
            R"({"metadata":{"finalizers":["a","b"],"resourceVersion":"42"}})");
  EXPECT_EQ(finalizers_merge_patch({}, "7"),
            R"({"metadata":{"finalizers":null,"resourceVersion":"7"}})");
}

constexpr std::string_view kWidget = R"({
  "apiVersion": "example.com/v1", "kind": "Widget",
  "metadata": {"name": "w1", "namespace": "ns1", "resourceVersion": "42",
               "finalizers": ["other"]},
  "spec": {"size": 3}})";

TEST(Finalizers, PatchAddSendsGuardedMergePatch) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, R"({"metadata":{"name":"w1","resourceVersion":"43"}})");
  // An all-namespaces client: the object's namespace is used.
  client::ResourceClient widgets = test_support::resource_client(transport, kWidgets);
  const auto got = patch_add_finalizer(widgets, json_object(kWidget), kFinalizer);
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(api::as_string_view(api::find_path(**got, {"metadata", "resourceVersion"})), "43");
  ASSERT_EQ(transport->requests().size(), 1u);
  const client::HttpRequest s = transport->requests()[0];
  EXPECT_EQ(s.method, "PATCH");
  EXPECT_EQ(s.target, "/apis/example.com/v1/namespaces/ns1/widgets/w1");
  EXPECT_EQ(client::find_header(s.headers, "Content-Type"), "application/merge-patch+json");
  EXPECT_EQ(
      s.body,
      R"({"metadata":{"finalizers":["other","example.com/cleanup"],"resourceVersion":"42"}})");
}

TEST(Finalizers, PatchRemoveSendsNullForTheLastOne) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, R"({"metadata":{"name":"n"}})");
  client::ResourceClient nodes = test_support::resource_client(transport, {"", "v1", "nodes"});
  const json::object node =
      json_object(R"({"metadata":{"name":"n","resourceVersion":"9","finalizers":["f"]}})");
  const auto got = patch_remove_finalizer(nodes, node, "f");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(transport->requests().size(), 1u);
  EXPECT_EQ(transport->requests()[0].target, "/api/v1/nodes/n");
  EXPECT_EQ(transport->requests()[0].body,
            R"({"metadata":{"finalizers":null,"resourceVersion":"9"}})");
}

TEST(Finalizers, PatchNothingToDoSendsNothing) {
  auto transport = std::make_shared<RecordingTransport>();
  client::ResourceClient widgets = test_support::resource_client(transport, kWidgets, "ns1");
  auto added = patch_add_finalizer(widgets, json_object(kWidget), "other");
  ASSERT_TRUE(added.ok());
  EXPECT_FALSE(added->has_value());
  auto removed = patch_remove_finalizer(widgets, json_object(kWidget), kFinalizer);
  ASSERT_TRUE(removed.ok());
  EXPECT_FALSE(removed->has_value());
  EXPECT_TRUE(transport->requests().empty());
}

TEST(Finalizers, PatchBadInputFailsWithoutARequest) {
  struct Case {
    std::string name;
    std::string input;
    std::string finalizer;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"no name", R"({"metadata":{"resourceVersion":"1"}})", "f", "object has no name"},
      {"name not a string", R"({"metadata":{"name":5,"resourceVersion":"1"}})", "f",
       "object has no name"},
      {"no resourceVersion", R"({"metadata":{"name":"w"}})", "f", "object has no resourceVersion"},
      {"no metadata", R"({})", "f", "object has no name"},
      {"metadata string", R"({"metadata":"w"})", "f", "metadata: expected object, got string"},
      {"bad finalizers", R"({"metadata":{"name":"w","finalizers":[null]}})", "f",
       "metadata.finalizers[0]: expected string, got null"},
      {"empty finalizer", R"({"metadata":{"name":"w","resourceVersion":"1"}})", "",
       "finalizer name must not be empty"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto transport = std::make_shared<RecordingTransport>();
    client::ResourceClient widgets = test_support::resource_client(transport, kWidgets, "ns1");
    const auto got = patch_add_finalizer(widgets, json_object(c.input), c.finalizer);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().message, c.error);
    EXPECT_TRUE(client::is_client_error(got.error()));
    EXPECT_TRUE(transport->requests().empty());
  }
}

TEST(Finalizers, PatchConflictIsReturned) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(api::conflict({"example.com", "widgets"}, "w1", api::kObjectModified));
  client::ResourceClient widgets = test_support::resource_client(transport, kWidgets, "ns1");
  const auto got = patch_add_finalizer(widgets, json_object(kWidget), kFinalizer);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.error().is(api::reason::kConflict));
  EXPECT_EQ(got.error().code, 409);
  EXPECT_EQ(transport->requests().size(), 1u);  // a conflict is not retried
}

// --- finalize ---------------------------------------------------------------------

constexpr std::string_view kLive = R"({"metadata":{"name":"w1","namespace":"ns1",
  "resourceVersion":"5","finalizers":["example.com/cleanup","other"]}})";
constexpr std::string_view kLiveWithout = R"({"metadata":{"name":"w1","namespace":"ns1",
  "resourceVersion":"5","finalizers":["other"]}})";
constexpr std::string_view kLiveNoFinalizers = R"({"metadata":{"name":"w1","namespace":"ns1",
  "resourceVersion":"5"}})";
constexpr std::string_view kDeleting = R"({"metadata":{"name":"w1","namespace":"ns1",
  "resourceVersion":"6","deletionTimestamp":"2024-06-15T12:00:00Z",
  "finalizers":["other","example.com/cleanup"]}})";
constexpr std::string_view kDeletingWithout = R"({"metadata":{"name":"w1","namespace":"ns1",
  "resourceVersion":"6","deletionTimestamp":"2024-06-15T12:00:00Z","finalizers":["other"]}})";

TEST(Finalize, Table) {
  struct Case {
    std::string name;
    std::string_view input;
    std::string finalizer = std::string(kFinalizer);
    bool apply_fails = false;
    bool cleanup_fails = false;
    std::optional<api::Status> patch_error;  // else the patch answers 200
    FinalizeAction action;
    std::optional<FinalizeErrorKind> error_kind;
    std::string error;
    bool applied = false;
    bool cleaned = false;
    std::vector<std::string> patches;  // bodies sent
  };
  const api::Status conflict =
      api::conflict({"example.com", "widgets"}, "w1", api::kObjectModified);
  const std::string conflict_text =
      "Operation cannot be fulfilled on widgets.example.com \"w1\": " +
      std::string(api::kObjectModified);
  const std::vector<Case> cases = {
      {.name = "live with finalizer: apply",
       .input = kLive,
       .action = FinalizeAction::kApplied,
       .applied = true},
      {.name = "live with finalizer: apply fails",
       .input = kLive,
       .apply_fails = true,
       .action = FinalizeAction::kApplied,
       .error_kind = FinalizeErrorKind::kApply,
       .error = "failed to apply object: apply broke",
       .applied = true},
      {.name = "live without: add, do not apply",
       .input = kLiveWithout,
       .action = FinalizeAction::kAddedFinalizer,
       .patches =
           {R"({"metadata":{"finalizers":["other","example.com/cleanup"],"resourceVersion":"5"}})"}},
      {.name = "live with no list: add",
       .input = kLiveNoFinalizers,
       .action = FinalizeAction::kAddedFinalizer,
       .patches = {R"({"metadata":{"finalizers":["example.com/cleanup"],"resourceVersion":"5"}})"}},
      {.name = "live without: add conflicts",
       .input = kLiveWithout,
       .patch_error = conflict,
       .action = FinalizeAction::kAddedFinalizer,
       .error_kind = FinalizeErrorKind::kAddFinalizer,
       .error = "failed to add finalizer: " + conflict_text,
       .patches =
           {R"({"metadata":{"finalizers":["other","example.com/cleanup"],"resourceVersion":"5"}})"}},
      {.name = "deleting with finalizer: cleanup, then remove",
       .input = kDeleting,
       .action = FinalizeAction::kCleanedUp,
       .cleaned = true,
       .patches = {R"({"metadata":{"finalizers":["other"],"resourceVersion":"6"}})"}},
      {.name = "deleting: cleanup fails, finalizer kept",
       .input = kDeleting,
       .cleanup_fails = true,
       .action = FinalizeAction::kCleanedUp,
       .error_kind = FinalizeErrorKind::kCleanup,
       .error = "failed to clean up object: cleanup broke",
       .cleaned = true},
      {.name = "deleting: removal conflicts",
       .input = kDeleting,
       .patch_error = conflict,
       .action = FinalizeAction::kCleanedUp,
       .error_kind = FinalizeErrorKind::kRemoveFinalizer,
       .error = "failed to remove finalizer: " + conflict_text,
       .cleaned = true,
       .patches = {R"({"metadata":{"finalizers":["other"],"resourceVersion":"6"}})"}},
      {.name = "deleting without finalizer: nothing",
       .input = kDeletingWithout,
       .action = FinalizeAction::kNothing},
      {.name = "empty finalizer name",
       .input = kLive,
       .finalizer = "",
       .action = FinalizeAction::kNothing,
       .error_kind = FinalizeErrorKind::kInvalidObject,
       .error = "finalizer name must not be empty"},
      {.name = "malformed finalizers",
       .input = R"({"metadata":{"name":"w1","finalizers":"x"}})",
       .action = FinalizeAction::kNothing,
       .error_kind = FinalizeErrorKind::kInvalidObject,
       .error = "metadata.finalizers: expected array, got string"},
      {.name = "no name",
       .input = R"({"metadata":{"resourceVersion":"1"}})",
       .action = FinalizeAction::kNothing,
       .error_kind = FinalizeErrorKind::kInvalidObject,
       .error = "object has no name"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto transport = std::make_shared<RecordingTransport>();
    if (c.patch_error) {
      transport->answer(*c.patch_error);
    } else {
      transport->answer(200, R"({"metadata":{"name":"w1","resourceVersion":"99"}})");
    }
    client::ResourceClient widgets = test_support::resource_client(transport, kWidgets);
    const json::object input = json_object(c.input);
    bool applied = false;
    bool cleaned = false;
    const FinalizerFn apply = [&](const json::object& o) -> Result<void> {
      applied = true;
      EXPECT_EQ(json::serialize(o), json::serialize(input));
      if (c.apply_fails) return fail("apply broke");
      return {};
    };
    const FinalizerFn cleanup = [&](const json::object& o) -> Result<void> {
      cleaned = true;
      EXPECT_EQ(json::serialize(o), json::serialize(input));
      if (c.cleanup_fails) return fail("cleanup broke");
      return {};
    };
    const FinalizeResult r = finalize(widgets, input, c.finalizer, apply, cleanup);
    EXPECT_EQ(r.action, c.action);
    EXPECT_EQ(applied, c.applied);
    EXPECT_EQ(cleaned, c.cleaned);
    if (c.error_kind) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error->kind, *c.error_kind);
      EXPECT_EQ(r.error->message, c.error);
      EXPECT_EQ(r.error->status.has_value(), c.patch_error.has_value());
      EXPECT_EQ(r.conflict(), c.patch_error.has_value());
      EXPECT_FALSE(r.object.has_value());
    } else {
      EXPECT_TRUE(r.ok()) << r.error->message;
      EXPECT_EQ(r.object.has_value(), !c.patches.empty());
      if (r.object) {
        EXPECT_EQ(api::as_string_view(api::find_path(*r.object, {"metadata", "resourceVersion"})),
                  "99");
      }
    }
    std::vector<std::string> bodies;
    for (const client::HttpRequest& s : transport->requests()) {
      EXPECT_EQ(s.method, "PATCH");
      EXPECT_EQ(s.target, "/apis/example.com/v1/namespaces/ns1/widgets/w1");
      EXPECT_EQ(client::find_header(s.headers, "Content-Type"), "application/merge-patch+json");
      bodies.push_back(s.body);
    }
    EXPECT_EQ(bodies, c.patches);
  }
}

TEST(Finalize, UnsetFunctionsSucceed) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, "{}");
  client::ResourceClient widgets = test_support::resource_client(transport, kWidgets);
  EXPECT_TRUE(finalize(widgets, json_object(kLive), kFinalizer, {}, {}).ok());
  const FinalizeResult r = finalize(widgets, json_object(kDeleting), kFinalizer, {}, {});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.action, FinalizeAction::kCleanedUp);
  EXPECT_EQ(transport->requests().size(), 1u);
}

}  // namespace
}  // namespace kcm::controller
