#include "api/patch/strategic_merge_patch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "test_patch_schema.h"

namespace kcm::api {
namespace {

json::value parse(std::string_view text) {
  std::string error;
  std::optional<json::value> v = parse_json(text, &error);
  EXPECT_TRUE(v.has_value()) << text << ": " << error;
  return v.value_or(json::value());
}

// Members sorted at every level: equality that ignores member order only.
json::value canonical(const json::value& v) {
  if (const json::object* o = v.if_object()) {
    std::vector<std::pair<std::string, json::value>> members;
    for (const auto& m : *o)
      members.emplace_back(std::string(m.key()), canonical(m.value()));
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    json::object out;
    for (auto& m : members)
      out.emplace(m.first, std::move(m.second));
    return out;
  }
  if (const json::array* a = v.if_array()) {
    json::array out;
    for (const json::value& e : *a)
      out.push_back(canonical(e));
    return out;
  }
  return v;
}

enum class Schema { kItem, kPod, kKubectlDeployment };

const PatchSchema& schema_for(Schema s) {
  switch (s) {
    case Schema::kPod:
      return pod_patch_schema();
    case Schema::kKubectlDeployment:
      return deployment_patch_schema();
    case Schema::kItem:
      break;
  }
  return merge_item_patch_schema();
}

struct ApplyCase {
  std::string name;
  std::string original;
  std::string patch;
  std::string result;  // compact JSON in the order we produce; empty when `error` is set
  std::string error = {};
  PatchErrorKind kind = PatchErrorKind::kInternal;
};

void PrintTo(const ApplyCase& c, std::ostream* os) {
  *os << c.name;
}

void check_apply(const ApplyCase& c, Schema schema) {
  const json::value original = parse(c.original);
  const json::value patch = parse(c.patch);
  const std::string original_before = to_json_string(original);
  const std::string patch_before = to_json_string(patch);
  Result<json::value, PatchError> got =
      apply_strategic_merge_patch(original, patch, schema_for(schema));
  EXPECT_EQ(to_json_string(original), original_before) << "the original must not change";
  EXPECT_EQ(to_json_string(patch), patch_before) << "the patch must not change";
  if (!c.error.empty()) {
    ASSERT_FALSE(got.ok()) << to_json_string(*got);
    EXPECT_EQ(got.error().message, c.error);
    EXPECT_EQ(got.error().kind, c.kind);
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error().message;
  // Compare text: member and element order are part of what we promise.
  EXPECT_EQ(to_json_string(*got), c.result);
}

class ApplyItemTest : public testing::TestWithParam<ApplyCase> {};
TEST_P(ApplyItemTest, Applies) {
  check_apply(GetParam(), Schema::kItem);
}

// Maps, nulls and `$patch` on maps.
INSTANTIATE_TEST_SUITE_P(
    Maps, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"set_add_and_delete_scalars", R"({"name":"a","value":"1"})",
         R"({"value":null,"other":"x"})", R"({"name":"a","other":"x"})"},
        {"null_for_an_absent_member_is_ignored", R"({"name":"a"})", R"({"value":null})",
         R"({"name":"a"})"},
        {"members_keep_their_order", R"({"name":"a","value":"1","other":"2"})",
         R"({"value":null,"extra":"3","name":"b"})", R"({"name":"b","other":"2","extra":"3"})"},
        {"a_member_deleted_then_set_moves_to_the_end", R"({"name":"a","value":"v"})",
         R"({"$deleteFromPrimitiveList/name":null,"name":"x"})", R"({"value":"v","name":"x"})"},
        {"nested_maps_merge", R"({"simpleMap":{"k1":"a","k2":"b"}})",
         R"({"simpleMap":{"k2":null,"k3":"c"}})", R"({"simpleMap":{"k1":"a","k3":"c"}})"},
        {"new_values_lose_nulls_at_any_depth", R"({})",
         R"({"simpleMap":{"a":"1","b":null},"mergingList":[{"name":"x","value":null}]})",
         R"({"simpleMap":{"a":"1"},"mergingList":[{"name":"x"}]})"},
        {"a_type_change_takes_the_patch_value_without_nulls", R"({"simpleMap":"x"})",
         R"({"simpleMap":{"a":"1","b":null}})", R"({"simpleMap":{"a":"1"}})"},
        {"replace_directive_keeps_the_map_as_sent", R"({"simpleMap":{"k1":"a","k2":"b"}})",
         R"({"simpleMap":{"$patch":"replace","k3":"c","k4":null}})",
         R"({"simpleMap":{"k3":"c","k4":null}})"},
        {"delete_directive_leaves_an_empty_map", R"({"simpleMap":{"k1":"a"},"name":"n"})",
         R"({"simpleMap":{"$patch":"delete"}})", R"({"simpleMap":{},"name":"n"})"},
        {"replace_at_the_top", R"({"name":"1","value":"1"})", R"({"other":"a","$patch":"replace"})",
         R"({"other":"a"})"},
        {"delete_at_the_top", R"({"name":"1"})", R"({"$patch":"delete"})", R"({})"},
        {"a_directive_map_with_nothing_to_merge_into_is_dropped", R"({"name":"a"})",
         R"({"simpleMap":{"$patch":"replace","k":"v"}})", R"({"name":"a"})"},
        {"directive_maps_nested_in_new_values_are_dropped", R"({})",
         R"({"mergingList":[{"name":"a","mergingList":[{"$patch":"delete","name":"x"},{"name":"y"}]}]})",
         R"({"mergingList":[{"name":"a","mergingList":[{"name":"y"}]}]})"},
        {"a_directive_map_over_a_scalar_deletes_it", R"({"name":"a","value":"v"})",
         R"({"value":{"$patch":"delete"}})", R"({"name":"a"})"},
        {"replace_strategy_takes_the_map_as_sent", R"({"replacingItem":{"a":1,"b":2}})",
         R"({"replacingItem":{"c":3,"d":null}})", R"({"replacingItem":{"c":3,"d":null}})"},
        {"merge_directive_on_a_map_is_rejected", R"({"simpleMap":{"a":"b"}})",
         R"({"simpleMap":{"$patch":"merge","a":"c"}})", "",
         "unknown patch type: merge in map: map[$patch:merge a:c]"},
        {"directive_that_is_a_map", R"({"simpleMap":{}})", R"({"simpleMap":{"$patch":{"x":1}}})",
         "", "unknown patch type: map[x:%!s(int64=1)] in map: map[$patch:map[x:1]]"},
        {"directive_that_is_null", R"({"simpleMap":{}})", R"({"simpleMap":{"$patch":null}})", "",
         "unknown patch type: %!s(<nil>) in map: map[$patch:<nil>]"},
        {"directive_that_is_a_bool", R"({"simpleMap":{}})", R"({"simpleMap":{"$patch":true}})", "",
         "unknown patch type: %!s(bool=true) in map: map[$patch:true]"},
        {"directive_that_is_a_float", R"({"simpleMap":{}})", R"({"simpleMap":{"$patch":1.5}})", "",
         "unknown patch type: %!s(float64=1.5) in map: map[$patch:1.5]"},
        {"unknown_maps_merge_like_json_merge_patch", R"({"unknown":{"a":1,"b":{"c":2}}})",
         R"({"unknown":{"b":{"d":3},"a":null}})", R"({"unknown":{"b":{"c":2,"d":3}}})"},
    }),
    [](const auto& info) { return info.param.name; });

