#include "api/patch/json_patch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../api_test_util.h"

namespace kcm::api {
namespace {

struct PatchCase {
  std::string name;
  std::string target;
  std::string patch;
  std::string result;  // compact JSON in the order we produce; empty when `error` is set
  std::string error = {};
};

void PrintTo(const PatchCase& c, std::ostream* os) {
  *os << c.name;
}

class JsonPatchTest : public testing::TestWithParam<PatchCase> {};

TEST_P(JsonPatchTest, Applies) {
  const PatchCase& c = GetParam();
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse(c.patch);
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  const json::value target = parse_test_json(c.target);
  const std::string before = to_json_string(target);
  JsonPatchOptions options;
  options.max_copy_bytes = 100;  // as upstream's own tests run
  Result<json::value, JsonPatchError> got = patch->apply(target, options);
  EXPECT_EQ(to_json_string(target), before) << "the target must not change";
  if (!c.error.empty()) {
    ASSERT_FALSE(got.ok()) << to_json_string(*got);
    EXPECT_EQ(got.error().kind, JsonPatchErrorKind::kCannotApply);
    EXPECT_EQ(got.error().message, c.error);
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(to_json_string(*got), c.result);
}

// RFC 6902 appendix A, every example. A.13 (a duplicate "op") is an error in
// the RFC; upstream decodes the last "op" like any JSON object and so do we.
INSTANTIATE_TEST_SUITE_P(
    Rfc6902, JsonPatchTest,
    testing::ValuesIn(std::vector<PatchCase>{
        {"a1_add_object_member", R"({"foo":"bar"})",
         R"([{"op":"add","path":"/baz","value":"qux"}])", R"({"foo":"bar","baz":"qux"})"},
        {"a2_add_array_element", R"({"foo":["bar","baz"]})",
         R"([{"op":"add","path":"/foo/1","value":"qux"}])", R"({"foo":["bar","qux","baz"]})"},
        {"a3_remove_object_member", R"({"baz":"qux","foo":"bar"})",
         R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
        {"a4_remove_array_element", R"({"foo":["bar","qux","baz"]})",
         R"([{"op":"remove","path":"/foo/1"}])", R"({"foo":["bar","baz"]})"},
        {"a5_replace", R"({"baz":"qux","foo":"bar"})",
         R"([{"op":"replace","path":"/baz","value":"boo"}])", R"({"baz":"boo","foo":"bar"})"},
        {"a6_move", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
         R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
         R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
        {"a7_move_array_element", R"({"foo":["all","grass","cows","eat"]})",
         R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
         R"({"foo":["all","cows","eat","grass"]})"},
        {"a8_test_success", R"({"baz":"qux","foo":["a",2,"c"]})",
         R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
         R"({"baz":"qux","foo":["a",2,"c"]})"},
        {"a9_test_error", R"({"baz":"qux"})", R"([{"op":"test","path":"/baz","value":"bar"}])", "",
         "testing value /baz failed: test failed"},
        {"a10_add_nested_object", R"({"foo":"bar"})",
         R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
         R"({"foo":"bar","child":{"grandchild":{}}})"},
        {"a11_ignore_unknown_members", R"({"foo":"bar"})",
         R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])", R"({"foo":"bar","baz":"qux"})"},
        {"a12_add_to_nonexistent_target", R"({"foo":"bar"})",
         R"([{"op":"add","path":"/baz/bat","value":"qux"}])", "",
         R"(add operation does not apply: doc is missing path: "/baz/bat": missing value)"},
        {"a13_duplicate_op_last_wins", R"({"foo":"bar"})",
         R"([{"op":"add","path":"/baz","value":"qux","op":"remove"}])", "",
         "error in remove for path: '/baz': Unable to remove nonexistent key: baz: missing value"},
        {"a14_escape_ordering", R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":10}])",
         R"({"/":9,"~1":10})"},
        {"a15_string_is_not_number", R"({"/":9,"~1":10})",
         R"([{"op":"test","path":"/~01","value":"10"}])", "",
         "testing value /~01 failed: test failed"},
        {"a16_add_array_value", R"({"foo":["bar"]})",
         R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
         R"({"foo":["bar",["abc","def"]]})"},
    }),
    [](const auto& info) { return info.param.name; });

constexpr std::string_view kAnnotatedDeployment =
    R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)"
    R"("annotations":{"deployment.kubernetes.io/revision":"3","kubectl.kubernetes.io/last-applied-configuration":"{}"},)"
    R"("labels":{"app":"web","app.kubernetes.io/name":"web"}},"spec":{"replicas":3,)"
    R"("template":{"metadata":{"labels":{"app":"web","pod-template-hash":"abc"}},)"
    R"("spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}})";

