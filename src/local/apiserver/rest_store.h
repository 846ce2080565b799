// The generic REST semantics of every served resource (upstream's generic
// registry store): create with generateName, uid and timestamps; update with
// optimistic concurrency and no-op detection; patches as read-modify-write
// with retries; deletion with preconditions, graceful periods, finalizers and
// propagation policies; lists at a revision with continue tokens.
//
// Independent of HTTP: the handlers decode requests into these calls and
// encode the results. Writes complete asynchronously (once durable).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "local/fieldmanager/field_manager.h"
#include "local/registry/resource_info.h"
#include "local/storage/store.h"

namespace kcm::local::apiserver {

namespace json = boost::json;
using registry::ResourceInfo;

struct WriteOptions {
  bool dry_run = false;
  // Who the write's changed fields are recorded under in metadata.managedFields
  // (the fieldManager parameter, or the client's User-Agent).
  std::string field_manager;
  // The caller recorded the write's managed fields already (a server-side
  // apply, a write through /scale).
  bool fields_recorded = false;
  // The fieldValidation query parameter: unknown fields refused (Strict),
  // reported as warnings (Warn, the default) or ignored.
  enum class FieldValidation { kIgnore, kWarn, kStrict } field_validation = FieldValidation::kWarn;
};

struct WriteResult {
  int code = 200;                   // 200, 201 or 202
  storage::ObjectPtr object;        // the stored object; its JSON is the body, unless
  std::optional<json::value> body;  // another body is given (a Status, a Scale)
};
using WriteDone = std::function<void(Result<WriteResult, api::Status>)>;

struct DeleteOptions {
  std::optional<std::int64_t> grace_period_seconds;
  std::optional<std::string> precondition_uid;
  std::optional<std::string> precondition_resource_version;
  std::optional<std::string> propagation_policy;  // Orphan | Background | Foreground
  std::optional<bool> orphan_dependents;          // deprecated form of the policy
  bool dry_run = false;
};
// Decodes a DeleteOptions body (kind/apiVersion optional, as kubectl sends it).
Result<DeleteOptions, api::Status> parse_delete_options(const json::value& body);

// Which rules an update follows: the main resource's, the status
// subresource's, a namespace's finalize, or none (server-internal writes such
// as pod binding, which set spec and status together).
enum class Subresource { kNone, kStatus, kFinalize, kSystem };

struct ListRequest {
  std::string namespace_;  // empty: all namespaces (or a cluster-scoped resource)
  std::function<bool(const storage::StoredObject&)> predicate;  // label and field selectors
  bool has_selector = false;
  std::size_t limit = 0;
  std::string continue_token;
  std::string resource_version;        // "", "0" or a revision
  std::string resource_version_match;  // "", "NotOlderThan", "Exact"
};

struct ListResponse {
  std::vector<storage::ObjectPtr> items;
  std::uint64_t revision = 0;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
};

class FieldManagers;

class RestStore {
 public:
  RestStore(storage::Store& store, const registry::ResourceTable& table);
  ~RestStore();

  storage::Store& store() { return store_; }
  storage::ResourceId resource_id(const ResourceInfo& info) const;

  // A stored object as the client of `info` sees it (converted when `info`
  // lives in another resource's storage; the same object otherwise).
  storage::ObjectPtr present(const ResourceInfo& info, const storage::ObjectPtr& object) const;

  Result<storage::ObjectPtr, api::Status> get(const ResourceInfo& info, std::string_view ns,
                                              std::string_view name) const;
  Result<ListResponse, api::Status> list(const ResourceInfo& info,
                                         const ListRequest& request) const;

  void create(const ResourceInfo& info, std::string_view ns, json::object obj,
              const WriteOptions& options, WriteDone done);

  // PUT: replaces the object (or its status) with `obj`.
  void update(const ResourceInfo& info, std::string_view ns, std::string_view name, Subresource sub,
              json::object obj, const WriteOptions& options, WriteDone done);

  // Read-modify-write: `mutate` receives the current object and returns the new
  // one (or an error); the whole step is retried when the object changes
  // concurrently. A resourceVersion left in the result by `mutate` is a
  // precondition (409 when stale), as for patches that carry one.
  using Mutation = std::function<Result<json::object, api::Status>(const json::object& current)>;
  void update_with(const ResourceInfo& info, std::string_view ns, std::string_view name,
                   Subresource sub, Mutation mutate, const WriteOptions& options, WriteDone done);

  void remove(const ResourceInfo& info, std::string_view ns, std::string_view name,
              const DeleteOptions& options, WriteDone done);

  // The field manager of writes to `info` through `sub`.
  std::shared_ptr<const fieldmanager::FieldManager> field_manager(const ResourceInfo& info,
                                                                  Subresource sub);
  // The manager of the Scale objects writes through /scale are tracked on.
  const fieldmanager::FieldManager& scale_field_manager() const;

 private:
  // Records what `options.field_manager` changed from `live` (nullptr: a
  // create, from the kind's zero object) to `obj` in obj's managedFields (not
  // for applies, which did, nor for server-internal writes).
  void track_managed_fields(const ResourceInfo& info, Subresource sub, const json::object* live,
                            json::object& obj, const WriteOptions& options);
  // remove() again once the write that beat it (409 from the store) is
  // visible, as upstream's storage retries a delete that lost a race.
  void remove_when_visible(const ResourceInfo& info, std::string ns, std::string name,
                           const DeleteOptions& options, WriteDone done);
  struct UpdateContext;
  void run_update(std::shared_ptr<UpdateContext> ctx);
  void remove_namespace(const ResourceInfo& info, json::object obj,
                        const storage::StoredObject& current, const DeleteOptions& options,
                        WriteDone done);
  void commit_delete(const ResourceInfo& info, const std::string& key,
                     std::uint64_t expected_revision, json::object final_state, bool dry_run,
                     WriteDone done);
  Result<void, api::Status> check_namespace_for_create(const ResourceInfo& info,
                                                       std::string_view ns,
                                                       std::string_view name) const;
  // The object in the served form of `info` / stored at `revision` in storage form.
  json::object load(const ResourceInfo& info, const storage::StoredObject& object) const;
  storage::ObjectPtr save(const ResourceInfo& info, json::object& obj,
                          std::uint64_t revision) const;
  const ResourceInfo& storage_info(const ResourceInfo& info) const;
  WriteDone presenting(const ResourceInfo& info, WriteDone done) const;
  // The kind's allocator, if it has one, fills in what `obj` takes from its
  // pool (null reservation: nothing taken). `old`: null on create.
  Result<registry::Allocator::Reservation, api::Status> allocate(const ResourceInfo& info,
                                                                 json::object& obj,
                                                                 const json::object* old) const;
  // `done`, keeping `reservation` until it has run.
  static WriteDone holding(registry::Allocator::Reservation reservation, WriteDone done);
  api::Status store_error(const ResourceInfo& info, std::string_view name,
                          storage::StoreError e) const;

  storage::Store& store_;
  const registry::ResourceTable& table_;
  std::vector<storage::ResourceId> ids_;  // parallel to table_.all()
  storage::ResourceId namespaces_id_;
  const registry::ResourceInfo* namespaces_info_ = nullptr;  // null in tables without namespaces
  std::unique_ptr<FieldManagers> field_managers_;
};

// Generic metadata validation (upstream's ValidateObjectMeta and its update form).
api::FieldErrors validate_object_meta(const ResourceInfo& info, const json::object& obj);
api::FieldErrors validate_object_meta_update(const json::object& obj, const json::object& old);

}  // namespace kcm::local::apiserver
