#include "api/patch/merge_patch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../api_test_util.h"

namespace kcm::api {
namespace {

struct MergeCase {
  std::string name;
  std::string target;
  std::string patch;
  std::string result;  // compact JSON in the order we produce, or empty when `error` is set
  std::string error = {};
};

void PrintTo(const MergeCase& c, std::ostream* os) {
  *os << c.name;
}

class ApplyMergePatchTest : public testing::TestWithParam<MergeCase> {};

TEST_P(ApplyMergePatchTest, Applies) {
  const MergeCase& c = GetParam();
  const json::value target = parse_test_json(c.target);
  const json::value before = target;
  Result<json::value> got = apply_merge_patch(target, parse_test_json(c.patch));
  EXPECT_EQ(target, before) << "the target must not change";
  if (!c.error.empty()) {
    ASSERT_FALSE(got.ok()) << to_json_string(*got);
    EXPECT_EQ(got.error(), c.error);
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error();
  // Compare text, not values: member order is part of what we promise.
  EXPECT_EQ(to_json_string(*got), c.result);
}

// RFC 7386 section 3 and appendix A. Upstream (evanphx/json-patch v4) rejects a
// null or scalar top-level patch, where the RFC would return it.
INSTANTIATE_TEST_SUITE_P(
    Rfc7386, ApplyMergePatchTest,
    testing::ValuesIn(std::vector<MergeCase>{
        {"section3",
         R"({"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},)"
         R"("tags":["example","sample"],"content":"This will be unchanged"})",
         R"({"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},)"
         R"("tags":["example"]})",
         R"({"title":"Hello!","author":{"givenName":"John"},"tags":["example"],)"
         R"("content":"This will be unchanged","phoneNumber":"+01-123-456-7890"})"},
        {"a1", R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
        {"a2", R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
        {"a3", R"({"a":"b"})", R"({"a":null})", R"({})"},
        {"a4", R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
        {"a5", R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
        {"a6", R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
        {"a7", R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
        {"a8", R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
        {"a9", R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
        {"a10", R"({"a":"b"})", R"(["c"])", R"(["c"])"},
        {"a11_null_patch", R"({"a":"foo"})", "null", "", "Invalid JSON Patch"},
        {"a12_scalar_patch", R"({"a":"foo"})", R"("bar")", "", "Invalid JSON Patch"},
        {"a13", R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
        {"a14", R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
        {"a15", R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
    }),
    [](const auto& info) { return info.param.name; });

// What kubectl sends: scale, label/annotate, label removal.
INSTANTIATE_TEST_SUITE_P(
    Kubectl, ApplyMergePatchTest,
    testing::ValuesIn(std::vector<MergeCase>{
        {"scale",
         R"({"kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},)"
         R"("spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}}}})",
         R"({"spec":{"replicas":4}})",
         R"({"kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},)"
         R"("spec":{"replicas":4,"selector":{"matchLabels":{"app":"web"}}}})"},
        {"label_removal",
         R"({"metadata":{"name":"web","labels":{"app":"web","tier":"frontend","env":"prod"}}})",
         R"({"metadata":{"labels":{"tier":null}}})",
         // The removed member's neighbours keep their order.
         R"({"metadata":{"name":"web","labels":{"app":"web","env":"prod"}}})"},
        {"label_removal_of_missing_label", R"({"metadata":{"labels":{"app":"web"}}})",
         R"({"metadata":{"labels":{"tier":null}}})", R"({"metadata":{"labels":{"app":"web"}}})"},
        {"annotate_without_annotations", R"({"metadata":{"name":"web"}})",
         R"({"metadata":{"annotations":{"note":"hi"}}})",
         R"({"metadata":{"name":"web","annotations":{"note":"hi"}}})"},
        {"overwrite_label", R"({"metadata":{"labels":{"tier":"frontend"}}})",
         R"({"metadata":{"labels":{"tier":"backend"}}})",
         R"({"metadata":{"labels":{"tier":"backend"}}})"},
        {"containers_replaced_whole",
         R"({"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}})",
         R"({"spec":{"containers":[{"name":"a","image":"a:2"}]}})",
         R"({"spec":{"containers":[{"name":"a","image":"a:2"}]}})"},
        {"empty_patch", R"({"a":1})", R"({})", R"({"a":1})"},
    }),
    [](const auto& info) { return info.param.name; });