// Lists of maps merged by key, `$patch` on elements.
INSTANTIATE_TEST_SUITE_P(
    MergingLists, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"elements_merge_by_key",
         R"({"mergingList":[{"name":"a","value":"1"},{"name":"b","value":"2"}]})",
         R"({"mergingList":[{"name":"b","value":"3"},{"name":"c"}]})",
         R"({"mergingList":[{"name":"a","value":"1"},{"name":"b","value":"3"},{"name":"c"}]})"},
        // Without $setElementOrder a new element goes before the live ones.
        {"new_elements_go_first", R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
         R"({"mergingList":[{"name":"c"}]})",
         R"({"mergingList":[{"name":"c"},{"name":"a"},{"name":"b"}]})"},
        {"the_patch_order_wins",
         R"({"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]})",
         R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","other":"x"}]})",
         R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","value":"b","other":"x"}]})"},
        {"unmentioned_elements_keep_their_place",
         R"({"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]})",
         R"({"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"}]})",
         R"({"mergingList":[{"name":"2","value":"b"},{"name":"3","value":"c"},{"name":"1","value":"a"}]})"},
        {"delete_an_element", R"({"mergingList":[{"name":"a"},{"name":"b","value":"2"}]})",
         R"({"mergingList":[{"$patch":"delete","name":"a"}]})",
         R"({"mergingList":[{"name":"b","value":"2"}]})"},
        {"delete_removes_every_duplicate",
         R"({"mergingList":[{"name":"1"},{"name":"1"},{"name":"2","value":"a"},{"name":"3"},{"name":"3"}]})",
         R"({"mergingList":[{"name":"1","$patch":"delete"},{"name":"3","$patch":"delete"}]})",
         R"({"mergingList":[{"name":"2","value":"a"}]})"},
        {"delete_of_a_missing_element_changes_nothing", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"$patch":"delete","name":"zz"}]})",
         R"({"mergingList":[{"name":"a"}]})"},
        {"replace_directive_takes_the_rest_as_sent",
         R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
         R"({"mergingList":[{"$patch":"replace"},{"name":"c","value":null}]})",
         R"({"mergingList":[{"name":"c","value":null}]})"},
        {"replace_directive_alone_empties_the_list", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"$patch":"replace"}]})", R"({"mergingList":[]})"},
        {"merge_directive_on_an_element_is_rejected", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"$patch":"merge","name":"a"}]})", "",
         "merging lists cannot yet be specified in the patch"},
        {"unknown_element_directive", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"$patch":"foo","name":"a"}]})", "",
         "unknown patch type: foo in map: map[$patch:foo name:a]"},
        {"element_without_merge_key", R"({"mergingList":[{"name":"1","value":"a"}]})",
         R"({"mergingList":[{"value":"b"}]})", "",
         "map: map[value:b] does not contain declared merge key: name"},
        {"delete_without_merge_key", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"$patch":"delete"}]})", "",
         "map: map[$patch:delete] does not contain declared merge key: name"},
        {"live_element_without_merge_key", R"({"mergingList":[{"value":"x"}]})",
         R"({"mergingList":[{"name":"a"}]})", "",
         "map: map[value:x] does not contain declared merge key: name"},
        {"appended_elements_are_kept_as_sent", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"name":"b","value":null,"mergingList":[{"$patch":"delete","name":"z"}]}]})",
         R"({"mergingList":[{"name":"b","value":null,"mergingList":[{"$patch":"delete","name":"z"}]},{"name":"a"}]})"},
        {"nested_lists_merge_too",
         R"({"mergingList":[{"name":"a","mergingList":[{"name":"x","value":"1"}]}]})",
         R"({"mergingList":[{"name":"a","mergingList":[{"name":"x","value":"2"},{"name":"y"}]}]})",
         R"({"mergingList":[{"name":"a","mergingList":[{"name":"x","value":"2"},{"name":"y"}]}]})"},
        {"a_key_repeated_in_the_patch_merges_into_one", R"({"mergingList":[]})",
         R"({"mergingList":[{"name":"a","value":"1"},{"name":"a","other":"2"}]})",
         R"({"mergingList":[{"name":"a","value":"1","other":"2"}]})"},
        // Go compares the keys as interface values: 1 and 1.0 differ.
        {"keys_of_different_number_types_differ", R"({"mergingList":[{"name":1,"value":"a"}]})",
         R"({"mergingList":[{"name":1.0,"value":"b"}]})",
         R"({"mergingList":[{"name":1E0,"value":"b"},{"name":1,"value":"a"}]})"},
        {"map_keys_cannot_be_compared", R"({"mergingList":[{"name":{"x":1}}]})",
         R"({"mergingList":[{"name":{"x":1}}]})", "", std::string(kPanicMessage),
         PatchErrorKind::kPanic},
        {"atomic_lists_are_replaced_as_sent", R"({"nonMergingList":[{"name":"a"},{"name":"b"}]})",
         R"({"nonMergingList":[{"name":"c","value":null}]})",
         R"({"nonMergingList":[{"name":"c","value":null}]})"},
        {"unknown_lists_are_replaced", R"({"unknownList":[{"name":"a"}]})",
         R"({"unknownList":[{"name":"b"}]})", R"({"unknownList":[{"name":"b"}]})"},
    }),
    [](const auto& info) { return info.param.name; });