// What kubectl and controllers send, and the v4 behaviours they depend on.
INSTANTIATE_TEST_SUITE_P(
    Kubectl, JsonPatchTest,
    testing::ValuesIn(std::vector<PatchCase>{
        {"replace_replicas", std::string(kAnnotatedDeployment),
         R"([{"op":"replace","path":"/spec/replicas","value":4}])",
         R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)"
         R"("annotations":{"deployment.kubernetes.io/revision":"3","kubectl.kubernetes.io/last-applied-configuration":"{}"},)"
         R"("labels":{"app":"web","app.kubernetes.io/name":"web"}},"spec":{"replicas":4,)"
         R"("template":{"metadata":{"labels":{"app":"web","pod-template-hash":"abc"}},)"
         R"("spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}})"},
        {"rollout_undo", std::string(kAnnotatedDeployment),
         R"([{"op":"replace","path":"/spec/template","value":{"metadata":{"labels":{"app":"web"}},)"
         R"("spec":{"containers":[{"name":"web","image":"nginx:1.25"}]}}},)"
         R"({"op":"replace","path":"/metadata/annotations","value":)"
         R"({"deployment.kubernetes.io/revision":"3","kubectl.kubernetes.io/last-applied-configuration":"{}"}}])",
         R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)"
         R"("annotations":{"deployment.kubernetes.io/revision":"3","kubectl.kubernetes.io/last-applied-configuration":"{}"},)"
         R"("labels":{"app":"web","app.kubernetes.io/name":"web"}},"spec":{"replicas":3,)"
         R"("template":{"metadata":{"labels":{"app":"web"}},)"
         R"("spec":{"containers":[{"name":"web","image":"nginx:1.25"}]}}}})"},
        {"escaped_label_key", R"({"metadata":{"labels":{"app.kubernetes.io/name":"web"}}})",
         R"([{"op":"replace","path":"/metadata/labels/app.kubernetes.io~1name","value":"api"}])",
         R"({"metadata":{"labels":{"app.kubernetes.io/name":"api"}}})"},
        {"remove_finalizer", R"({"metadata":{"finalizers":["a","foregroundDeletion","b"]}})",
         R"([{"op":"test","path":"/metadata/finalizers/1","value":"foregroundDeletion"},)"
         R"({"op":"remove","path":"/metadata/finalizers/1"}])",
         R"({"metadata":{"finalizers":["a","b"]}})"},
        // v4: add on an existing member replaces it.
        {"add_existing_replaces", R"({"spec":{"replicas":3,"paused":false}})",
         R"([{"op":"add","path":"/spec/replicas","value":5}])",
         R"({"spec":{"replicas":5,"paused":false}})"},
        // v4: replace on a missing object member adds it (an RFC error).
        {"replace_missing_member_adds", R"({"metadata":{"labels":{"app":"web"}}})",
         R"([{"op":"replace","path":"/metadata/labels/tier","value":"fe"}])",
         R"({"metadata":{"labels":{"app":"web","tier":"fe"}}})"},
        {"remove_missing_member", R"({"metadata":{"labels":{"app":"web"}}})",
         R"([{"op":"remove","path":"/metadata/labels/tier"}])", "",
         "error in remove for path: '/metadata/labels/tier': Unable to remove nonexistent key: "
         "tier: missing value"},
        {"replace_under_missing_member", R"({"spec":{}})",
         R"([{"op":"replace","path":"/spec/foo/bar","value":1}])", "",
         "replace operation does not apply: doc is missing path: /spec/foo/bar: missing value"},
        {"replace_missing_index", R"({"spec":{"containers":[{"name":"a"}]}})",
         R"([{"op":"replace","path":"/spec/containers/5","value":{}}])", "",
         "replace operation does not apply: doc is missing key: /spec/containers/5: missing value"},
        {"replace_dash_index", R"({"a":[1]})", R"([{"op":"replace","path":"/a/-","value":2}])", "",
         "replace operation does not apply: doc is missing key: /a/-: missing value"},
        {"test_replicas_failed", R"({"spec":{"replicas":3}})",
         R"([{"op":"test","path":"/spec/replicas","value":4},)"
         R"({"op":"replace","path":"/spec/replicas","value":5}])",
         "", "testing value /spec/replicas failed: test failed"},
        {"remove_missing_path", R"({"metadata":{}})",
         R"([{"op":"remove","path":"/metadata/labels/app"}])", "",
         R"(remove operation does not apply: doc is missing path: "/metadata/labels/app": missing value)"},
    }),
    [](const auto& info) { return info.param.name; });

