#include "local/apiserver/rest_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/base64.h"
#include "api/metadata_member.h"
#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "local/apiserver/field_managers.h"
#include "local/apiserver/ids.h"
#include "local/apiserver/stored_codec.h"

namespace kcm::local::apiserver {

namespace {

constexpr int kMaxUpdateAttempts = 16;
constexpr int kMaxGenerateNameAttempts = 8;
constexpr std::string_view kOrphanFinalizer = "orphan";
constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";

// The object as the Go struct of its kind holds it: unknown members dropped,
// zero values printed or left out as encoding/json does (canonical.h). Runs
// before defaulting, as upstream decodes before it defaults, and again before
// validation so that what is validated is exactly what is stored.
void canonicalize(const ResourceInfo& info, json::object& obj) {
  const api::schema::Type* type = api::schema::Registry::builtin().root(info.gvk());
  if (type == nullptr) return;
  json::value v(std::move(obj));
  api::schema::canonicalize(v, *type);
  obj = std::move(v.get_object());
}

// obj == old, with the members compared last-first: an update nearly always
// changes the status or the spec, which come last, so the difference is found
// before the large, unchanged metadata is walked.
bool same_object(const json::object& a, const json::object& b) {
  if (a.size() != b.size()) return false;
  for (auto it = a.end(); it != a.begin();) {
    --it;
    const json::value* other = b.if_contains(it->key());
    if (other == nullptr || *other != it->value()) return false;
  }
  return true;
}

json::object& metadata(json::object& obj) {
  return api::ensure_object(obj, "metadata");
}

const json::object& metadata(const json::object& obj) {
  static const json::object kEmpty;
  const json::object* m = api::find_object(obj, "metadata");
  return m != nullptr ? *m : kEmpty;
}

std::vector<std::string> finalizers_of(const json::object& obj) {
  std::vector<std::string> out;
  if (const json::array* f = api::find_array(metadata(obj), "finalizers")) {
    for (const auto& v : *f) {
      if (v.is_string()) out.emplace_back(v.get_string());
    }
  }
  return out;
}

void set_finalizers(json::object& obj, const std::vector<std::string>& finalizers) {
  json::object& meta = metadata(obj);
  if (finalizers.empty()) {
    meta.erase("finalizers");
    return;
  }
  json::array a;
  for (const auto& f : finalizers)
    a.emplace_back(f);
  meta["finalizers"] = std::move(a);
}

bool has_deletion_timestamp(const json::object& obj) {
  const json::value* v = metadata(obj).if_contains("deletionTimestamp");
  return v != nullptr && !v->is_null();
}

std::optional<std::int64_t> deletion_grace(const json::object& obj) {
  return api::find_int(metadata(obj), "deletionGracePeriodSeconds");
}

std::string key_for(const ResourceInfo& info, std::string_view ns, std::string_view name) {
  return storage::object_key(info.namespaced ? ns : std::string_view(), name);
}

// --- continue tokens: base64url({"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}) ---

std::string encode_continue(std::uint64_t revision, std::string_view last_key) {
  json::object o;
  o["v"] = "meta.k8s.io/v1";
  o["rv"] = revision;
  o["start"] = std::string(last_key) + '\0';
  return api::base64_encode(json::serialize(o), api::Base64Alphabet::kUrlUnpadded);
}

Result<std::pair<std::uint64_t, std::string>, api::Status> decode_continue(std::string_view token) {
  auto bad = [](std::string_view why) {
    return fail(api::bad_request(fmt::format("invalid continue token: {}", why)));
  };
  auto text = api::base64_decode(token, api::Base64Alphabet::kUrlUnpadded);
  if (!text) return bad(text.error());
  std::string error;
  auto parsed = api::parse_json(*text, &error);
  if (!parsed || !parsed->is_object()) return bad("not a continue token");
  const json::object& o = parsed->get_object();
  if (api::find_string(o, "v").value_or("") != "meta.k8s.io/v1") return bad("unknown version");
  const auto rv = api::find_int(o, "rv");
  const auto start = api::find_string(o, "start");
  if (!rv || *rv <= 0 || !start || start->empty() || start->back() != '\0') {
    return bad("malformed");
  }
  return std::pair<std::uint64_t, std::string>(static_cast<std::uint64_t>(*rv),
                                               std::string(start->substr(0, start->size() - 1)));
}

// Upstream's GC finalizers for a delete: returns the new finalizer list when
// the propagation policy changes it.
std::optional<std::vector<std::string>> gc_finalizers(const std::vector<std::string>& current,
                                                      const DeleteOptions& options) {
  auto has = [&](std::string_view f) {
    return std::find(current.begin(), current.end(), f) != current.end();
  };
  bool orphan = false;
  bool foreground = false;
  if (options.orphan_dependents) {
    orphan = *options.orphan_dependents;
  } else if (options.propagation_policy) {
    orphan = *options.propagation_policy == "Orphan";
    foreground = *options.propagation_policy == "Foreground";
  } else {
    // The object's own finalizers express an earlier request; the default of
    // every served kind is background deletion.
    for (const auto& f : current) {
      if (f == kOrphanFinalizer) {
        orphan = true;
        break;
      }
      if (f == kForegroundFinalizer) {
        foreground = true;
        break;
      }
    }
  }
  std::vector<std::string> next;
  for (const auto& f : current) {
    if (f != kOrphanFinalizer && f != kForegroundFinalizer) next.push_back(f);
  }
  if (orphan) next.emplace_back(kOrphanFinalizer);
  if (foreground) next.emplace_back(kForegroundFinalizer);
  const bool same = next.size() == current.size() &&
                    std::all_of(next.begin(), next.end(), [&](const auto& f) { return has(f); });
  if (same) return std::nullopt;
  return next;
}

json::value success_status(const ResourceInfo& info, std::string_view name, std::string_view uid) {
  api::Status s = api::Status::success();
  api::StatusDetails d;
  d.name = std::string(name);
  d.group = info.gvr.group;
  d.kind = info.gvr.resource;
  d.uid = std::string(uid);
  s.details = std::move(d);
  json::value v = s.to_json();
  v.as_object().erase("code");  // upstream's success Status carries no code
  return v;
}

}  // namespace

Result<DeleteOptions, api::Status> parse_delete_options(const json::value& body) {
  DeleteOptions out;
  if (body.is_null()) return out;
  const json::object* o = body.if_object();
  if (o == nullptr) return fail(api::bad_request("DeleteOptions must be a JSON object"));
  api::FieldErrors errs;
  if (const json::value* v = o->if_contains("gracePeriodSeconds"); v && !v->is_null()) {
    if (!v->is_int64()) {
      return fail(api::bad_request("gracePeriodSeconds: expected an integer"));
    }
    out.grace_period_seconds = v->get_int64();
  }
  if (const json::value* v = o->if_contains("propagationPolicy"); v && !v->is_null()) {
    if (!v->is_string()) return fail(api::bad_request("propagationPolicy: expected a string"));
    out.propagation_policy = std::string(v->get_string());
  }
  if (const json::value* v = o->if_contains("orphanDependents"); v && !v->is_null()) {
    if (!v->is_bool()) return fail(api::bad_request("orphanDependents: expected a boolean"));
    out.orphan_dependents = v->get_bool();
  }
  if (const json::object* p = api::find_object(*o, "preconditions")) {
    if (auto uid = api::find_string(*p, "uid")) out.precondition_uid = std::string(*uid);
    if (auto rv = api::find_string(*p, "resourceVersion")) {
      out.precondition_resource_version = std::string(*rv);
    }
  }
  if (const json::array* dry = api::find_array(*o, "dryRun")) {
    for (const auto& d : *dry) {
      if (d.is_string() && d.get_string() == "All") out.dry_run = true;
    }
  }
  if (out.orphan_dependents && out.propagation_policy) {
    errs.push_back(api::invalid("propagationPolicy", json::value(*out.propagation_policy),
                                "orphanDependents and deletionPropagation cannot be both set"));
  }
  if (out.propagation_policy && *out.propagation_policy != "Orphan" &&
      *out.propagation_policy != "Background" && *out.propagation_policy != "Foreground") {
    errs.push_back(api::not_supported("propagationPolicy", json::value(*out.propagation_policy),
                                      {"Background", "Foreground", "Orphan"}));
  }
  if (!errs.empty()) return fail(api::invalid({"meta.k8s.io", "DeleteOptions"}, "", errs));
  return out;
}

RestStore::RestStore(storage::Store& store, const registry::ResourceTable& table)
    : store_(store), table_(table), field_managers_(std::make_unique<FieldManagers>()) {
  for (const auto& info : table_.all())
    ids_.push_back(store_.resource(info->store_name()));
  namespaces_id_ = store_.resource("core/namespaces");
  namespaces_info_ = table_.find_store_name("core/namespaces");
}

RestStore::~RestStore() = default;

std::shared_ptr<const fieldmanager::FieldManager> RestStore::field_manager(const ResourceInfo& info,
                                                                           Subresource sub) {
  return field_managers_->of(info, sub);
}

const fieldmanager::FieldManager& RestStore::scale_field_manager() const {
  return field_managers_->scale();
}

void RestStore::track_managed_fields(const ResourceInfo& info, Subresource sub,
                                     const json::object* live, json::object& obj,
                                     const WriteOptions& options) {
  if (options.fields_recorded || sub == Subresource::kSystem) return;
  auto manager = field_managers_->of(info, sub);
  auto tracked = manager->update(live != nullptr ? *live : manager->zero(), obj,
                                 options.field_manager, rfc3339_now());
  if (!tracked) {
    // As kube-apiserver 1.33: the write goes on, without managed fields.
    fmt::print(
        stderr,
        "kcm-local: warning: [SHOULD NOT HAPPEN] failed to update managedFields for {} {}: {}\n",
        info.kind, api::metadata_string(obj, "name"), tracked.error());
    metadata(obj).erase("managedFields");
  }
}

storage::ResourceId RestStore::resource_id(const ResourceInfo& info) const {
  const auto& all = table_.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].get() == &info) return ids_[i];
  }
  return store_.resource(info.store_name());
}