// Primitive lists: merge lists as sets, $deleteFromPrimitiveList on any list.
INSTANTIATE_TEST_SUITE_P(
    PrimitiveLists, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"union", R"({"mergingIntList":[1,2]})", R"({"mergingIntList":[2,3]})",
         R"({"mergingIntList":[1,2,3]})"},
        {"new_items_go_first", R"({"mergingIntList":[1,2]})", R"({"mergingIntList":[3]})",
         R"({"mergingIntList":[3,1,2]})"},
        {"patch_order_then_live_order", R"({"mergingIntList":[1,2,3]})",
         R"({"mergingIntList":[3,1]})", R"({"mergingIntList":[2,3,1]})"},
        {"duplicates_collapse", R"({"mergingIntList":[1,1]})", R"({"mergingIntList":[1]})",
         R"({"mergingIntList":[1]})"},
        {"atomic_list_replaced", R"({"nonMergingIntList":[1,2]})", R"({"nonMergingIntList":[3]})",
         R"({"nonMergingIntList":[3]})"},
        {"delete_from_a_merge_list", R"({"mergingIntList":[1,2,3]})",
         R"({"$deleteFromPrimitiveList/mergingIntList":[2]})", R"({"mergingIntList":[1,3]})"},
        {"delete_every_copy_from_an_atomic_list", R"({"nonMergingIntList":[1,2,3,2]})",
         R"({"$deleteFromPrimitiveList/nonMergingIntList":[2]})", R"({"nonMergingIntList":[1,3]})"},
        {"delete_of_a_missing_item", R"({"mergingIntList":[1,2]})",
         R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":[1,2]})"},
        {"delete_from_an_absent_list_adds_nothing", R"({"name":"a"})",
         R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"name":"a"})"},
        {"delete_from_a_null_list", R"({"mergingIntList":null})",
         R"({"$deleteFromPrimitiveList/mergingIntList":[3]})", R"({"mergingIntList":null})"},
        {"a_null_delete_list_deletes_the_field", R"({"mergingIntList":[1],"name":"a"})",
         R"({"$deleteFromPrimitiveList/mergingIntList":null})", R"({"name":"a"})"},
        {"add_then_delete", R"({"mergingIntList":[1,2,3]})",
         R"({"mergingIntList":[4],"$deleteFromPrimitiveList/mergingIntList":[3]})",
         R"({"mergingIntList":[4,1,2]})"},
        {"lists_of_lists", R"({"mergingIntList":[]})", R"({"mergingIntList":[["a"]]})", "",
         std::string(kErrNoListOfLists), PatchErrorKind::kUnprocessable},
        {"element_types_must_match", R"({"mergingIntList":[1]})", R"({"mergingIntList":["a"]})", "",
         "list element types are not identical: [[1] [a]]"},
        {"ints_and_floats_are_different_types", R"({"mergingIntList":[1]})",
         R"({"mergingIntList":[1.5]})", "", "list element types are not identical: [[1] [1.5]]"},
        {"a_null_first_element", R"({"mergingIntList":[]})", R"({"mergingIntList":[null]})", "",
         std::string(kPanicMessage), PatchErrorKind::kPanic},
        {"maps_in_a_primitive_merge_list", R"({"mergingIntList":[]})",
         R"({"mergingIntList":[{"a":1}]})", "", "cannot merge lists without merge key for int"},
        {"delete_list_of_maps_on_an_atomic_list", R"({"nonMergingList":[{"name":"a"}]})",
         R"({"$deleteFromPrimitiveList/nonMergingList":[{"name":"a"}]})", "",
         "cannot merge lists without merge key for struct"},
        // Upstream routes any delete list through mergeSlice: on a list of
        // maps with a merge key, that merges (here: adds) instead of deleting.
        {"delete_list_of_maps_on_a_merge_list", R"({"mergingList":[{"name":"a"}]})",
         R"({"$deleteFromPrimitiveList/mergingList":[{"name":"b"}]})",
         R"({"mergingList":[{"name":"b"},{"name":"a"}]})"},
        {"bad_delete_list_prefix", R"({})", R"({"$deleteFromPrimitiveList":[1]})", "",
         std::string(kErrBadPatchFormatForPrimitiveList), PatchErrorKind::kBadRequest},
    }),
    [](const auto& info) { return info.param.name; });