// evanphx/json-patch v4 corners the API server inherits.
INSTANTIATE_TEST_SUITE_P(UpstreamQuirks, ApplyMergePatchTest,
                         testing::ValuesIn(std::vector<MergeCase>{
                             {"new_member_prunes_null_members_in_arrays", R"({})",
                              R"({"a":[1,null,{"b":null,"c":2}]})", R"({"a":[1,null,{"c":2}]})"},
                             {"array_over_array_keeps_null_elements", R"({"a":[0]})",
                              R"({"a":[1,null,{"b":null}]})", R"({"a":[1,null,{}]})"},
                             {"scalar_over_scalar", R"({"a":1})", R"({"a":"x"})", R"({"a":"x"})"},
                             // Over an existing object upstream returns the patch value as sent.
                             {"array_over_object_is_not_pruned", R"({"a":{"b":1}})",
                              R"({"a":[1,null,{"b":null}]})", R"({"a":[1,null,{"b":null}]})"},
                             {"object_over_null_member_is_pruned", R"({"a":null})",
                              R"({"a":{"b":null,"c":1}})", R"({"a":{"c":1}})"},
                             {"object_over_scalar_is_pruned", R"({"a":5})",
                              R"({"a":{"b":null,"c":1}})", R"({"a":{"c":1}})"},
                             {"array_patch_over_object_prunes", R"({"a":1})",
                              R"([1,null,{"x":null}])", R"([1,null,{}])"},
                             {"object_patch_over_array", R"([1])", R"({"a":{"b":null}})",
                              R"({"a":{}})"},
                             {"object_patch_over_scalar", R"(5)", R"({"a":1})", R"({"a":1})"},
                             {"null_target", "null", R"({"a":1})", "", "Invalid JSON Document"},
                             {"null_target_and_patch", "null", "null", "", "Invalid JSON Document"},
                             {"number_patch", R"({"a":1})", "5", "", "Invalid JSON Patch"},
                             {"bool_patch", R"({"a":1})", "true", "", "Invalid JSON Patch"},
                             {"scalar_patch_over_scalar", "1", "2", "", "Invalid JSON Patch"},
                         }),
                         [](const auto& info) { return info.param.name; });

// A value built in memory can nest deeper than any parser allows: the merge
// must refuse it rather than recurse without bound.
json::value nested_objects(std::size_t depth, json::value leaf) {
  json::value v = std::move(leaf);
  for (std::size_t i = 0; i < depth; ++i) {
    json::object o;
    o.emplace("a", std::move(v));
    v = std::move(o);
  }
  return v;
}

TEST(ApplyMergePatchDepthTest, RejectsPatchDeeperThanTheParserAllows) {
  const json::value target = nested_objects(600, json::value(1));
  Result<json::value> deep = apply_merge_patch(target, nested_objects(600, json::value(2)));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error(), "Invalid JSON Patch");
  // Inserted values are pruned recursively: same limit.
  Result<json::value> inserted =
      apply_merge_patch(json::object(), nested_objects(600, json::value(nullptr)));
  ASSERT_FALSE(inserted.ok());
  EXPECT_EQ(inserted.error(), "Invalid JSON Patch");
  // 500 levels is fine.
  Result<json::value> ok =
      apply_merge_patch(nested_objects(500, json::value(1)), nested_objects(500, json::value(2)));
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(*ok, nested_objects(500, json::value(2)));
}

struct CreateCase {
  std::string name;
  std::string original;
  std::string modified;
  std::string patch;  // compact JSON, or empty when `error` is set
  std::string error = {};
  // Whether applying the patch to `original` gives back `modified` exactly;
  // numbers equal as float64 but written differently are not diffed.
  bool exact_round_trip = true;
};

void PrintTo(const CreateCase& c, std::ostream* os) {
  *os << c.name;
}

class CreateMergePatchTest : public testing::TestWithParam<CreateCase> {};