// evanphx/json-patch v4 behaviour and messages beyond the RFC examples.
INSTANTIATE_TEST_SUITE_P(
    Upstream, JsonPatchTest,
    testing::ValuesIn(std::vector<PatchCase>{
        {"add_negative_index", R"({"foo":["bar","baz"]})",
         R"([{"op":"add","path":"/foo/-1","value":"qux"}])", R"({"foo":["bar","baz","qux"]})"},
        {"add_negative_index_empty", R"({"foo":[]})",
         R"([{"op":"add","path":"/foo/-1","value":"qux"}])", R"({"foo":["qux"]})"},
        {"add_leading_zero_and_plus", R"({"foo":["a","b"]})",
         R"([{"op":"add","path":"/foo/01","value":"x"},{"op":"add","path":"/foo/+0","value":"y"}])",
         R"({"foo":["y","a","x","b"]})"},
        {"add_at_end_index", R"({"foo":["a"]})", R"([{"op":"add","path":"/foo/1","value":"b"}])",
         R"({"foo":["a","b"]})"},
        {"add_null_value", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":null}])",
         R"({"foo":"bar","baz":null})"},
        {"add_without_value_is_null", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz"}])",
         R"({"foo":"bar","baz":null})"},
        {"add_empty_key", R"({"foo":1})", R"([{"op":"add","path":"/","value":2}])",
         R"({"foo":1,"":2})"},
        {"path_without_leading_slash_ignores_first_token", R"({"foo":1})",
         R"([{"op":"add","path":"x/baz","value":2}])", R"({"foo":1,"baz":2})"},
        {"remove_negative_index", R"({"foo":["bar","qux","baz"]})",
         R"([{"op":"remove","path":"/foo/-2"}])", R"({"foo":["bar","baz"]})"},
        {"remove_null_member", R"({"foo":"bar","qux":{"baz":1,"bar":null}})",
         R"([{"op":"remove","path":"/qux/bar"}])", R"({"foo":"bar","qux":{"baz":1}})"},
        {"remove_keeps_member_order", R"({"a":1,"b":2,"c":3,"d":4})",
         R"([{"op":"remove","path":"/b"}])", R"({"a":1,"c":3,"d":4})"},
        {"replace_null_member", R"({"bar":[{"baz":null}]})",
         R"([{"op":"replace","path":"/bar/0/baz","value":1}])", R"({"bar":[{"baz":1}]})"},
        {"replace_with_null", R"({"bar":[1]})",
         R"([{"op":"replace","path":"/bar/0","value":null}])", R"({"bar":[null]})"},
        {"replace_null_element", R"({"bar":[null]})",
         R"([{"op":"replace","path":"/bar/0","value":1}])", R"({"bar":[1]})"},
        {"replace_negative_index", R"({"bar":[1,2]})",
         R"([{"op":"replace","path":"/bar/-1","value":3}])", R"({"bar":[1,3]})"},
        {"replace_whole_document", R"({"a":1})", R"([{"op":"replace","path":"","value":[1,2]}])",
         R"([1,2])"},
        {"replace_whole_document_with_scalar_is_ignored", R"({"a":1})",
         R"([{"op":"replace","path":"","value":5}])", R"({"a":1})"},
        {"array_root", R"([{"foo":["bar","qux","baz"]}])",
         R"([{"op":"replace","path":"/0/foo/0","value":"bum"}])",
         R"([{"foo":["bum","qux","baz"]}])"},
        {"copy_array_element", R"([{"foo":["bar","qux","baz"],"bar":["qux","baz"]}])",
         R"([{"op":"copy","from":"/0/foo/0","path":"/0/bar/0"}])",
         R"([{"foo":["bar","qux","baz"],"bar":["bar","qux","baz"]}])"},
        {"copy_into_itself", R"({"foo":["bar"]})",
         R"([{"op":"copy","path":"/foo/0","from":"/foo"}])", R"({"foo":[["bar"],"bar"]})"},
        {"copy_missing_member_copies_null", R"({"foo":1})",
         R"([{"op":"copy","from":"/nope","path":"/bar"}])", R"({"foo":1,"bar":null})"},
        {"copy_within_limit", R"({"foo":["A","AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]})",
         R"([{"op":"copy","path":"/foo/-","from":"/foo/1"},{"op":"copy","path":"/foo/-","from":"/foo/1"}])",
         R"({"foo":["A","AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",)"
         R"("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]})"},
        {"copy_over_limit", R"({"foo":["A","AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]})",
         R"([{"op":"copy","path":"/foo/-","from":"/foo/1"},{"op":"copy","path":"/foo/-","from":"/foo/1"}])",
         "",
         "Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the "
         "limit 100"},
        {"move_null_member", R"({"a":null})", R"([{"op":"move","from":"/a","path":"/b"}])",
         R"({"b":null})"},
        {"move_into_own_child", R"({"a":{"b":{}}})",
         R"([{"op":"move","from":"/a","path":"/a/b/c"}])", "",
         "move operation does not apply: doc is missing destination path: /a/b/c: missing value"},
        {"test_missing_member_against_null", R"({"baz":"qux"})",
         R"([{"op":"test","path":"/foo","value":null}])", R"({"baz":"qux"})"},
        {"test_null_member_against_null", R"({"foo":null})",
         R"([{"op":"test","path":"/foo","value":null}])", R"({"foo":null})"},
        {"test_missing_member", R"({"baz":"qux"})", R"([{"op":"test","path":"/foo","value":42}])",
         "", "testing value /foo failed: test failed"},
        {"test_object_against_null", R"({"foo":{}})",
         R"([{"op":"test","path":"/foo","value":null}])", "",
         "testing value /foo failed: test failed"},
        {"test_without_value", R"({"foo":[]})", R"([{"op":"test","path":"/foo"}])", "",
         "testing value /foo failed: test failed"},
        {"test_structural_equality", R"({"a":{"x":[1,{"y":null}],"z":"s"}})",
         R"([{"op":"test","path":"/a","value":{"z":"s","x":[1,{"y":null}]}}])",
         R"({"a":{"x":[1,{"y":null}],"z":"s"}})"},
        {"test_object_size_differs", R"({"a":{"x":1}})",
         R"([{"op":"test","path":"/a","value":{"x":1,"y":null}}])", "",
         "testing value /a failed: test failed"},
        // Upstream compares scalars by their JSON text.
        {"test_int_against_double", R"({"a":1})", R"([{"op":"test","path":"/a","value":1.0}])", "",
         "testing value /a failed: test failed"},
        {"test_whole_document", R"({"a":[1]})", R"([{"op":"test","path":"","value":{"a":[1]}}])",
         R"({"a":[1]})"},
        {"test_whole_document_failed", R"({"a":[1]})",
         R"([{"op":"test","path":"","value":{"a":[2]}}])", "",
         "testing value  failed: test failed"},
        {"empty_patch", R"({"a":1})", "[]", R"({"a":1})"},
        {"null_patch_is_empty", R"({"a":1})", "null", R"({"a":1})"},
    }),
    [](const auto& info) { return info.param.name; });