// $setElementOrder: the directive's order, then the patch's, then the live list's.
INSTANTIATE_TEST_SUITE_P(
    SetElementOrder, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"reorder_primitives", R"({"mergingIntList":[1,3,4,2]})",
         R"({"$setElementOrder/mergingIntList":[4,2,3,1]})", R"({"mergingIntList":[4,2,3,1]})"},
        {"live_only_primitives_stay_after_their_live_predecessor",
         R"({"mergingIntList":[1,2,9,3,4]})", R"({"$setElementOrder/mergingIntList":[2,1,4,3]})",
         R"({"mergingIntList":[2,1,9,4,3]})"},
        {"a_run_of_live_only_primitives", R"({"mergingIntList":[1,2,7,9,8,3,4]})",
         R"({"$setElementOrder/mergingIntList":[2,1,4,3]})",
         R"({"mergingIntList":[2,1,7,9,8,4,3]})"},
        {"add_order_and_delete_primitives", R"({"mergingIntList":[1,2,3]})",
         R"({"$setElementOrder/mergingIntList":[1,2,4],"mergingIntList":[4],"$deleteFromPrimitiveList/mergingIntList":[3]})",
         R"({"mergingIntList":[1,2,4]})"},
        {"duplicates_keep_their_relative_order", R"({"mergingIntList":[1,2,3,2,4]})",
         R"({"$setElementOrder/mergingIntList":[2,1,4,3,2]})", R"({"mergingIntList":[2,2,1,4,3]})"},
        {"maps_with_additions", R"({"mergingList":[{"name":"a","other":"x"},{"name":"b"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"d"},{"name":"a"},{"name":"b"},{"name":"c"}],"mergingList":[{"name":"d"},{"name":"c"}]})",
         R"({"mergingList":[{"name":"d"},{"name":"a","other":"x"},{"name":"b"},{"name":"c"}]})"},
        {"order_items_absent_from_the_list_are_ignored",
         R"({"mergingList":[{"name":"1"},{"name":"3"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"3"},{"name":"2"},{"name":"1"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})",
         R"({"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})"},
        // Upstream deletes and appends in the live list's own array, so the
        // live order it then sorts by has the deleted item shifted out and
        // the new one written over the tail: b, c, d here.
        {"delete_add_and_a_live_only_item",
         R"({"mergingList":[{"name":"a"},{"name":"b","other":"x"},{"name":"c","other":"y"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"b"},{"name":"d"}],"mergingList":[{"name":"d"},{"$patch":"delete","name":"a"}]})",
         R"({"mergingList":[{"name":"b","other":"x"},{"name":"c","other":"y"},{"name":"d"}]})"},
        {"delete_add_and_a_live_only_item_before_them",
         R"({"mergingList":[{"name":"a"},{"name":"b"},{"name":"c"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"x"},{"name":"c"}],"mergingList":[{"name":"x"},{"$patch":"delete","name":"a"}]})",
         R"({"mergingList":[{"name":"b"},{"name":"x"},{"name":"c"}]})"},
        {"order_without_any_list", R"({"name":"a"})",
         R"({"$setElementOrder/mergingList":[{"name":"a"}]})", R"({"name":"a"})"},
        {"order_on_an_unknown_list", R"({"unknownList":["a","b"]})",
         R"({"$setElementOrder/unknownList":["b","a"]})", R"({"unknownList":["b","a"]})"},
        {"patch_order_must_follow_the_directive",
         R"({"mergingList":[{"name":"1"},{"name":"3"},{"name":"2"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"1"},{"name":"2"},{"name":"3"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]})",
         "",
         "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match "
         "$setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n"},
        {"primitive_patch_order_must_follow_the_directive", R"({"mergingIntList":[1,3,2]})",
         R"({"$setElementOrder/mergingIntList":[1,2,3],"mergingIntList":[3,1]})", "",
         "The order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]\n"},
        {"directive_not_a_list", R"({"mergingList":[]})", R"({"$setElementOrder/mergingList":"x"})",
         "", "expected a []interface {}, but received a string"},
        {"list_not_a_list", R"({"mergingList":{}})",
         R"({"$setElementOrder/mergingList":[{"name":"a"}]})", "",
         "expected a []interface {}, but received a map[string]interface {}"},
        {"order_item_without_merge_key", R"({"mergingList":[{"name":"a"}]})",
         R"({"$setElementOrder/mergingList":[{"value":"x"}]})", "",
         "map: map[value:x] does not contain declared merge key: name"},
        {"no_elements_anywhere", R"({"mergingList":[]})", R"({"$setElementOrder/mergingList":[]})",
         "", "no elements in any of the given slices"},
        {"bad_prefix", R"({})", R"({"$setElementOrderX/mergingList":[]})", "",
         std::string(kErrBadPatchFormatForSetElementOrderList), PatchErrorKind::kBadRequest},
    }),
    [](const auto& info) { return info.param.name; });

// $retainKeys.
INSTANTIATE_TEST_SUITE_P(
    RetainKeys, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"clears_unlisted_members", R"({"retainKeysMap":{"name":"foo","value":"bar","other":"a"}})",
         R"({"retainKeysMap":{"$retainKeys":["name","value"],"value":"baz"}})",
         R"({"retainKeysMap":{"name":"foo","value":"baz"}})"},
        {"nulls_and_parallel_lists_need_not_be_listed",
         R"({"retainKeysMap":{"name":"foo","value":"bar","mergingIntList":[1,2]}})",
         R"({"retainKeysMap":{"$retainKeys":["name","mergingIntList"],"value":null,"$deleteFromPrimitiveList/mergingIntList":[1]}})",
         R"({"retainKeysMap":{"name":"foo","mergingIntList":[2]}})"},
        {"on_list_elements",
         R"({"retainKeysMergingList":[{"name":"a","value":"1","other":"x"},{"name":"b","other":"y"}]})",
         R"({"retainKeysMergingList":[{"$retainKeys":["name","value"],"name":"a","value":"2"}]})",
         R"({"retainKeysMergingList":[{"name":"a","value":"2"},{"name":"b","other":"y"}]})"},
        {"a_new_value_keeps_the_directive_as_sent", R"({})",
         R"({"retainKeysMap":{"$retainKeys":["name"],"name":"a"}})",
         R"({"retainKeysMap":{"$retainKeys":["name"],"name":"a"}})"},
        {"patch_member_not_listed", R"({"retainKeysMap":{"name":"foo"}})",
         R"({"retainKeysMap":{"$retainKeys":["name"],"value":"x"}})", "",
         std::string(kErrBadPatchFormatForRetainKeys), PatchErrorKind::kBadRequest},
        {"not_a_list", R"({"retainKeysMap":{"name":"foo"}})",
         R"({"retainKeysMap":{"$retainKeys":"name"}})", "",
         std::string(kErrBadPatchFormatForRetainKeys), PatchErrorKind::kBadRequest},
        {"unhashable_entry", R"({"retainKeysMap":{}})",
         R"({"retainKeysMap":{"$retainKeys":[["name"]]}})", "", std::string(kPanicMessage),
         PatchErrorKind::kPanic},
    }),
    [](const auto& info) { return info.param.name; });