const ResourceInfo& RestStore::storage_info(const ResourceInfo& info) const {
  if (info.storage.empty()) return info;
  // The resource that owns the storage is the one without a conversion.
  for (const auto& r : table_.all()) {
    if (r->store_name() == info.storage && !r->conversion) return *r;
  }
  return info;
}

json::object RestStore::load(const ResourceInfo& info, const storage::StoredObject& object) const {
  json::object obj = parse_stored(object);
  if (info.conversion) info.conversion->from_storage(obj);
  return obj;
}

storage::ObjectPtr RestStore::save(const ResourceInfo& info, json::object& obj,
                                   std::uint64_t revision) const {
  if (!info.conversion) return encode_stored(info, obj, revision);
  json::object stored = obj;
  info.conversion->to_storage(stored);
  return encode_stored(storage_info(info), stored, revision);
}

storage::ObjectPtr RestStore::present(const ResourceInfo& info,
                                      const storage::ObjectPtr& object) const {
  if (!info.conversion || !object) return object;
  auto out = std::make_shared<storage::StoredObject>(*object);
  out->json = json::serialize(load(info, *object));
  return out;
}

WriteDone RestStore::presenting(const ResourceInfo& info, WriteDone done) const {
  if (!info.conversion) return done;
  return [this, &info, done = std::move(done)](Result<WriteResult, api::Status> r) {
    if (r && r->object) r->object = present(info, r->object);
    done(std::move(r));
  };
}