// Well-formed patches that do not apply: 422 with upstream's text.
INSTANTIATE_TEST_SUITE_P(
    CannotApply, JsonPatchTest,
    testing::ValuesIn(std::vector<PatchCase>{
        {"missing_op", R"({})", R"([{"path":"/a","value":1}])", "", "Unexpected kind: unknown"},
        {"null_op", R"({})", R"([{"op":null,"path":""}])", "", "Unexpected kind: unknown"},
        {"number_op", R"({})", R"([{"op":1,"path":"/a"}])", "", "Unexpected kind: unknown"},
        {"null_operation", R"({})", R"([null])", "", "Unexpected kind: unknown"},
        {"unknown_op", R"({})", R"([{"op":"frobnicate","path":"/a"}])", "",
         "Unexpected kind: frobnicate"},
        {"op_is_case_sensitive", R"({})", R"([{"op":"Add","path":"/a","value":1}])", "",
         "Unexpected kind: Add"},
        {"add_missing_path", R"({})", R"([{"op":"add","value":1}])", "",
         "add operation failed to decode path: missing value"},
        {"add_null_path", R"({})", R"([{"op":"add","path":null}])", "",
         "add operation failed to decode path: missing value"},
        {"add_empty_path", R"({"foo":"bar"})", R"([{"op":"add","path":"","value":"qux"}])", "",
         R"(add operation does not apply: doc is missing path: "": missing value)"},
        {"add_path_without_slash", R"({"foo":"bar"})", R"([{"op":"add","path":"baz","value":1}])",
         "", R"(add operation does not apply: doc is missing path: "baz": missing value)"},
        {"add_through_scalar", R"({"foo":"bar"})", R"([{"op":"add","path":"/foo/x","value":1}])",
         "", R"(add operation does not apply: doc is missing path: "/foo/x": missing value)"},
        {"add_through_null", R"({"foo":null})", R"([{"op":"add","path":"/foo/x","value":1}])", "",
         R"(add operation does not apply: doc is missing path: "/foo/x": missing value)"},
        {"add_index_too_large", R"({"foo":["bar"]})",
         R"([{"op":"add","path":"/foo/2","value":"bum"}])", "",
         "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index "
         "referenced"},
        {"add_negative_index_too_small", R"({"foo":["bar","baz"]})",
         R"([{"op":"add","path":"/foo/-4","value":"bum"}])", "",
         "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index "
         "referenced"},
        {"add_non_numeric_index", R"({"foo":[]})", R"([{"op":"add","path":"/foo/x","value":1}])",
         "",
         R"(error in add for path: '/foo/x': value was not a proper array index: 'x': )"
         R"(strconv.Atoi: parsing "x": invalid syntax)"},
        {"add_index_out_of_int_range", R"({"foo":[]})",
         R"([{"op":"add","path":"/foo/99999999999999999999","value":1}])", "",
         R"(error in add for path: '/foo/99999999999999999999': value was not a proper array )"
         R"(index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value )"
         R"(out of range)"},
        {"remove_missing_path_field", R"({})", R"([{"op":"remove"}])", "",
         "remove operation failed to decode path: missing value"},
        {"remove_under_missing_member", R"({"a":{"b":{"d":1}}})",
         R"([{"op":"remove","path":"/a/b/c/d"}])", "",
         R"(remove operation does not apply: doc is missing path: "/a/b/c/d": missing value)"},
        {"remove_index_too_large", R"({"a":{"b":[1]}})", R"([{"op":"remove","path":"/a/b/1"}])", "",
         "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index "
         "referenced"},
        {"remove_dash", R"({"foo":[]})", R"([{"op":"remove","path":"/foo/-"}])", "",
         R"(error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax)"},
        {"remove_negative_from_empty", R"({"foo":[]})", R"([{"op":"remove","path":"/foo/-1"}])", "",
         "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index "
         "referenced"},
        {"remove_negative_too_small", R"({"foo":["bar"]})", R"([{"op":"remove","path":"/foo/-2"}])",
         "",
         "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index "
         "referenced"},
        {"replace_missing_path_field", R"({})", R"([{"op":"replace","value":1}])", "",
         "replace operation failed to decode path: operation missing path field: missing value"},
        {"replace_numeric_path", R"({})", R"([{"op":"replace","path":1,"value":1}])", "",
         "replace operation failed to decode path: json: cannot unmarshal number into Go value of "
         "type string"},
        {"replace_under_wrong_member", R"({"name":{"foo":"bat","qux":"bum"}})",
         R"([{"op":"replace","path":"/foo/bar","value":"baz"}])", "",
         "replace operation does not apply: doc is missing path: /foo/bar: missing value"},
        {"replace_index_too_large", R"({"foo":["bar","baz"]})",
         R"([{"op":"replace","path":"/foo/2","value":"bum"}])", "",
         "replace operation does not apply: doc is missing key: /foo/2: missing value"},
        {"move_missing_from", R"({})", R"([{"op":"move","path":"/a"}])", "",
         "move operation failed to decode from: operation, missing from field: missing value"},
        {"move_missing_path", R"({"a":1})", R"([{"op":"move","from":"/a"}])", "",
         "move operation failed to decode path: operation missing path field: missing value"},
        {"move_from_missing_path", R"({"a":{}})", R"([{"op":"move","from":"/a/b/c","path":"/d"}])",
         "", "move operation does not apply: doc is missing from path: /a/b/c: missing value"},
        {"move_from_missing_member", R"({"a":{"b":{"d":1}}})",
         R"([{"op":"move","from":"/a/b/c","path":"/a/b/e"}])", "",
         "error in move for path: 'c': Unable to remove nonexistent key: c: missing value"},
        {"move_from_missing_index", R"({"a":{"b":[1]}})",
         R"([{"op":"move","from":"/a/b/1","path":"/a/b/2"}])", "",
         "error in move for path: '1': Unable to access invalid index: 1: invalid index "
         "referenced"},
        {"move_to_index_too_large", R"({"foo":["all","grass","cows","eat"]})",
         R"([{"op":"move","from":"/foo/1","path":"/foo/4"}])", "",
         "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index "
         "referenced"},
        {"copy_null_from", R"({})", R"([{"op":"copy","from":null}])", "",
         "copy operation failed to decode from: operation, missing from field: missing value"},
        {"copy_missing_path", R"({"a":1})", R"([{"op":"copy","from":"/a"}])", "",
         "copy operation failed to decode path: missing value"},
        {"copy_from_missing_path", R"({})", R"([{"op":"copy","from":"/a/b","path":"/c"}])", "",
         "copy operation does not apply: doc is missing from path: /a/b: missing value"},
        {"copy_from_bad_index", R"({"a":[]})", R"([{"op":"copy","from":"/a/0","path":"/c"}])", "",
         "error in copy for from: '/a/0': Unable to access invalid index: 0: invalid index "
         "referenced"},
        {"copy_to_missing_path", R"({"a":1})", R"([{"op":"copy","from":"/a","path":"/b/c"}])", "",
         "copy operation does not apply: doc is missing destination path: /b/c: missing value"},
        {"copy_to_index_too_large", R"({"foo":["bar"]})",
         R"([{"op":"copy","path":"/foo/2","from":"/foo/0"}])", "",
         "error while adding value during copy: Unable to access invalid index: 2: invalid index "
         "referenced"},
        {"copy_to_huge_index", R"({"foo":["bar"]})",
         R"([{"op":"copy","path":"/foo/6666666666","from":"/"}])", "",
         "error while adding value during copy: Unable to access invalid index: 6666666666: "
         "invalid index referenced"},
        {"test_missing_path_field", R"({})", R"([{"op":"test","value":1}])", "",
         "test operation failed to decode path: operation missing path field: missing value"},
        {"test_under_missing_member", R"({})", R"([{"op":"test","path":"/a/b","value":1}])", "",
         "test operation does not apply: is missing path: /a/b: missing value"},
        {"test_bad_index", R"({"a":[1]})", R"([{"op":"test","path":"/a/5","value":1}])", "",
         "error in test for path: '/a/5': Unable to access invalid index: 5: invalid index "
         "referenced"},
        {"test_non_numeric_index", R"({"a":[1]})", R"([{"op":"test","path":"/a/x","value":1}])", "",
         R"(error in test for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax)"},
        // The first failing operation wins; earlier ones are not kept.
        {"stops_at_first_error", R"({"a":1})",
         R"([{"op":"add","path":"/b","value":2},{"op":"remove","path":"/c"},{"op":"frob"}])", "",
         "error in remove for path: '/c': Unable to remove nonexistent key: c: missing value"},
    }),
    [](const auto& info) { return info.param.name; });

