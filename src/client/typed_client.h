// TypedClient<T>: the typed client of a kind declared as a described struct
// (api/kind_info.h, api/described_json.h), over the dynamic ResourceClient.
// Built-in and custom kinds use the same template; no code generator.
//
//   struct EcsBind { static constexpr api::KindInfo kind_info{...}; ... };
//   BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, status, extra))
//
//   auto binds = client::typed_client<EcsBind>(*clientset);  // cluster-scoped
//   auto nodes = client::typed_client<api::core_v1::Node>(*clientset);
//
//   Result<EcsBind, api::Status> bind = binds.get("bind-1");
//   if (!bind && bind.error().is(api::reason::kNotFound)) { ... }
//   bind->status.phase = "Bound";
//   api::set_condition(bind->status.conditions,
//                      {.type = "Ready", .status = "True", .reason = "Bound", .message = ""});
//   auto updated = binds.update_status(*bind);  // 409 Conflict: re-get and retry
//
// Objects are values: what a call returns is the caller's to modify. Members
// the struct does not model survive a get-modify-update (see UnknownFields).
// A response that does not decode as T is the InternalError Status
// `unable to decode EcsBind "bind-1": spec.instanceId: expected string, got number`.
// Thread-safe like ResourceClient.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/described_json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/clientset.h"
#include "client/resource_client.h"
#include "client/watch_event.h"

namespace kcm::client {

template <api::Kind T>
struct TypedList {
  std::vector<T> items;
  std::string resource_version;
  std::string continue_token;  // "" on the last page
};

template <api::Kind T>
struct TypedWatchEvent {
  WatchEventType type;
  // kAdded / kModified / kDeleted: the object; kBookmark: only its
  // metadata.resourceVersion (and annotations) are set.
  T object;
  // kError: what the server sent (e.g. 410 Expired: re-list).
  api::Status status;
};

// Watch events decoded as T. Not copyable; stop() may be called from any thread.
template <api::Kind T>
class TypedWatch {
 public:
  explicit TypedWatch(std::unique_ptr<WatchStream> stream) : stream_(std::move(stream)) {}

  // The next event; nullopt when the stream ended (re-watch from the last
  // resourceVersion). An error when the stream broke or an object did not
  // decode as T; after a decoding error next() may be called again.
  Result<std::optional<TypedWatchEvent<T>>, api::Status> next() {
    auto event = stream_->next();
    if (!event) return fail(std::move(event).error());
    if (!event->has_value()) return std::optional<TypedWatchEvent<T>>();
    WatchEvent& e = **event;
    TypedWatchEvent<T> out{e.type, T{}, api::Status{}};
    if (e.type == WatchEventType::kError) {
      out.status = api::Status::from_json(e.object);
      return std::optional<TypedWatchEvent<T>>(std::move(out));
    }
    auto object = api::decode_object<T>(e.object);
    if (!object) return fail(std::move(object).error());
    out.object = std::move(*object);
    return std::optional<TypedWatchEvent<T>>(std::move(out));
  }
  void stop() { stream_->stop(); }

 private:
  std::unique_ptr<WatchStream> stream_;
};

template <api::Kind T>
class TypedClient {
 public:
  // `client` must be for T's resource (T::kind_info.gvr()); its namespace is
  // the one requests go to ("" for cluster-scoped kinds, or all namespaces
  // for list and watch).
  explicit TypedClient(ResourceClient client) : client_(std::move(client)) {}

  // The same kind in another namespace ("" for all namespaces).
  TypedClient in_namespace(std::string ns) const
      requires(T::kind_info.scope == api::Scope::kNamespaced) {
    return TypedClient(client_.in_namespace(std::move(ns)));
  }
  const std::string& namespace_name() const { return client_.namespace_name(); }
  // The dynamic client underneath, for what this one does not wrap.
  ResourceClient& dynamic() { return client_; }
  const ResourceClient& dynamic() const { return client_; }

  Result<T, api::Status> get(std::string_view name, const GetOptions& options = {}) {
    return decoded(client_.get(name, options));
  }
  // One page (options.limit / continue_token).
  Result<TypedList<T>, api::Status> list(const ListOptions& options = {}) {
    return decoded_list(client_.list(options));
  }
  // Every page, following continue tokens.
  Result<TypedList<T>, api::Status> list_all(const ListOptions& options = {}) {
    return decoded_list(client_.list_all(options));
  }
  Result<TypedWatch<T>, api::Status> watch(const ListOptions& options = {}) {
    auto stream = client_.watch(options);
    if (!stream) return fail(std::move(stream).error());
    return TypedWatch<T>(std::move(*stream));
  }

  // Writes go to the client's namespace; a client for all namespaces uses
  // the object's metadata.namespace.
  Result<T, api::Status> create(const T& object, const CreateOptions& options = {}) {
    return decoded(for_object(object).create(api::encode_json(object), options));
  }
  Result<T, api::Status> update(const T& object, const UpdateOptions& options = {}) {
    return decoded(for_object(object).update(api::encode_json(object), options));
  }
  // PUT .../status: only the status (and metadata) of `object` is taken.
  Result<T, api::Status> update_status(const T& object, const UpdateOptions& options = {}) {
    return decoded(for_object(object).update_status(api::encode_json(object), options));
  }
  // `data` in the format `type` names ("status" as `subresource` patches the status).
  Result<T, api::Status> patch(std::string_view name, PatchType type, std::string_view data,
                               const PatchOptions& options = {},
                               std::string_view subresource = "") {
    return decoded(client_.patch(name, type, data, options, subresource));
  }
  // Deletes `name`. Success also when the object stays for its finalizers
  // (it then has a deletionTimestamp).
  Result<void, api::Status> remove(std::string_view name, const DeleteOptions& options = {}) {
    return client_.delete_object(name, options);
  }

 private:
  ResourceClient for_object(const T& object) const {
    if (T::kind_info.scope == api::Scope::kNamespaced && client_.namespace_name().empty() &&
        !object.metadata.namespace_.empty()) {
      return client_.in_namespace(object.metadata.namespace_);
    }
    return client_;
  }
  static Result<T, api::Status> decoded(Result<boost::json::value, api::Status> r) {
    if (!r) return fail(std::move(r).error());
    return api::decode_object<T>(*r);
  }
  static Result<TypedList<T>, api::Status> decoded_list(Result<cache::ListPage, api::Status> r) {
    if (!r) return fail(std::move(r).error());
    TypedList<T> out;
    out.items.reserve(r->items.size());
    for (const boost::json::value& item : r->items) {
      auto object = api::decode_object<T>(item);
      if (!object) return fail(std::move(object).error());
      out.items.push_back(std::move(*object));
    }
    out.resource_version = std::move(r->resource_version);
    out.continue_token = std::move(r->continue_token);
    return out;
  }

  ResourceClient client_;
};

// The typed client of T: a cluster-scoped kind, or a namespaced kind in all
// namespaces (list and watch only: use in_namespace() for the rest).
template <api::Kind T>
TypedClient<T> typed_client(const Clientset& clientset) {
  return TypedClient<T>(clientset.resource(T::kind_info.gvr()));
}

// The typed client of a namespaced kind T in `ns`.
template <api::Kind T>
requires(T::kind_info.scope ==
         api::Scope::kNamespaced) TypedClient<T> typed_client(const Clientset& clientset,
                                                              std::string ns) {
  return TypedClient<T>(clientset.resource(T::kind_info.gvr(), std::move(ns)));
}

}  // namespace kcm::client