api::Status RestStore::store_error(const ResourceInfo& info, std::string_view name,
                                   storage::StoreError e) const {
  switch (e) {
    case storage::StoreError::kAlreadyExists:
      return api::already_exists(info.group_resource(), name);
    case storage::StoreError::kNotFound:
      return api::not_found(info.group_resource(), name);
    case storage::StoreError::kConflict:
      return api::conflict(info.group_resource(), name, api::kObjectModified);
    case storage::StoreError::kExpired:
      return api::expired("too old resource version");
    case storage::StoreError::kStorage:
      return api::internal_error("storage failure");
  }
  return api::internal_error("unknown storage error");
}

Result<storage::ObjectPtr, api::Status> RestStore::get(const ResourceInfo& info,
                                                       std::string_view ns,
                                                       std::string_view name) const {
  storage::ObjectPtr object = store_.get(resource_id(info), key_for(info, ns, name));
  if (!object) return fail(api::not_found(info.group_resource(), name));
  return present(info, object);
}

Result<ListResponse, api::Status> RestStore::list(const ResourceInfo& info,
                                                  const ListRequest& request) const {
  storage::Store::ListOptions options;
  if (info.namespaced && !request.namespace_.empty()) options.key_prefix = request.namespace_ + "/";
  options.limit = request.limit;
  options.predicate = request.predicate;

  if (!request.continue_token.empty()) {
    auto decoded = decode_continue(request.continue_token);
    if (!decoded) return fail(decoded.error());
    options.at_revision = decoded->first;
    options.start_after = decoded->second;
    if (!request.resource_version.empty()) {
      return fail(
          api::bad_request("specifying resource version is not allowed when using continue"));
    }
  } else if (!request.resource_version.empty() && request.resource_version != "0") {
    std::uint64_t rv = 0;
    const auto& s = request.resource_version;
    if (s.empty() || !std::all_of(s.begin(), s.end(), ::isdigit) || s.size() > 19) {
      return fail(api::bad_request(fmt::format("invalid resource version: {}", s)));
    }
    rv = std::stoull(s);
    if (request.resource_version_match == "Exact") {
      options.at_revision = rv;
    } else if (rv > store_.visible_revision()) {
      api::Status status = api::timeout(
          fmt::format("Too large resource version: {}, current: {}", rv, store_.visible_revision()),
          1);
      status.details->causes.push_back(
          {"ResourceVersionTooLarge", "Too large resource version", ""});
      return fail(status);
    }
  } else if (request.resource_version_match == "Exact") {
    return fail(api::bad_request(
        "resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"\" or \"0\""));
  }

  auto result = store_.list(resource_id(info), options);
  if (!result) {
    if (!request.continue_token.empty()) {
      return fail(api::expired(
          "The provided continue parameter is too old to display a consistent list result. You "
          "can start a new list without the continue parameter, or use the continue token in "
          "this response to retrieve the remainder of the results. Continuing with the provided "
          "token results in an inconsistent list - objects that were created, modified, or "
          "deleted between the time the first chunk was returned and now may show up in the "
          "list."));
    }
    return fail(api::expired(fmt::format("too old resource version: {} ({})",
                                         options.at_revision.value_or(0),
                                         store_.compacted_revision(resource_id(info)))));
  }
  ListResponse out;
  out.revision = result->revision;
  out.items = std::move(result->items);
  if (info.conversion) {
    for (auto& item : out.items)
      item = present(info, item);
  }
  if (result->more && !out.items.empty()) {
    const auto& last = *out.items.back();
    out.continue_token = encode_continue(out.revision, key_for(info, last.namespace_, last.name));
    if (!request.has_selector)
      out.remaining_item_count = static_cast<std::int64_t>(result->remaining);
  }
  return out;
}