// Go's %v in messages: numbers, nested values, nil.
INSTANTIATE_TEST_SUITE_P(
    Messages, ApplyItemTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"float", R"({"mergingList":[]})", R"({"mergingList":[{"value":1.5}]})", "",
         "map: map[value:1.5] does not contain declared merge key: name"},
        {"large_float", R"({"mergingList":[]})", R"({"mergingList":[{"value":1e21}]})", "",
         "map: map[value:1e+21] does not contain declared merge key: name"},
        {"float_of_a_million", R"({"mergingList":[]})", R"({"mergingList":[{"value":1000000.0}]})",
         "", "map: map[value:1e+06] does not contain declared merge key: name"},
        {"float_below_a_million", R"({"mergingList":[]})",
         R"({"mergingList":[{"value":123456.0}]})", "",
         "map: map[value:123456] does not contain declared merge key: name"},
        {"small_float", R"({"mergingList":[]})", R"({"mergingList":[{"value":0.00001}]})", "",
         "map: map[value:1e-05] does not contain declared merge key: name"},
        {"float_with_a_fraction", R"({"mergingList":[]})", R"({"mergingList":[{"value":0.0001}]})",
         "", "map: map[value:0.0001] does not contain declared merge key: name"},
        {"integer_past_int64", R"({"mergingList":[]})",
         R"({"mergingList":[{"value":18446744073709551615}]})", "",
         "map: map[value:1.8446744073709552e+19] does not contain declared merge key: name"},
        {"negative_integer", R"({"mergingList":[]})", R"({"mergingList":[{"value":-7}]})", "",
         "map: map[value:-7] does not contain declared merge key: name"},
        {"nested_values_sorted_by_key", R"({"mergingList":[]})",
         R"({"mergingList":[{"value":{"b":[1,"x",null,true],"a":{}},"a":null}]})", "",
         "map: map[a:<nil> value:map[a:map[] b:[1 x <nil> true]]] does not contain declared "
         "merge key: name"},
    }),
    [](const auto& info) { return info.param.name; });

// What kubectl sends (shared/spec/kubectl-contract.md sections 3.4, 3.7, 3.14).
constexpr std::string_view kKubectlDeployment =
    R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",)"
    R"("annotations":{"deployment.kubernetes.io/revision":"1"}},"spec":{"replicas":3,)"
    R"("selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate",)"
    R"("rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},"template":{"metadata":)"
    R"({"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25",)"
    R"("ports":[{"containerPort":80,"protocol":"TCP"}]}]}}}})";

// kKubectlDeployment with its spec.template.spec.containers replaced by `containers`
// (and optionally its spec.paused set).
std::string deployment_with(
    std::string_view containers, std::string_view spec_extra = "",
    std::string_view template_metadata = R"({"labels":{"app":"web"}})",
    std::string_view annotations = R"({"deployment.kubernetes.io/revision":"1"})") {
  return std::string(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",)") +
         R"("namespace":"default","annotations":)" + std::string(annotations) +
         R"(},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"strategy":)" +
         R"({"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},)" +
         R"("template":{"metadata":)" + std::string(template_metadata) +
         R"(,"spec":{"containers":)" + std::string(containers) + "}}" + std::string(spec_extra) +
         "}}";
}

constexpr std::string_view kNginx =
    R"({"name":"nginx","image":"nginx:1.25","ports":[{"containerPort":80,"protocol":"TCP"}]})";

class ApplyDeploymentTest : public testing::TestWithParam<ApplyCase> {};
TEST_P(ApplyDeploymentTest, Applies) {
  check_apply(GetParam(), Schema::kKubectlDeployment);
}

TEST(DeploymentFixture, MatchesItsBuilder) {
  EXPECT_EQ(deployment_with("[" + std::string(kNginx) + "]"), kKubectlDeployment);
}

INSTANTIATE_TEST_SUITE_P(
    Kubectl, ApplyDeploymentTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        {"apply_image_and_replicas", std::string(kKubectlDeployment),
         R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}\n"}},)"
         R"("spec":{"replicas":4,"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],)"
         R"("containers":[{"image":"nginx:1.26","name":"nginx"}]}}}})",
         [] {
           std::string s = deployment_with(
               R"([{"name":"nginx","image":"nginx:1.26","ports":[{"containerPort":80,"protocol":"TCP"}]}])",
               "", R"({"labels":{"app":"web"}})",
               R"({"deployment.kubernetes.io/revision":"1","kubectl.kubernetes.io/last-applied-configuration":"{}\n"})");
           return s.replace(s.find(R"("replicas":3)"), 12, R"("replicas":4)");
         }()},
        {"apply_drops_ports_adds_env_and_a_sidecar", std::string(kKubectlDeployment),
         R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"},{"name":"sidecar"}],)"
         R"("containers":[{"env":[{"name":"A","value":"1"}],"name":"nginx","ports":null},)"
         R"({"image":"busybox:1.36","name":"sidecar"}]}}}})",
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.25","env":[{"name":"A","value":"1"}]},)"
             R"({"image":"busybox:1.36","name":"sidecar"}])")},
        {"apply_removes_the_sidecar_and_env",
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.25","env":[{"name":"A","value":"1"}]},)"
             R"({"image":"busybox:1.36","name":"sidecar"}])"),
         R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],)"
         R"("containers":[{"env":null,"name":"nginx"},{"$patch":"delete","name":"sidecar"}]}}}})",
         deployment_with(R"([{"name":"nginx","image":"nginx:1.25"}])")},
        {"rollout_pause", std::string(kKubectlDeployment), R"({"spec":{"paused":true}})",
         deployment_with("[" + std::string(kNginx) + "]", R"(,"paused":true)")},
        {"rollout_resume", deployment_with("[" + std::string(kNginx) + "]", R"(,"paused":true)"),
         R"({"spec":{"paused":null}})", std::string(kKubectlDeployment)},
        {"rollout_restart", std::string(kKubectlDeployment),
         R"({"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:38:54Z"}}}}})",
         deployment_with(
             "[" + std::string(kNginx) + "]", "",
             R"({"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:38:54Z"}})")},
        {"rollout_restart_again",
         deployment_with(
             "[" + std::string(kNginx) + "]", "",
             R"({"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:38:54Z"}})"),
         R"({"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-01T10:00:00Z"}}}}})",
         deployment_with(
             "[" + std::string(kNginx) + "]", "",
             R"({"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-01T10:00:00Z"}})")},
        {"set_image", std::string(kKubectlDeployment),
         R"({"spec":{"template":{"spec":{"containers":[{"image":"nginx:1.27","name":"nginx"}]}}}})",
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}]}])")},
        // kubectl patch without $setElementOrder: a new env var goes first.
        {"patch_adds_an_env_var",
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.25","env":[{"name":"A","value":"1"}]}])"),
         R"({"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"B","value":"2"}]}]}}}})",
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.25","env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]}])")},
        {"patch_adds_a_container", std::string(kKubectlDeployment),
         R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox"}]}}}})",
         deployment_with(R"([{"name":"sidecar","image":"busybox"},)" + std::string(kNginx) + "]")},
        {"strategy_retains_listed_keys", std::string(kKubectlDeployment),
         R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":null}}})",
         [] {
           std::string s = std::string(kKubectlDeployment);
           const std::string from =
               R"("strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}})";
           return s.replace(s.find(from), from.size(), R"("strategy":{"type":"Recreate"})");
         }()},
        {"conditions_merge_by_type",
         R"({"status":{"conditions":[{"type":"Available","status":"True"},{"type":"Progressing","status":"True"}]}})",
         R"({"status":{"conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"}]}})",
         R"({"status":{"conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"},{"type":"Progressing","status":"True"}]}})"},
        {"container_without_name", std::string(kKubectlDeployment),
         R"({"spec":{"template":{"spec":{"containers":[{"image":"nginx:1.27"}]}}}})", "",
         "map: map[image:nginx:1.27] does not contain declared merge key: name"},
    }),
    [](const auto& info) { return info.param.name; });

