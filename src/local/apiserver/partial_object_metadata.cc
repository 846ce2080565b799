#include "local/apiserver/partial_object_metadata.h"

#include <fmt/format.h>

#include <array>

#include "local/apiserver/stored_codec.h"

namespace kcm::local::apiserver {
namespace {

// Go's ObjectMeta fields, in declaration order.
constexpr std::array<std::string_view, 15> kObjectMetaFields = {"name",
                                                                "generateName",
                                                                "namespace",
                                                                "selfLink",
                                                                "uid",
                                                                "resourceVersion",
                                                                "generation",
                                                                "creationTimestamp",
                                                                "deletionTimestamp",
                                                                "deletionGracePeriodSeconds",
                                                                "labels",
                                                                "annotations",
                                                                "ownerReferences",
                                                                "finalizers",
                                                                "managedFields"};

// What `omitempty` leaves out: null, "", 0, empty maps and slices. The
// pointer fields (deletionTimestamp, deletionGracePeriodSeconds) only when null.
bool omitted(std::string_view field, const json::value& v) {
  if (v.is_null()) return true;
  if (field == "deletionTimestamp" || field == "deletionGracePeriodSeconds") return false;
  if (const auto* s = v.if_string()) return s->empty();
  if (const auto* o = v.if_object()) return o->empty();
  if (const auto* a = v.if_array()) return a->empty();
  if (v.is_int64()) return v.get_int64() == 0;
  if (v.is_uint64()) return v.get_uint64() == 0;
  return false;
}

json::object object_meta(const json::object& object) {
  json::object out;
  const json::object* meta = api::find_object(object, "metadata");
  for (const std::string_view field : kObjectMetaFields) {
    const json::value* v = meta != nullptr ? meta->if_contains(field) : nullptr;
    if (field == "creationTimestamp") {
      // A zero metav1.Time encodes as null but is never left out.
      out[field] = v != nullptr ? *v : json::value(nullptr);
    } else if (v != nullptr && !omitted(field, *v)) {
      out[field] = *v;
    }
  }
  return out;
}

// The internal API package of a built-in group: its first DNS label, but
// events.k8s.io Events are core Events underneath.
std::string_view internal_package(std::string_view group) {
  if (group.empty() || group == "events.k8s.io") return "core";
  return group.substr(0, group.find('.'));
}

}  // namespace

json::object as_partial_object_metadata(const json::object& object,
                                        std::string_view meta_api_version) {
  json::object out;
  out["kind"] = "PartialObjectMetadata";
  out["apiVersion"] = meta_api_version;
  out["metadata"] = object_meta(object);
  return out;
}

std::string encode_partial_object_metadata_list(std::string_view meta_api_version,
                                                std::uint64_t revision,
                                                std::string_view continue_token,
                                                std::optional<std::int64_t> remaining,
                                                const std::vector<storage::ObjectPtr>& items) {
  json::object list_meta;
  list_meta["resourceVersion"] = std::to_string(revision);
  if (!continue_token.empty()) list_meta["continue"] = continue_token;
  if (remaining) list_meta["remainingItemCount"] = *remaining;
  json::value converted = nullptr;
  if (!items.empty()) {
    json::array array;
    array.reserve(items.size());
    for (const auto& item : items)
      array.emplace_back(as_partial_object_metadata(parse_stored(*item), meta_api_version));
    converted = std::move(array);
  }
  json::object list;
  list["kind"] = "PartialObjectMetadataList";
  list["apiVersion"] = meta_api_version;
  list["metadata"] = std::move(list_meta);
  list["items"] = std::move(converted);
  return json::serialize(list);
}

std::string go_response_type(std::string_view group, std::string_view kind, bool custom,
                             bool list) {
  const std::string_view suffix = list ? "List" : "";
  if (custom) return fmt::format("*unstructured.Unstructured{}", suffix);
  return fmt::format("*{}.{}{}", internal_package(group), kind, suffix);
}

api::Status partial_metadata_of_list(std::string_view go_type) {
  return api::not_acceptable(fmt::format(
      "you requested PartialObjectMetadata, but the requested object is a list ({})", go_type));
}

api::Status partial_metadata_list_of_object(std::string_view go_type) {
  return api::not_acceptable(fmt::format(
      "you requested PartialObjectMetadataList, but the requested object is not a list ({})",
      go_type));
}

}  // namespace kcm::local::apiserver