Result<void, api::Status> RestStore::check_namespace_for_create(const ResourceInfo& info,
                                                                std::string_view ns,
                                                                std::string_view name) const {
  if (!info.namespaced) return {};
  storage::ObjectPtr namespace_object = store_.get(namespaces_id_, ns);
  if (!namespace_object) return fail(api::not_found({"", "namespaces"}, ns));
  // As upstream's NamespaceLifecycle admission, the phase alone decides (deletion
  // sets it together with deletionTimestamp); the store keeps it beside the JSON.
  if (namespaces_info_ != nullptr &&
      stored_field(*namespaces_info_, *namespace_object, "status.phase") == "Terminating") {
    return fail(api::forbidden(info.group_resource(), name,
                               fmt::format("unable to create new content in namespace {} because "
                                           "it is being terminated",
                                           ns)));
  }
  return {};
}

Result<registry::Allocator::Reservation, api::Status> RestStore::allocate(
    const ResourceInfo& info, json::object& obj, const json::object* old) const {
  if (!info.allocator) return registry::Allocator::Reservation();
  const registry::Allocator::StoredObjects stored = [this, &info] {
    std::vector<json::object> out;
    auto listed = store_.list(resource_id(info), {});
    if (listed) {
      for (const auto& item : listed->items)
        out.push_back(load(info, *item));
    }
    return out;
  };
  return info.allocator->allocate(obj, old, stored);
}

WriteDone RestStore::holding(registry::Allocator::Reservation reservation, WriteDone done) {
  return [reservation = std::move(reservation),
          done = std::move(done)](Result<WriteResult, api::Status> r) { done(std::move(r)); };
}

void RestStore::create(const ResourceInfo& info, std::string_view ns, json::object obj,
                       const WriteOptions& options, WriteDone done_in) {
  WriteDone done = presenting(info, std::move(done_in));
  json::object& meta = metadata(obj);
  // Namespace: taken from the request; a different one in the body is refused.
  if (info.namespaced) {
    const std::string body_ns = api::metadata_string(obj, "namespace");
    if (!body_ns.empty() && body_ns != ns) {
      done(fail(api::bad_request(
          "the namespace of the provided object does not match the namespace sent on the "
          "request")));
      return;
    }
    meta["namespace"] = ns;
  } else {
    meta.erase("namespace");
  }
  if (const json::value* rv = meta.if_contains("resourceVersion");
      rv && !(rv->is_string() && rv->get_string().empty()) && !rv->is_null()) {
    done(fail(api::internal_error("resourceVersion should not be set on objects to be created")));
    return;
  }
  meta.erase("resourceVersion");
  meta.erase("deletionTimestamp");
  meta.erase("deletionGracePeriodSeconds");
  meta.erase("generation");
  const std::string generate_name = api::metadata_string(obj, "generateName");
  const bool generated = api::metadata_string(obj, "name").empty() && !generate_name.empty();
  if (generated) {
    // Names are at most 63 characters with the 5-character suffix.
    metadata(obj)["name"] = generate_name.substr(0, 58) + generate_name_suffix();
  }
  canonicalize(info, obj);
  info.strategy->apply_defaults(obj);
  canonicalize(info, obj);  // what a default set prints as Go prints it
  // Before the strategy, as upstream's create handler records them.
  track_managed_fields(info, Subresource::kNone, nullptr, obj, options);
  // Allocation precedes the strategy and validation, as upstream's BeginCreate.
  auto reservation = allocate(info, obj, nullptr);
  if (!reservation) {
    done(fail(std::move(reservation).error()));
    return;
  }
  if (*reservation) done = holding(std::move(*reservation), std::move(done));
  info.strategy->prepare_for_create(obj);
  metadata(obj)["uid"] = new_uid();
  metadata(obj)["creationTimestamp"] = rfc3339_now();
  canonicalize(info, obj);

  const std::string name = api::metadata_string(obj, "name");
  api::FieldErrors errs = validate_object_meta(info, obj);
  api::FieldErrors kind_errs = info.strategy->validate(obj);
  errs.insert(errs.end(), kind_errs.begin(), kind_errs.end());
  if (!errs.empty()) {
    done(fail(api::invalid(info.gvk().group_kind(), name, errs)));
    return;
  }
  if (auto ok = check_namespace_for_create(info, ns, name); !ok) {
    done(fail(ok.error()));
    return;
  }
  if (options.dry_run) {
    storage::ObjectPtr existing = store_.get(resource_id(info), key_for(info, ns, name));
    if (existing) {
      done(fail(api::already_exists(info.group_resource(), name)));
      return;
    }
    done(WriteResult{201, save(info, obj, 0), std::nullopt});
    return;
  }

  auto shared = std::make_shared<json::object>(std::move(obj));
  auto attempt = std::make_shared<std::function<void(int)>>();
  *attempt = [this, &info, ns = std::string(ns), shared, generated, generate_name, done,
              attempt](int tries_left) {
    const std::string name = api::metadata_string(*shared, "name");
    storage::Store::Write write;
    write.resource = resource_id(info);
    write.key = key_for(info, ns, name);
    write.op = storage::Store::Op::kCreate;
    write.build = [this, &info, shared](std::uint64_t revision) {
      return save(info, *shared, revision);
    };
    store_.commit(
        std::move(write), [this, &info, shared, generated, generate_name, done, attempt, tries_left,
                           name](Result<storage::ObjectPtr, storage::StoreError> r) {
          if (r) {
            done(WriteResult{201, std::move(*r), std::nullopt});
            (*attempt) = nullptr;  // break the self-reference
            return;
          }
          if (r.error() == storage::StoreError::kAlreadyExists && generated && tries_left > 1) {
            metadata(*shared)["name"] = generate_name.substr(0, 58) + generate_name_suffix();
            (*attempt)(tries_left - 1);
            return;
          }
          done(fail(store_error(info, name, r.error())));
          (*attempt) = nullptr;
        });
  };
  (*attempt)(kMaxGenerateNameAttempts);
}