class ApplyPodTest : public testing::TestWithParam<ApplyCase> {};
TEST_P(ApplyPodTest, Applies) {
  check_apply(GetParam(), Schema::kPod);
}

INSTANTIATE_TEST_SUITE_P(
    PodFields, ApplyPodTest,
    testing::ValuesIn(std::vector<ApplyCase>{
        // Upstream's quirk: ports merge by containerPort alone, so a UDP
        // entry lands on the first port 53, whatever its protocol.
        {"ports_merge_by_container_port_only",
         R"({"spec":{"containers":[{"name":"dns","ports":[{"containerPort":53,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]}]}})",
         R"({"spec":{"containers":[{"name":"dns","ports":[{"containerPort":53,"protocol":"UDP","name":"dns-udp"}]}]}})",
         R"({"spec":{"containers":[{"name":"dns","ports":[{"containerPort":53,"protocol":"UDP","name":"dns-udp"},{"containerPort":53,"protocol":"UDP"}]}]}})"},
        {"volume_source_switch_with_retain_keys",
         R"({"spec":{"volumes":[{"name":"data","emptyDir":{}},{"name":"tmp","emptyDir":{}}]}})",
         R"({"spec":{"volumes":[{"$retainKeys":["configMap","name"],"configMap":{"name":"cm"},"name":"data"}]}})",
         R"({"spec":{"volumes":[{"name":"data","configMap":{"name":"cm"}},{"name":"tmp","emptyDir":{}}]}})"},
        {"volume_mounts_merge_by_mount_path",
         R"({"spec":{"containers":[{"name":"c","volumeMounts":[{"name":"a","mountPath":"/a"},{"name":"b","mountPath":"/b"}]}]}})",
         R"({"spec":{"containers":[{"name":"c","volumeMounts":[{"name":"b2","mountPath":"/b","readOnly":true}]}]}})",
         R"({"spec":{"containers":[{"name":"c","volumeMounts":[{"name":"a","mountPath":"/a"},{"name":"b2","mountPath":"/b","readOnly":true}]}]}})"},
        {"finalizers_add_and_delete", R"({"metadata":{"finalizers":["a","b"]}})",
         R"({"metadata":{"finalizers":["c"],"$deleteFromPrimitiveList/finalizers":["a"]}})",
         R"({"metadata":{"finalizers":["c","b"]}})"},
        {"owner_references_merge_by_uid",
         R"({"metadata":{"ownerReferences":[{"uid":"1","name":"rs-a"},{"uid":"2","name":"rs-b"}]}})",
         R"({"metadata":{"ownerReferences":[{"uid":"2","controller":true}]}})",
         R"({"metadata":{"ownerReferences":[{"uid":"1","name":"rs-a"},{"uid":"2","name":"rs-b","controller":true}]}})"},
        {"tolerations_are_atomic", R"({"spec":{"tolerations":[{"key":"a","operator":"Exists"}]}})",
         R"({"spec":{"tolerations":[{"key":"b","operator":"Exists"}]}})",
         R"({"spec":{"tolerations":[{"key":"b","operator":"Exists"}]}})"},
        {"image_pull_secrets_and_init_containers_merge_by_name",
         R"({"spec":{"imagePullSecrets":[{"name":"a"}],"initContainers":[{"name":"init","image":"x"}]}})",
         R"({"spec":{"imagePullSecrets":[{"name":"b"}],"initContainers":[{"name":"init","image":"y"}]}})",
         R"({"spec":{"imagePullSecrets":[{"name":"b"},{"name":"a"}],"initContainers":[{"name":"init","image":"y"}]}})"},
        {"unknown_spec_fields", R"({"spec":{"futureList":[{"b":2}],"futureMap":{"x":{"z":2}}}})",
         R"({"spec":{"futureList":[{"a":1}],"futureMap":{"x":{"y":1}}}})",
         R"({"spec":{"futureList":[{"a":1}],"futureMap":{"x":{"z":2,"y":1}}}})"},
        {"pod_conditions_merge_by_type",
         R"({"status":{"conditions":[{"type":"Ready","status":"False"}]}})",
         R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
         R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(ApplyStrategicMergePatch, RejectsPatchesThatAreNotObjects) {
  struct Case {
    std::string patch;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"[]", "json: cannot unmarshal array into Go value of type map[string]interface {}"},
           {R"("x")",
            "json: cannot unmarshal string into Go value of type map[string]interface {}"},
           {"1", "json: cannot unmarshal number into Go value of type map[string]interface {}"},
           {"true", "json: cannot unmarshal bool into Go value of type map[string]interface {}"},
       }) {
    Result<json::value, PatchError> got =
        apply_strategic_merge_patch(parse(R"({"a":1})"), parse(c.patch), pod_patch_schema());
    ASSERT_FALSE(got.ok()) << c.patch;
    EXPECT_EQ(got.error().kind, PatchErrorKind::kBadRequest) << c.patch;
    EXPECT_EQ(got.error().message, c.message);
  }
}

TEST(ApplyStrategicMergePatch, NullPatchChangesNothing) {
  Result<json::value, PatchError> got =
      apply_strategic_merge_patch(parse(R"({"a":1})"), json::value(), pod_patch_schema());
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(to_json_string(*got), R"({"a":1})");
}

TEST(ApplyStrategicMergePatch, OriginalMustBeAnObject) {
  Result<json::value, PatchError> got =
      apply_strategic_merge_patch(parse("[1]"), parse("{}"), pod_patch_schema());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, PatchErrorKind::kBadRequest);
  EXPECT_EQ(got.error().message, kErrBadJsonDoc);

  got = apply_strategic_merge_patch(json::value(), parse(R"({"a":1})"), pod_patch_schema());
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(to_json_string(*got), R"({"a":1})");
}

TEST(ApplyStrategicMergePatch, RejectsNestingDeeperThanTheParser) {
  // Built in memory: parse_json would refuse it.
  json::value deep = json::object();
  for (int i = 0; i < 600; ++i) {
    json::object o;
    o["unknown"] = std::move(deep);
    deep = std::move(o);
  }
  Result<json::value, PatchError> got =
      apply_strategic_merge_patch(json::object(), deep, merge_item_patch_schema());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, PatchErrorKind::kBadRequest);
  EXPECT_EQ(got.error().message, kErrBadJsonDoc);
  got = apply_strategic_merge_patch(deep, json::object(), merge_item_patch_schema());
  ASSERT_FALSE(got.ok());
  Result<json::value, PatchError> diff =
      create_two_way_merge_patch(deep, json::object(), merge_item_patch_schema());
  ASSERT_FALSE(diff.ok());
  EXPECT_EQ(diff.error().message, kErrBadJsonDoc);
}