TEST_P(CreateMergePatchTest, Creates) {
  const CreateCase& c = GetParam();
  const json::value original = parse_test_json(c.original);
  const json::value modified = parse_test_json(c.modified);
  Result<json::value> got = create_merge_patch(original, modified);
  if (!c.error.empty()) {
    ASSERT_FALSE(got.ok()) << to_json_string(*got);
    EXPECT_EQ(got.error(), c.error);
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(to_json_string(*got), c.patch);
  if (original.is_object() && modified.is_object() && c.exact_round_trip) {
    // The patch turns the original into the modified document.
    Result<json::value> applied = apply_merge_patch(original, *got);
    ASSERT_TRUE(applied.ok()) << applied.error();
    EXPECT_EQ(*applied, modified);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CreateMergePatchTest,
    testing::ValuesIn(std::vector<CreateCase>{
        {"equal", R"({"a":1,"b":{"c":[1,2]}})", R"({"a":1,"b":{"c":[1,2]}})", R"({})"},
        {"changed_scalar", R"({"a":1})", R"({"a":2})", R"({"a":2})"},
        {"added_member", R"({"a":1})", R"({"a":1,"b":{"c":true}})", R"({"b":{"c":true}})"},
        {"removed_member", R"({"a":1,"b":2})", R"({"a":1})", R"({"b":null})"},
        {"label_removed", R"({"metadata":{"labels":{"app":"web","tier":"frontend"}}})",
         R"({"metadata":{"labels":{"app":"web"}}})", R"({"metadata":{"labels":{"tier":null}}})"},
        {"scale", R"({"metadata":{"name":"web"},"spec":{"replicas":3,"paused":false}})",
         R"({"metadata":{"name":"web"},"spec":{"replicas":4,"paused":false}})",
         R"({"spec":{"replicas":4}})"},
        {"array_changed_is_sent_whole", R"({"a":[1,2,3]})", R"({"a":[1,2]})", R"({"a":[1,2]})"},
        {"array_of_objects_equal", R"({"a":[{"x":1,"y":[true]}]})", R"({"a":[{"y":[true],"x":1}]})",
         R"({})"},
        {"type_change", R"({"a":{"b":1}})", R"({"a":"b"})", R"({"a":"b"})"},
        {"object_to_array", R"({"a":{"b":1}})", R"({"a":[1]})", R"({"a":[1]})"},
        {"null_to_value", R"({"a":null})", R"({"a":{"b":1}})", R"({"a":{"b":1}})"},
        {"null_unchanged", R"({"a":null})", R"({"a":null})", R"({})"},
        // Upstream compares numbers as float64.
        {"int_and_double_equal", R"({"a":1,"b":[1]})", R"({"a":1.0,"b":[1.0]})", R"({})", "",
         false},
        {"nested_member_removed", R"({"a":{"b":1,"c":2}})", R"({"a":{"b":1}})",
         R"({"a":{"c":null}})"},
        {"key_order_does_not_matter", R"({"a":1,"b":2})", R"({"b":2,"a":1})", R"({})"},
        {"null_original_is_empty", "null", R"({"a":1})", R"({"a":1})"},
        {"arrays_of_documents", R"([{"a":1},{"b":2},{"c":3}])", R"([{"a":2},{"b":2},{}])",
         R"([{"a":2},{},{"c":null}])"},
        {"array_against_object", R"([{"a":1}])", R"({"a":1})", "", "Mismatched JSON Documents"},
        {"object_against_array", R"({"a":1})", R"([])", "", "Mismatched JSON Documents"},
        {"arrays_of_unequal_length", R"([{}])", R"([{},{}])", "", "Invalid JSON Document"},
        {"array_of_scalars", R"([1])", R"([2])", "", "Invalid JSON Document"},
        {"scalar_documents", R"("a")", R"("b")", "", "Invalid JSON Document"},
        {"scalar_modified", R"({})", R"(1)", "", "Invalid JSON Document"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(CreateMergePatch, RoundTripsADeployment) {
  const json::value original = parse_test_json(
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)"
      R"("annotations":{"deployment.kubernetes.io/revision":"1"},"labels":{"app":"web"}},)"
      R"("spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"web"}},"spec":)"
      R"({"containers":[{"name":"web","image":"nginx:1.25","ports":[{"containerPort":80}]}]}}}})");
  const json::value modified = parse_test_json(
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)"
      R"("annotations":{"deployment.kubernetes.io/revision":"2","note":"x"},"labels":{}},)"
      R"("spec":{"replicas":5,"paused":true,"template":{"metadata":{"labels":{"app":"web"}},)"
      R"("spec":{"containers":[{"name":"web","image":"nginx:1.26","ports":[{"containerPort":80}]}]}}}})");
  Result<json::value> patch = create_merge_patch(original, modified);
  ASSERT_TRUE(patch.ok()) << patch.error();
  EXPECT_EQ(
      to_json_string(*patch),
      R"({"metadata":{"annotations":{"deployment.kubernetes.io/revision":"2","note":"x"},)"
      R"("labels":{"app":null}},"spec":{"replicas":5,"paused":true,"template":{"spec":)"
      R"({"containers":[{"name":"web","image":"nginx:1.26","ports":[{"containerPort":80}]}]}}}})");
  Result<json::value> applied = apply_merge_patch(original, *patch);
  ASSERT_TRUE(applied.ok()) << applied.error();
  EXPECT_EQ(*applied, modified);
}

TEST(CreateMergePatch, RefusesDocumentsDeeperThanTheParserAllows) {
  Result<json::value> got =
      create_merge_patch(nested_objects(600, json::value(1)), nested_objects(600, json::value(2)));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "Invalid JSON Document");
}

}  // namespace
}  // namespace kcm::api