// --- updates ---------------------------------------------------------------

struct RestStore::UpdateContext {
  const ResourceInfo* info;
  std::string ns;
  std::string name;
  Subresource sub;
  Mutation mutate;
  WriteOptions options;
  WriteDone done;
  int attempts_left = kMaxUpdateAttempts;
  // What the write took from the kind's pool, held until it ends.
  registry::Allocator::Reservation reservation;
};

void RestStore::update(const ResourceInfo& info, std::string_view ns, std::string_view name,
                       Subresource sub, json::object obj, const WriteOptions& options,
                       WriteDone done) {
  const std::string body_name = api::metadata_string(obj, "name");
  if (!body_name.empty() && body_name != name) {
    done(fail(api::bad_request(fmt::format(
        "the name of the object ({}) does not match the name on the URL ({})", body_name, name))));
    return;
  }
  auto body = std::make_shared<const json::object>(std::move(obj));
  update_with(
      info, ns, name, sub,
      [body](const json::object&) -> Result<json::object, api::Status> { return *body; }, options,
      std::move(done));
}

void RestStore::update_with(const ResourceInfo& info, std::string_view ns, std::string_view name,
                            Subresource sub, Mutation mutate, const WriteOptions& options,
                            WriteDone done) {
  auto ctx = std::make_shared<UpdateContext>();
  ctx->info = &info;
  ctx->ns = std::string(ns);
  ctx->name = std::string(name);
  ctx->sub = sub;
  ctx->mutate = std::move(mutate);
  ctx->options = options;
  ctx->done = presenting(info, std::move(done));
  run_update(std::move(ctx));
}