TEST(ApplyStrategicMergePatch, DeepButAcceptedNesting) {
  // 500 levels of merging lists of maps recurse through both merge paths.
  std::string original;
  std::string patch;
  for (int i = 0; i < 250; ++i) {
    original += R"({"name":"n","mergingList":[)";
    patch += R"({"name":"n","mergingList":[)";
  }
  original += R"({"name":"leaf","value":"1"})";
  patch += R"({"name":"leaf","value":"2"})";
  for (int i = 0; i < 250; ++i) {
    original += "]}";
    patch += "]}";
  }
  Result<json::value, PatchError> got =
      apply_strategic_merge_patch(parse(original), parse(patch), merge_item_patch_schema());
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(to_json_string(*got), to_json_string(parse(patch)));

  Result<json::value, PatchError> diff =
      create_two_way_merge_patch(parse(original), parse(patch), merge_item_patch_schema());
  ASSERT_TRUE(diff.ok()) << diff.error().message;
  Result<json::value, PatchError> back =
      apply_strategic_merge_patch(parse(original), *diff, merge_item_patch_schema());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(to_json_string(*back), to_json_string(parse(patch)));
}

TEST(ToStatus, MapsEachKindAsTheApiServerDoes) {
  const Status bad = to_status({PatchErrorKind::kBadRequest, "invalid patch format of retainKeys"});
  EXPECT_EQ(bad.code, 400);
  EXPECT_EQ(bad.reason, reason::kBadRequest);
  EXPECT_EQ(bad.message, "invalid patch format of retainKeys");

  const Status unprocessable =
      to_status({PatchErrorKind::kUnprocessable, std::string(kErrNoListOfLists)});
  EXPECT_EQ(unprocessable.code, 422);
  EXPECT_EQ(unprocessable.reason, reason::kInvalid);
  EXPECT_EQ(unprocessable.message,
            "the server rejected our request due to an error in our request");

  const Status internal = to_status(
      {PatchErrorKind::kInternal, "map: map[image:x] does not contain declared merge key: name"});
  EXPECT_EQ(internal.code, 500);
  EXPECT_EQ(internal.reason, "");
  EXPECT_EQ(internal.message, "map: map[image:x] does not contain declared merge key: name");
  EXPECT_FALSE(internal.details.has_value());
  EXPECT_EQ(
      to_json_string(internal.to_json()),
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
      R"("message":"map: map[image:x] does not contain declared merge key: name","code":500})");

  const Status panic = to_status({PatchErrorKind::kPanic, std::string(kPanicMessage)});
  EXPECT_EQ(panic.code, 500);
  EXPECT_EQ(panic.reason, reason::kInternalError);
  EXPECT_EQ(panic.message, kPanicMessage);
}

// The two-way diff, and that applying it gives back `modified`.
struct DiffCase {
  std::string name;
  std::string original;
  std::string modified;
  std::string patch;  // compact JSON, members sorted; empty when `error` is set
  std::string error = {};
  PatchErrorKind kind = PatchErrorKind::kInternal;
  Schema schema = Schema::kItem;
  // Whether applying the patch must give `modified` back: not when it keeps a
  // null member or a directive of its own.
  bool round_trip = true;
};

void PrintTo(const DiffCase& c, std::ostream* os) {
  *os << c.name;
}

class TwoWayTest : public testing::TestWithParam<DiffCase> {};

TEST_P(TwoWayTest, DiffsAndRoundTrips) {
  const DiffCase& c = GetParam();
  const json::value original = parse(c.original);
  const json::value modified = parse(c.modified);
  const PatchSchema& schema = schema_for(c.schema);
  Result<json::value, PatchError> patch = create_two_way_merge_patch(original, modified, schema);
  if (!c.error.empty()) {
    ASSERT_FALSE(patch.ok()) << to_json_string(*patch);
    EXPECT_EQ(patch.error().message, c.error);
    EXPECT_EQ(patch.error().kind, c.kind);
    return;
  }
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  EXPECT_EQ(to_json_string(*patch), c.patch);
  if (!c.round_trip) return;
  Result<json::value, PatchError> applied = apply_strategic_merge_patch(original, *patch, schema);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(to_json_string(canonical(*applied)), to_json_string(canonical(modified)));
}

