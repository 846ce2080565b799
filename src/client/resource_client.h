// A dynamic client for one resource (client-go's dynamic.ResourceInterface):
// any group/version/resource, optionally in a namespace, with objects as
// boost::json values. It is also the ListerWatcher reflectors consume.
// With metadata_only() media types it is client-go's metadata client: the
// server answers PartialObjectMetadata(List) objects, which carry only
// apiVersion, kind and metadata.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/lister_watcher.h"
#include "client/list_options.h"
#include "client/rest_client.h"
#include "client/watch_event.h"

namespace kcm::client {

struct GetOptions {
  std::string resource_version;
};

// metav1.CreateOptions / UpdateOptions.
struct WriteOptions {
  std::vector<std::string> dry_run;  // {"All"}
  std::string field_manager;
  std::string field_validation;  // "Ignore", "Warn" or "Strict"
};
using CreateOptions = WriteOptions;
using UpdateOptions = WriteOptions;

struct PatchOptions {
  std::vector<std::string> dry_run;
  std::string field_manager;  // required for apply
  std::string field_validation;
  std::optional<bool> force;  // apply only: take ownership of conflicting fields
};

enum class PatchType { kJson, kMerge, kStrategicMerge, kApply };
// "application/json-patch+json", "application/merge-patch+json",
// "application/strategic-merge-patch+json", "application/apply-patch+yaml".
std::string_view content_type(PatchType type);

struct Preconditions {
  std::optional<std::string> uid;
  std::optional<std::string> resource_version;
};

// metav1.DeleteOptions.
struct DeleteOptions {
  std::optional<std::int64_t> grace_period_seconds;
  std::optional<Preconditions> preconditions;
  std::optional<std::string> propagation_policy;  // "Orphan", "Background", "Foreground"
  std::vector<std::string> dry_run;
};
// The request body client-go sends ({"kind":"DeleteOptions","apiVersion":"v1",...}).
boost::json::value to_json(const DeleteOptions& options);

// The query parameters of a list (watch=false) or watch request.
QueryParams list_params(const ListOptions& options, bool watch);

// A WatchStream over a streaming watch response body.
std::unique_ptr<WatchStream> make_watch_stream(std::unique_ptr<ResponseStream> body);

// The Accept header a ResourceClient sends. Empty: the RestClient's default
// (full objects).
struct AcceptTypes {
  std::string object;  // get, watch and writes
  std::string list;
};

inline constexpr std::string_view kPartialObjectMetadataJson =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
inline constexpr std::string_view kPartialObjectMetadataListJson =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

// Metadata only, as client-go's metadata client asks for JSON (without a
// plain application/json fallback).
AcceptTypes metadata_only();

class ResourceClient final : public cache::ListerWatcher {
 public:
  // `ns` empty: cluster-scoped resources, or all namespaces for list/watch.
  ResourceClient(std::shared_ptr<RestClient> client, api::GroupVersionResource resource,
                 std::string ns = "", AcceptTypes accept = {});

  // The same resource and media types in another namespace ("" for all namespaces).
  ResourceClient in_namespace(std::string ns) const;
  const api::GroupVersionResource& resource() const { return resource_; }
  const std::string& namespace_name() const { return namespace_; }
  const AcceptTypes& accept() const { return accept_; }

  Result<boost::json::value, api::Status> get(std::string_view name, const GetOptions& options = {},
                                              std::string_view subresource = "");
  // One page (options.limit / continue_token); items get the list's apiVersion
  // and kind (without "List") when they have none, as client-go's dynamic client.
  Result<cache::ListPage, api::Status> list(const ListOptions& options) override;
  // Every page, following `continue` (the resourceVersion is the first page's).
  Result<cache::ListPage, api::Status> list_all(const ListOptions& options);
  Result<std::unique_ptr<WatchStream>, api::Status> watch(const ListOptions& options) override;

  // With a subresource the name comes from the object's metadata.name.
  Result<boost::json::value, api::Status> create(const boost::json::value& object,
                                                 const CreateOptions& options = {},
                                                 std::string_view subresource = "");
  // The same POST; returns only the created object's name and resourceVersion
  // (RestClient::send_for_meta).
  Result<WrittenMeta, api::Status> create_for_meta(const boost::json::value& object,
                                                   const CreateOptions& options = {});
  Result<boost::json::value, api::Status> update(const boost::json::value& object,
                                                 const UpdateOptions& options = {},
                                                 std::string_view subresource = "");
  Result<boost::json::value, api::Status> update_status(const boost::json::value& object,
                                                        const UpdateOptions& options = {});
  // Only the outcome, as client-go's Result.Error(): the written object the
  // server answers with is not decoded. For callers that keep what they sent.
  Result<void, api::Status> update_status_outcome(const boost::json::value& object,
                                                  const UpdateOptions& options = {});
  // The same PUT; returns only the name and resourceVersion written
  // (RestClient::send_for_meta).
  Result<WrittenMeta, api::Status> update_status_for_meta(const boost::json::value& object,
                                                          const UpdateOptions& options = {});
  Result<boost::json::value, api::Status> patch(std::string_view name, PatchType type,
                                                std::string_view data,
                                                const PatchOptions& options = {},
                                                std::string_view subresource = "");
  // Only the outcome, as client-go's Delete: what the server answers (the
  // object, when deletion is graceful or waits for finalizers, or a Success
  // Status) is not decoded.
  Result<void, api::Status> delete_object(std::string_view name, const DeleteOptions& options = {},
                                          std::string_view subresource = "");
  Result<boost::json::value, api::Status> delete_collection(const DeleteOptions& options,
                                                            const ListOptions& list_options);

 private:
  // With the object Accept header; `list` for the list one.
  Request base(std::string verb, bool list = false) const;
  // The POST of `object` (to a subresource: its name from metadata.name).
  Result<Request, api::Status> create_request(const boost::json::value& object,
                                              const CreateOptions& options,
                                              std::string_view subresource) const;
  // The PUT of `object` (its name from metadata.name).
  Result<Request, api::Status> update_request(const boost::json::value& object,
                                              const UpdateOptions& options,
                                              std::string_view subresource) const;

  std::shared_ptr<RestClient> client_;
  api::GroupVersionResource resource_;
  std::string namespace_;
  AcceptTypes accept_;
};

}  // namespace kcm::client