void RestStore::run_update(std::shared_ptr<UpdateContext> ctx) {
  const ResourceInfo& info = *ctx->info;
  const std::string key = key_for(info, ctx->ns, ctx->name);
  storage::ObjectPtr current = store_.get(resource_id(info), key);
  if (!current) {
    ctx->done(fail(api::not_found(info.group_resource(), ctx->name)));
    return;
  }
  const json::object old = load(info, *current);
  auto mutated = ctx->mutate(old);
  if (!mutated) {
    ctx->done(fail(std::move(mutated).error()));
    return;
  }
  json::object obj = std::move(*mutated);
  json::object& meta = metadata(obj);

  // Namespace must match the request (BeforeUpdate).
  if (info.namespaced) {
    const std::string body_ns = api::metadata_string(obj, "namespace");
    if (!body_ns.empty() && body_ns != ctx->ns) {
      ctx->done(fail(api::bad_request(
          "the namespace of the provided object does not match the namespace sent on the "
          "request")));
      return;
    }
    meta["namespace"] = ctx->ns;
  } else {
    meta.erase("namespace");
  }
  // A resourceVersion in the new object is a precondition.
  const std::string requested_rv = api::metadata_string(obj, "resourceVersion");
  if (!requested_rv.empty() && requested_rv != api::metadata_string(old, "resourceVersion")) {
    ctx->done(fail(api::conflict(info.group_resource(), ctx->name, api::kObjectModified)));
    return;
  }

  canonicalize(info, obj);
  info.strategy->apply_defaults(obj);
  canonicalize(info, obj);  // what a default set prints as Go prints it
  track_managed_fields(info, ctx->sub, &old, obj, ctx->options);
  // System fields the client cannot change. (Canonicalizing may have rebuilt
  // the metadata object: `meta` no longer refers to it.)
  const json::object& old_meta = metadata(old);
  if (auto g = api::find_int(old_meta, "generation")) {
    metadata(obj)["generation"] = *g;
  } else {
    metadata(obj).erase("generation");
  }
  // Allocation precedes the strategy and validation, as upstream's BeginUpdate.
  // What an earlier attempt took is released first: it is not someone else's.
  if (ctx->sub == Subresource::kNone) {
    ctx->reservation.reset();
    auto reservation = allocate(info, obj, &old);
    if (!reservation) {
      ctx->done(fail(std::move(reservation).error()));
      return;
    }
    ctx->reservation = std::move(*reservation);
  }
  switch (ctx->sub) {
    case Subresource::kNone:
      info.strategy->prepare_for_update(obj, old);
      break;
    case Subresource::kStatus:
      info.strategy->prepare_for_status_update(obj, old);
      break;
    case Subresource::kFinalize:
    case Subresource::kSystem:
      break;
  }
  json::object& meta2 = metadata(obj);
  if (api::metadata_string(obj, "uid").empty()) meta2["uid"] = api::metadata_string(old, "uid");
  if (const json::value* ct = old_meta.if_contains("creationTimestamp")) {
    meta2["creationTimestamp"] = *ct;
  }
  if (has_deletion_timestamp(old))
    meta2["deletionTimestamp"] = *old_meta.if_contains("deletionTimestamp");
  if (auto g = deletion_grace(old); g && !deletion_grace(obj))
    meta2["deletionGracePeriodSeconds"] = *g;

  // Unconditional updates are based on the current object.
  metadata(obj)["resourceVersion"] = api::metadata_string(old, "resourceVersion");
  canonicalize(info, obj);

  api::FieldErrors errs = validate_object_meta(info, obj);
  api::FieldErrors update_errs = validate_object_meta_update(obj, old);
  errs.insert(errs.end(), update_errs.begin(), update_errs.end());
  // Server-internal writes (pod binding) skip the kind's update rules, as
  // upstream's BindingREST writes storage directly.
  api::FieldErrors kind_errs =
      ctx->sub == Subresource::kStatus   ? info.strategy->validate_status_update(obj, old)
      : ctx->sub == Subresource::kSystem ? api::FieldErrors{}
                                         : info.strategy->validate_update(obj, old);
  errs.insert(errs.end(), kind_errs.begin(), kind_errs.end());
  if (!errs.empty()) {
    ctx->done(fail(api::invalid(info.gvk().group_kind(), ctx->name, errs)));
    return;
  }

  // A no-op keeps the object and its resourceVersion.
  if (same_object(obj, old)) {
    ctx->done(WriteResult{200, current, std::nullopt});
    return;
  }

  // Removing the last finalizer of an object being deleted deletes it.
  if (has_deletion_timestamp(obj) && finalizers_of(obj).empty() &&
      deletion_grace(obj).value_or(0) == 0 && !info.strategy->blocks_deletion(obj)) {
    commit_delete(info, key, current->revision, std::move(obj), ctx->options.dry_run,
                  [ctx](Result<WriteResult, api::Status> r) {
                    if (r) r->code = 200;
                    ctx->done(std::move(r));
                  });
    return;
  }

  if (ctx->options.dry_run) {
    ctx->done(WriteResult{200, save(info, obj, current->revision), std::nullopt});
    return;
  }
  auto shared = std::make_shared<json::object>(std::move(obj));
  storage::Store::Write write;
  write.resource = resource_id(info);
  write.key = key;
  write.op = storage::Store::Op::kUpdate;
  write.expected_revision = current->revision;
  write.build = [this, &info, shared](std::uint64_t revision) {
    return save(info, *shared, revision);
  };
  store_.commit(std::move(write), [this, ctx](Result<storage::ObjectPtr, storage::StoreError> r) {
    if (r) {
      ctx->done(WriteResult{200, std::move(*r), std::nullopt});
      return;
    }
    if ((r.error() == storage::StoreError::kConflict ||
         r.error() == storage::StoreError::kNotFound) &&
        --ctx->attempts_left > 0) {
      // Changed underneath: read again and reapply (a stale explicit
      // resourceVersion then fails the precondition above). The winning
      // write may not be visible yet, and reading before it is would conflict
      // again at once, so the retry waits for it.
      store_.when_visible(store_.latest_revision(), [this, ctx] { run_update(ctx); });
      return;
    }
    ctx->done(fail(store_error(*ctx->info, ctx->name, r.error())));
  });
}