INSTANTIATE_TEST_SUITE_P(
    Diffs, TwoWayTest,
    testing::ValuesIn(std::vector<DiffCase>{
        {"scalars", R"({"name":"a","value":"1","other":"x"})", R"({"name":"a","value":"2"})",
         R"({"other":null,"value":"2"})"},
        {"identical", R"({"name":"a","mergingList":[{"name":"x"}]})",
         R"({"name":"a","mergingList":[{"name":"x"}]})", "{}"},
        {"nested_map", R"({"simpleMap":{"a":"1","b":"2"}})", R"({"simpleMap":{"a":"1","c":"3"}})",
         R"({"simpleMap":{"b":null,"c":"3"}})"},
        {"new_list", R"({})", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"name":"a"}]})"},
        {"list_that_was_empty", R"({"mergingList":[]})", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"name":"a"}]})"},
        {"change_and_reorder", R"({"mergingList":[{"name":"a","value":"1"},{"name":"b"}]})",
         R"({"mergingList":[{"name":"b"},{"name":"a","value":"2"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"b"},{"name":"a"}],"mergingList":[{"name":"a","value":"2"}]})"},
        {"reorder_only", R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
         R"({"mergingList":[{"name":"b"},{"name":"a"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"b"},{"name":"a"}]})"},
        {"delete_an_element", R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
         R"({"mergingList":[{"name":"b"}]})",
         R"({"$setElementOrder/mergingList":[{"name":"b"}],"mergingList":[{"$patch":"delete","name":"a"}]})"},
        {"delete_every_element", R"({"mergingList":[{"name":"a"}]})", R"({"mergingList":[]})",
         R"({"mergingList":[{"$patch":"delete","name":"a"}]})"},
        {"add_and_delete_primitives", R"({"mergingIntList":[1,2,3]})",
         R"({"mergingIntList":[3,4]})",
         R"({"$deleteFromPrimitiveList/mergingIntList":[1,2],"$setElementOrder/mergingIntList":[3,4],"mergingIntList":[4]})"},
        // Upstream's deduplication swaps from the end: the order shows.
        {"deletion_list_order", R"({"mergingIntList":["a","a","b","c","d"]})",
         R"({"mergingIntList":["d"]})",
         R"({"$deleteFromPrimitiveList/mergingIntList":["a","c","b"],"$setElementOrder/mergingIntList":["d"]})"},
        // Upstream sorts the original list in place before comparing it with
        // the modified one, so an unsorted unchanged list still sends its order.
        {"unchanged_unsorted_primitives", R"({"mergingIntList":[2,1]})",
         R"({"mergingIntList":[2,1]})", R"({"$setElementOrder/mergingIntList":[2,1]})"},
        {"unchanged_sorted_primitives", R"({"mergingIntList":[1,2]})",
         R"({"mergingIntList":[1,2]})", "{}"},
        {"atomic_list", R"({"nonMergingList":[{"name":"a"}]})",
         R"({"nonMergingList":[{"name":"b"}]})", R"({"nonMergingList":[{"name":"b"}]})"},
        // The replace strategy always sends the value.
        {"replace_strategy", R"({"replacingItem":{"a":1}})", R"({"replacingItem":{"a":1}})",
         R"({"replacingItem":{"a":1}})"},
        {"retain_keys_add", R"({"retainKeysMap":{"name":"foo"}})",
         R"({"retainKeysMap":{"name":"foo","value":"bar"}})",
         R"({"retainKeysMap":{"$retainKeys":["name","value"],"value":"bar"}})"},
        {"retain_keys_delete", R"({"retainKeysMap":{"name":"foo","value":"bar"}})",
         R"({"retainKeysMap":{"name":"foo"}})",
         R"({"retainKeysMap":{"$retainKeys":["name"],"value":null}})"},
        {"retain_keys_unchanged", R"({"retainKeysMap":{"name":"foo"}})",
         R"({"retainKeysMap":{"name":"foo"}})", "{}"},
        {"retain_keys_list_element",
         R"({"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"a"}]})",
         R"({"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"b"}]})",
         R"({"$setElementOrder/retainKeysMergingList":[{"name":"bar"},{"name":"foo"}],"retainKeysMergingList":[{"$retainKeys":["name","value"],"name":"foo","value":"b"}]})"},
        {"type_change", R"({"simpleMap":{"a":"b"}})", R"({"simpleMap":"x"})",
         R"({"simpleMap":"x"})"},
        {"int_to_float", R"({"name":1})", R"({"name":1.0})", R"({"name":1E0})"},
        {"null_documents", "null", R"({"a":1})", R"({"a":1})"},
        {"directive_values", R"({"$patch":"a"})", R"({"$patch":"b"})", R"({"$patch":"b"})", "",
         PatchErrorKind::kInternal, Schema::kItem, false},
        {"added_null", R"({})", R"({"a":null})", R"({"a":null})", "", PatchErrorKind::kInternal,
         Schema::kItem, false},
        {"directive_not_a_string", R"({"$patch":1})", R"({"$patch":"b"})", "",
         "invalid value for special key: $patch"},
        {"modified_element_without_key", R"({"mergingList":[{"name":"a"}]})",
         R"({"mergingList":[{"value":"x"}]})", "",
         "map: map[value:x] does not contain declared merge key: name"},
        {"lists_of_lists", R"({"mergingIntList":[[1]]})", R"({"mergingIntList":[[2]]})", "",
         std::string(kErrNoListOfLists), PatchErrorKind::kUnprocessable},
        {"mixed_element_types", R"({"mergingIntList":[1]})", R"({"mergingIntList":["a"]})", "",
         "list element types are not identical: [[1] [a]]"},
        {"not_an_object", "[]", "{}", "", std::string(kErrBadJsonDoc), PatchErrorKind::kBadRequest},
        // What kubectl apply sends for an image change (contract section 3.4).
        {"deployment_image", std::string(kKubectlDeployment),
         deployment_with(
             R"([{"name":"nginx","image":"nginx:1.26","ports":[{"containerPort":80,"protocol":"TCP"}]}])"),
         R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"nginx:1.26","name":"nginx"}]}}}})",
         "", PatchErrorKind::kInternal, Schema::kKubectlDeployment},
        // Merge keys sort by their text: "80" < "8080" < "9090".
        {"container_ports",
         R"({"spec":{"containers":[{"name":"c","ports":[{"containerPort":8080},{"containerPort":80}]}]}})",
         R"({"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":9090}]}]}})",
         R"({"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80},{"containerPort":9090}],"name":"c","ports":[{"containerPort":9090},{"$patch":"delete","containerPort":8080}]}]}})",
         "", PatchErrorKind::kInternal, Schema::kPod},
        {"volume_switch_sends_retain_keys",
         R"({"spec":{"volumes":[{"name":"data","emptyDir":{}}]}})",
         R"({"spec":{"volumes":[{"name":"data","configMap":{"name":"cm"}}]}})",
         R"({"spec":{"$setElementOrder/volumes":[{"name":"data"}],"volumes":[{"$retainKeys":["configMap","name"],"configMap":{"name":"cm"},"emptyDir":null,"name":"data"}]}})",
         "", PatchErrorKind::kInternal, Schema::kPod},
    }),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace kcm::api