struct DecodeCase {
  std::string name;
  std::string patch;
  std::string error;
};

void PrintTo(const DecodeCase& c, std::ostream* os) {
  *os << c.name;
}

class JsonPatchDecodeTest : public testing::TestWithParam<DecodeCase> {};

// Bodies that are not a JSON patch at all: 400 with Go's decoder text.
TEST_P(JsonPatchDecodeTest, RejectsAsBadRequest) {
  const DecodeCase& c = GetParam();
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse(c.patch);
  ASSERT_FALSE(patch.ok());
  EXPECT_EQ(patch.error().kind, JsonPatchErrorKind::kBadRequest);
  EXPECT_EQ(patch.error().message, c.error);
  const Status status = to_status(patch.error());
  EXPECT_EQ(status.code, 400);
  EXPECT_EQ(status.reason, "BadRequest");
  EXPECT_EQ(status.message, c.error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, JsonPatchDecodeTest,
    testing::ValuesIn(std::vector<DecodeCase>{
        {"object", R"({"op":"add","path":"/a","value":1})",
         "json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
        {"string", R"("add")",
         "json: cannot unmarshal string into Go value of type jsonpatch.Patch"},
        {"number", "5", "json: cannot unmarshal number into Go value of type jsonpatch.Patch"},
        {"bool", "true", "json: cannot unmarshal bool into Go value of type jsonpatch.Patch"},
        {"number_operation", "[1]",
         "json: cannot unmarshal number into Go value of type jsonpatch.Operation"},
        {"array_operation", R"([{"op":"add","path":"/a"},[]])",
         "json: cannot unmarshal array into Go value of type jsonpatch.Operation"},
        {"string_operation", R"(["add"])",
         "json: cannot unmarshal string into Go value of type jsonpatch.Operation"},
        {"bool_operation", "[false]",
         "json: cannot unmarshal bool into Go value of type jsonpatch.Operation"},
        {"syntax_error", R"([{"op":"add",])", "invalid JSON at byte 13: syntax error"},
        {"empty_body", "", "invalid JSON at byte 0: incomplete JSON"},
        {"trailing_data", "[] []", "invalid JSON at byte 3: extra data"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(JsonPatch, CountsOperationsForTheServerLimit) {
  Result<JsonPatch, JsonPatchError> patch =
      JsonPatch::parse(R"([{"op":"test","path":"/a","value":1},null,{"op":"remove","path":"/a"}])");
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  EXPECT_EQ(patch->size(), 3u);
  Result<JsonPatch, JsonPatchError> empty = JsonPatch::parse("null");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(kMaxJsonPatchOperations, 10000u);
  EXPECT_EQ(too_many_operations_message(10001),
            "The allowed maximum operations in a JSON patch is 10000, got 10001");
}

TEST(JsonPatch, CannotApplyMapsToUpstreams422) {
  const Status status =
      to_status(JsonPatchError{JsonPatchErrorKind::kCannotApply, "testing value /a failed"});
  EXPECT_EQ(status.code, 422);
  EXPECT_EQ(status.reason, "Invalid");
}

TEST(JsonPatch, FromJsonTakesAParsedBody) {
  const json::value body = parse_test_json(R"([{"op":"add","path":"/b","value":[1]}])");
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::from_json(body);
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  Result<json::value, JsonPatchError> got = patch->apply(parse_test_json(R"({"a":0})"));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(to_json_string(*got), R"({"a":0,"b":[1]})");
}

TEST(JsonPatch, TargetMustBeAnObjectOrArray) {
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse("[]");
  ASSERT_TRUE(patch.ok());
  for (const auto& [target, type] :
       std::vector<std::pair<json::value, std::string>>{{json::value("s"), "string"},
                                                        {json::value(1), "number"},
                                                        {json::value(true), "bool"},
                                                        {json::value(nullptr), "null"}}) {
    Result<json::value, JsonPatchError> got = patch->apply(target);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().kind, JsonPatchErrorKind::kCannotApply);
    EXPECT_EQ(got.error().message,
              "json: cannot unmarshal " + type + " into Go value of type jsonpatch.partialDoc");
  }
}

TEST(JsonPatch, DefaultCopyLimitIsUpstreamsThreeMebibytes) {
  EXPECT_EQ(JsonPatchOptions{}.max_copy_bytes, 3 * 1024 * 1024);
  // 2 KiB doubled by each copy: the twelfth copy crosses 3 MiB.
  json::object target;
  target.emplace("v0", std::string(2046, 'x'));  // 2048 bytes serialized
  std::string ops = "[";
  for (int i = 0; i < 12; ++i) {
    if (i > 0) ops += ",";
    ops += "{\"op\":\"add\",\"path\":\"/v" + std::to_string(i + 1) + "\",\"value\":[]},";
    ops += "{\"op\":\"copy\",\"from\":\"/v" + std::to_string(i) + "\",\"path\":\"/v" +
           std::to_string(i + 1) + "/-\"},";
    ops += "{\"op\":\"copy\",\"from\":\"/v" + std::to_string(i) + "\",\"path\":\"/v" +
           std::to_string(i + 1) + "/-\"}";
  }
  ops += "]";
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse(ops);
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  Result<json::value, JsonPatchError> got = patch->apply(target);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, JsonPatchErrorKind::kCannotApply);
  EXPECT_TRUE(got.error().message.starts_with(
      "Unable to complete the copy, the accumulated size increase of copy is "))
      << got.error().message;
  EXPECT_TRUE(got.error().message.ends_with(", exceeding the limit 3145728"))
      << got.error().message;
  // Without a limit the same patch applies.
  Result<json::value, JsonPatchError> unlimited = patch->apply(target, JsonPatchOptions{0});
  ASSERT_TRUE(unlimited.ok()) << unlimited.error().message;
}

// A patch result must stay readable by parse_json (512 levels): deeper
// values are refused instead of being stored, or recursed on.
std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(JsonPatchDepthTest, ParserAcceptsExactlyTheLimit) {
  std::string error;
  EXPECT_TRUE(parse_json(nested_arrays(512), &error).has_value()) << error;
  EXPECT_FALSE(parse_json(nested_arrays(513), &error).has_value());
}

TEST(JsonPatchDepthTest, RefusesResultsDeeperThanTheParserAllows) {
  // Root object (level 1) holding "a" nested 500 deep: 501 levels.
  const json::value target = parse_test_json("{\"a\":" + nested_arrays(500) + "}");
  const auto apply = [&target](const std::string& ops) {
    Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse(ops);
    EXPECT_TRUE(patch.ok());
    return patch->apply(target);
  };
  const std::string deepest = "/a" + [] {
    std::string p;
    for (int i = 0; i < 499; ++i)
      p += "/0";
    return p;
  }();
  // The innermost array is at level 501: a value 11 deep reaches 512.
  Result<json::value, JsonPatchError> fits = apply("[{\"op\":\"add\",\"path\":\"" + deepest +
                                                   "/-\",\"value\":" + nested_arrays(11) + "}]");
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  std::string error;
  EXPECT_TRUE(parse_json(to_json_string(*fits), &error).has_value()) << error;

  Result<json::value, JsonPatchError> deep = apply("[{\"op\":\"add\",\"path\":\"" + deepest +
                                                   "/-\",\"value\":" + nested_arrays(12) + "}]");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error().kind, JsonPatchErrorKind::kCannotApply);
  EXPECT_EQ(deep.error().message, "add operation does not apply: value at " + deepest +
                                      "/- would nest deeper than 512 levels");

  // Copying the document into itself doubles its depth.
  Result<json::value, JsonPatchError> copied =
      apply("[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"" + deepest + "/-\"}]");
  ASSERT_FALSE(copied.ok());
  EXPECT_EQ(copied.error().message, "copy operation does not apply: value at " + deepest +
                                        "/- would nest deeper than 512 levels");
  Result<json::value, JsonPatchError> moved =
      apply("[{\"op\":\"add\",\"path\":\"/b\",\"value\":" + nested_arrays(100) +
            "},{\"op\":\"move\",\"from\":\"/b\",\"path\":\"" + deepest + "/-\"}]");
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.error().message, "move operation does not apply: value at " + deepest +
                                       "/- would nest deeper than 512 levels");
  // `deepest` names the innermost array, an element of a level-500 array.
  Result<json::value, JsonPatchError> replaced = apply(
      "[{\"op\":\"replace\",\"path\":\"" + deepest + "\",\"value\":" + nested_arrays(13) + "}]");
  ASSERT_FALSE(replaced.ok());
  EXPECT_EQ(replaced.error().message, "replace operation does not apply: value at " + deepest +
                                          " would nest deeper than 512 levels");
  Result<json::value, JsonPatchError> replaced_fits = apply(
      "[{\"op\":\"replace\",\"path\":\"" + deepest + "\",\"value\":" + nested_arrays(12) + "}]");
  EXPECT_TRUE(replaced_fits.ok()) << replaced_fits.error().message;
}

TEST(JsonPatch, AppliesAtomicallyToACopy) {
  const json::value target = parse_test_json(R"({"a":{"b":[1,2]},"c":"d"})");
  Result<JsonPatch, JsonPatchError> patch = JsonPatch::parse(
      R"([{"op":"remove","path":"/a/b/0"},{"op":"add","path":"/x","value":1},)"
      R"({"op":"move","from":"/c","path":"/e"},{"op":"test","path":"/e","value":"nope"}])");
  ASSERT_TRUE(patch.ok());
  Result<json::value, JsonPatchError> got = patch->apply(target);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, "testing value /e failed: test failed");
  EXPECT_EQ(to_json_string(target), R"({"a":{"b":[1,2]},"c":"d"})");
}

}  // namespace
}  // namespace kcm::api
