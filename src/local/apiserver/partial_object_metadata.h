// Responses as meta.k8s.io PartialObjectMetadata(List), what metadata-only
// clients (client-go's metadata informers, used by the garbage collector) ask
// for: the object's metadata alone, as upstream's asPartialObjectMetadata and
// asPartialObjectMetadataList build it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "local/storage/stored_object.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// {"kind":"PartialObjectMetadata","apiVersion":<meta_api_version>,"metadata":{...}}
// with the object's metadata as Go's ObjectMeta encodes it (its fields in
// order, empty ones left out, creationTimestamp always there).
json::object as_partial_object_metadata(const json::object& object,
                                        std::string_view meta_api_version);

// {"kind":"PartialObjectMetadataList","apiVersion":...,"metadata":{resourceVersion,
// continue, remainingItemCount},"items":[PartialObjectMetadata...]}; no items
// is "items":null, as upstream's freshly built list encodes.
std::string encode_partial_object_metadata_list(std::string_view meta_api_version,
                                                std::uint64_t revision,
                                                std::string_view continue_token,
                                                std::optional<std::int64_t> remaining,
                                                const std::vector<storage::ObjectPtr>& items);

// The Go type upstream names in its 406 messages for a response of `kind`
// in `group`: a built-in kind's internal type ("*core.Pod", "*apps.DeploymentList")
// or, for custom resources, "*unstructured.Unstructured(List)".
std::string go_response_type(std::string_view group, std::string_view kind, bool custom, bool list);

// The 406 answers when the requested shape does not fit the response.
api::Status partial_metadata_of_list(std::string_view go_type);
api::Status partial_metadata_list_of_object(std::string_view go_type);

}  // namespace kcm::local::apiserver