// --- deletion ----------------------------------------------------------------

void RestStore::commit_delete(const ResourceInfo& info, const std::string& key,
                              std::uint64_t expected_revision, json::object final_state,
                              bool dry_run, WriteDone done) {
  const std::string name = api::metadata_string(final_state, "name");
  const std::string uid = api::metadata_string(final_state, "uid");
  auto respond = [&info, name, uid](storage::ObjectPtr object) {
    WriteResult result{200, std::move(object), std::nullopt};
    if (!info.delete_returns_object) result.body = success_status(info, name, uid);
    return result;
  };
  if (dry_run) {
    done(respond(save(info, final_state, expected_revision)));
    return;
  }
  auto shared = std::make_shared<json::object>(std::move(final_state));
  storage::Store::Write write;
  write.resource = resource_id(info);
  write.key = key;
  write.op = storage::Store::Op::kDelete;
  write.expected_revision = expected_revision;
  write.build = [this, &info, shared](std::uint64_t revision) {
    return save(info, *shared, revision);
  };
  store_.commit(std::move(write), [this, &info, name, done,
                                   respond](Result<storage::ObjectPtr, storage::StoreError> r) {
    if (!r) {
      done(fail(store_error(info, name, r.error())));
      return;
    }
    done(respond(std::move(*r)));
  });
}

void RestStore::remove(const ResourceInfo& info, std::string_view ns, std::string_view name,
                       const DeleteOptions& options_in, WriteDone done_in) {
  WriteDone done = presenting(info, std::move(done_in));
  DeleteOptions options = options_in;
  const std::string key = key_for(info, ns, name);
  storage::ObjectPtr current = store_.get(resource_id(info), key);
  if (!current) {
    done(fail(api::not_found(info.group_resource(), name)));
    return;
  }
  json::object obj = load(info, *current);
  const std::string uid = api::metadata_string(obj, "uid");
  const std::string rv = api::metadata_string(obj, "resourceVersion");
  if (options.precondition_uid && *options.precondition_uid != uid) {
    done(fail(api::conflict(
        info.group_resource(), name,
        fmt::format("Precondition failed: UID in precondition: {}, UID in object meta: {}",
                    *options.precondition_uid, uid))));
    return;
  }
  if (options.precondition_resource_version && *options.precondition_resource_version != rv) {
    done(fail(api::conflict(
        info.group_resource(), name,
        fmt::format("Precondition failed: ResourceVersion in precondition: {}, ResourceVersion "
                    "in object meta: {}",
                    *options.precondition_resource_version, rv))));
    return;
  }
  if (info.kind == "Namespace" && info.gvr.group.empty()) {
    remove_namespace(info, std::move(obj), *current, options, std::move(done));
    return;
  }
  // Kinds that clean up after themselves first (CRDs add their finalizer).
  if (!has_deletion_timestamp(obj)) info.strategy->prepare_for_delete(obj);
  // Negative periods mean 1s on the delete path (only the kubelet may use 0 by itself).
  if (options.grace_period_seconds && *options.grace_period_seconds < 0) {
    options.grace_period_seconds = 1;
  }

  // Graceful deletion (BeforeDelete).
  bool graceful = false;
  bool pending = false;
  json::object& meta = metadata(obj);
  auto mark_generation = [&] {
    if (auto g = api::find_int(meta, "generation"); g && *g > 0) meta["generation"] = *g + 1;
  };
  if (has_deletion_timestamp(obj)) {
    const auto existing = deletion_grace(obj);
    if (existing && *existing > 0 && info.strategy->graceful_delete_period(obj, std::nullopt)) {
      if (options.grace_period_seconds && *options.grace_period_seconds < *existing) {
        // Only a shorter period may be given; move the deadline back.
        const std::int64_t shorten = *existing - *options.grace_period_seconds;
        meta["deletionTimestamp"] =
            rfc3339_now(std::chrono::seconds(*options.grace_period_seconds));
        (void)shorten;
        meta["deletionGracePeriodSeconds"] = *options.grace_period_seconds;
        graceful = true;
      } else {
        pending = true;
      }
    }
  } else if (auto period =
                 info.strategy->graceful_delete_period(obj, options.grace_period_seconds)) {
    graceful = true;
    meta["deletionTimestamp"] = rfc3339_now(std::chrono::seconds(*period));
    meta["deletionGracePeriodSeconds"] = *period;
    mark_generation();
  }
  if (pending) {
    done(WriteResult{202, current, std::nullopt});
    return;
  }

  // Finalizers requested by the propagation policy.
  if (auto next = gc_finalizers(finalizers_of(obj), options)) set_finalizers(obj, *next);
  const bool has_finalizers = !finalizers_of(obj).empty();

  const bool delete_now = !has_finalizers && (!graceful || deletion_grace(obj).value_or(0) == 0);
  if (delete_now) {
    // A write that won the race (a controller's status update) is not the
    // client's business: start over once it is visible, as upstream's
    // storage retries; the client's own preconditions are checked again then.
    commit_delete(info, key, current->revision, std::move(obj), options.dry_run,
                  [this, &info, ns = std::string(ns), name = std::string(name), options,
                   done](Result<WriteResult, api::Status> r) {
                    if (!r && r.error().is(api::reason::kConflict)) {
                      remove_when_visible(info, ns, name, options, done);
                      return;
                    }
                    done(std::move(r));
                  });
    return;
  }
  if (!graceful && !has_deletion_timestamp(obj)) {
    meta["deletionTimestamp"] = rfc3339_now();
    meta["deletionGracePeriodSeconds"] = 0;
    mark_generation();
  }
  // Store the marked object; the deletion completes when the finalizers (or
  // the kubelet) are done.
  if (obj == load(info, *current)) {
    done(WriteResult{202, current, std::nullopt});
    return;
  }
  if (options.dry_run) {
    done(WriteResult{202, save(info, obj, current->revision), std::nullopt});
    return;
  }
  auto shared = std::make_shared<json::object>(std::move(obj));
  storage::Store::Write write;
  write.resource = resource_id(info);
  write.key = key;
  write.op = storage::Store::Op::kUpdate;
  write.expected_revision = current->revision;
  write.build = [this, &info, shared](std::uint64_t revision) {
    return save(info, *shared, revision);
  };
  store_.commit(std::move(write),
                [this, &info, ns = std::string(ns), name = std::string(name), options,
                 done](Result<storage::ObjectPtr, storage::StoreError> r) {
                  if (r) {
                    done(WriteResult{202, std::move(*r), std::nullopt});
                    return;
                  }
                  if (r.error() == storage::StoreError::kConflict) {
                    // Changed meanwhile: start over once the change is visible.
                    remove_when_visible(info, ns, name, options, done);
                    return;
                  }
                  done(fail(store_error(info, name, r.error())));
                });
}

void RestStore::remove_when_visible(const ResourceInfo& info, std::string ns, std::string name,
                                    const DeleteOptions& options, WriteDone done) {
  // `info` by address: it outlives every request, while a copy in this lambda
  // would die before the retry's asynchronous callbacks use it.
  store_.when_visible(store_.latest_revision(),
                      [this, info = &info, ns = std::move(ns), name = std::move(name), options,
                       done = std::move(done)] { remove(*info, ns, name, options, done); });
}

void RestStore::remove_namespace(const ResourceInfo& info, json::object obj,
                                 const storage::StoredObject& current, const DeleteOptions& options,
                                 WriteDone done) {
  const std::string name = api::metadata_string(obj, "name");
  if (name == "default" || name == "kube-system" || name == "kube-public") {
    done(fail(api::forbidden(info.group_resource(), name, "this namespace may not be deleted")));
    return;
  }
  if (has_deletion_timestamp(obj)) {
    done(fail(api::conflict(info.group_resource(), name,
                            "The system is ensuring all content is removed from this namespace.  "
                            "Upon completion, this namespace will automatically be purged by the "
                            "system.")));
    return;
  }
  if (auto next = gc_finalizers(finalizers_of(obj), options)) set_finalizers(obj, *next);
  if (finalizers_of(obj).empty() && !info.strategy->blocks_deletion(obj)) {
    commit_delete(info, name, current.revision, std::move(obj), options.dry_run, std::move(done));
    return;
  }
  metadata(obj)["deletionTimestamp"] = rfc3339_now();
  metadata(obj)["deletionGracePeriodSeconds"] = 0;
  api::ensure_object(obj, "status")["phase"] = "Terminating";
  if (options.dry_run) {
    done(WriteResult{200, save(info, obj, current.revision), std::nullopt});
    return;
  }
  auto shared = std::make_shared<json::object>(std::move(obj));
  storage::Store::Write write;
  write.resource = resource_id(info);
  write.key = name;
  write.op = storage::Store::Op::kUpdate;
  write.expected_revision = current.revision;
  write.build = [this, &info, shared](std::uint64_t revision) {
    return save(info, *shared, revision);
  };
  store_.commit(std::move(write), [this, &info, name, options,
                                   done](Result<storage::ObjectPtr, storage::StoreError> r) {
    if (r) {
      done(WriteResult{200, std::move(*r), std::nullopt});
    } else if (r.error() == storage::StoreError::kConflict) {
      remove(info, "", name, options, done);
    } else {
      done(fail(store_error(info, name, r.error())));
    }
  });
}

}  // namespace kcm::local::apiserver
