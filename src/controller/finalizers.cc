#include "controller/finalizers.h"

#include <algorithm>
#include <utility>

#include "client/rest_client.h"
#include "controller/object_json.h"

namespace kcm::controller {

namespace {

// metadata, created when absent or null.
Result<json::object*> mutable_metadata(json::object& obj) {
  json::value& m = obj["metadata"];
  if (m.is_null()) m = json::object{};
  if (!m.is_object()) return fail(member_type_error("metadata", "object", m));
  return &m.as_object();
}

Result<std::vector<std::string>> read_finalizers(const json::object* meta) {
  std::vector<std::string> out;
  if (meta == nullptr) return out;
  const json::value* f = api::find(*meta, "finalizers");
  if (f == nullptr || f->is_null()) return out;
  const json::array* a = f->if_array();
  if (a == nullptr) return fail(member_type_error("metadata.finalizers", "array", *f));
  out.reserve(a->size());
  for (std::size_t i = 0; i < a->size(); ++i) {
    const json::string* s = (*a)[i].if_string();
    if (s == nullptr) {
      return fail(
          member_type_error("metadata.finalizers[" + std::to_string(i) + "]", "string", (*a)[i]));
    }
    out.emplace_back(s->data(), s->size());
  }
  return out;
}

json::array to_array(const std::vector<std::string>& items) {
  json::array a;
  a.reserve(items.size());
  for (const std::string& s : items)
    a.emplace_back(s);
  return a;
}

void write_finalizers(json::object& meta, const std::vector<std::string>& finalizers) {
  if (finalizers.empty()) {
    meta.erase("finalizers");
  } else {
    meta["finalizers"] = to_array(finalizers);
  }
}

Result<void> check_name(std::string_view finalizer) {
  if (finalizer.empty()) return fail("finalizer name must not be empty");
  return {};
}

// The finalizer list with `finalizer` added (true) or removed (false);
// nullopt when nothing changes.
std::optional<std::vector<std::string>> changed(std::vector<std::string> list,
                                                std::string_view finalizer, bool add) {
  if (add) {
    if (std::find(list.begin(), list.end(), finalizer) != list.end()) return std::nullopt;
    list.emplace_back(finalizer);
    return list;
  }
  const auto removed = std::remove(list.begin(), list.end(), finalizer);
  if (removed == list.end()) return std::nullopt;
  list.erase(removed, list.end());
  return list;
}

Result<bool> edit(json::object& obj, std::string_view finalizer, bool add) {
  if (auto c = check_name(finalizer); !c) return fail(c.error());
  auto list = finalizers_of(obj);
  if (!list) return fail(list.error());
  auto next = changed(std::move(*list), finalizer, add);
  if (!next) return false;  // nothing written, not even an empty metadata
  auto meta = mutable_metadata(obj);
  if (!meta) return fail(meta.error());
  write_finalizers(**meta, *next);
  return true;
}

Result<std::optional<json::value>, api::Status> patch_edit(client::ResourceClient& client,
                                                           const json::object& obj,
                                                           std::string_view finalizer, bool add) {
  if (auto c = check_name(finalizer); !c) return fail(client::client_error(c.error()));
  auto meta = find_metadata(obj);
  if (!meta) return fail(client::client_error(meta.error()));
  auto list = read_finalizers(*meta);
  if (!list) return fail(client::client_error(list.error()));
  auto next = changed(std::move(*list), finalizer, add);
  if (!next) return std::optional<json::value>();

  const json::object* m = *meta;
  const std::string_view name = m ? api::as_string_view(api::find(*m, "name")) : "";
  const std::string_view rv = m ? api::as_string_view(api::find(*m, "resourceVersion")) : "";
  const std::string_view ns = m ? api::as_string_view(api::find(*m, "namespace")) : "";
  if (name.empty()) return fail(client::client_error("object has no name"));
  // Without it the patch would overwrite whatever list the server holds.
  if (rv.empty()) return fail(client::client_error("object has no resourceVersion"));

  const std::string patch = finalizers_merge_patch(*next, rv);
  auto answer =
      (!ns.empty() && ns != client.namespace_name())
          ? client.in_namespace(std::string(ns)).patch(name, client::PatchType::kMerge, patch)
          : client.patch(name, client::PatchType::kMerge, patch);
  if (!answer) return fail(std::move(answer).error());
  return std::optional<json::value>(std::move(*answer));
}

// A string member of metadata ("" when absent or of another type). Not
// api::find_path: it takes a json::value, and a json::object argument would
// bind to a temporary copy.
std::string_view metadata_string(const json::object& obj, std::string_view key) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta ? api::as_string_view(api::find(*meta, key)) : std::string_view{};
}

}  // namespace

Result<std::vector<std::string>> finalizers_of(const json::object& obj) {
  auto meta = find_metadata(obj);
  if (!meta) return fail(meta.error());
  return read_finalizers(*meta);
}

bool has_finalizer(const json::object& obj, std::string_view name) {
  const auto list = finalizers_of(obj);
  return list.ok() && std::find(list->begin(), list->end(), name) != list->end();
}

bool has_finalizer(const api::Object& obj, std::string_view name) {
  return has_finalizer(obj.as_object(), name);
}

Result<bool> add_finalizer(json::object& obj, std::string_view name) {
  return edit(obj, name, true);
}

Result<bool> add_finalizer(api::Object& obj, std::string_view name) {
  return edit(obj.mutable_object(), name, true);
}

Result<bool> remove_finalizer(json::object& obj, std::string_view name) {
  return edit(obj, name, false);
}

Result<bool> remove_finalizer(api::Object& obj, std::string_view name) {
  return edit(obj.mutable_object(), name, false);
}

bool being_deleted(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  const json::value* ts = meta ? api::find(*meta, "deletionTimestamp") : nullptr;
  return ts != nullptr && !ts->is_null();
}

std::string finalizers_merge_patch(const std::vector<std::string>& finalizers,
                                   std::string_view resource_version) {
  json::object meta;
  if (finalizers.empty()) {
    meta["finalizers"] = nullptr;  // merge patch: delete the member
  } else {
    meta["finalizers"] = to_array(finalizers);
  }
  meta["resourceVersion"] = resource_version;
  json::object patch;
  patch["metadata"] = std::move(meta);
  return json::serialize(patch);
}

Result<std::optional<json::value>, api::Status> patch_add_finalizer(client::ResourceClient& client,
                                                                    const json::object& obj,
                                                                    std::string_view finalizer) {
  return patch_edit(client, obj, finalizer, true);
}

Result<std::optional<json::value>, api::Status> patch_remove_finalizer(
    client::ResourceClient& client, const json::object& obj, std::string_view finalizer) {
  return patch_edit(client, obj, finalizer, false);
}

FinalizeResult finalize(client::ResourceClient& client, const json::object& obj,
                        std::string_view finalizer_name, const FinalizerFn& apply,
                        const FinalizerFn& cleanup) {
  FinalizeResult result;
  const auto invalid = [&result](std::string message) {
    result.error = FinalizeError{FinalizeErrorKind::kInvalidObject, std::move(message), {}};
    return result;
  };
  if (auto c = check_name(finalizer_name); !c) return invalid(c.error());
  auto list = finalizers_of(obj);
  if (!list) return invalid(list.error());
  if (metadata_string(obj, "name").empty()) {
    return invalid("object has no name");
  }
  const bool has = std::find(list->begin(), list->end(), finalizer_name) != list->end();
  const bool deleting = being_deleted(obj);

  const auto patch_failed = [&result](FinalizeErrorKind kind, std::string_view what,
                                      api::Status status) {
    result.error = FinalizeError{kind, std::string(what) + status.message, std::move(status)};
    return result;
  };
  const auto sent = [&result](std::optional<json::value> answer) {
    result.object = std::move(answer);
    return result;
  };

  if (deleting && !has) return result;  // kNothing

  if (deleting) {
    result.action = FinalizeAction::kCleanedUp;
    if (auto c = cleanup ? cleanup(obj) : Result<void>(); !c) {
      result.error =
          FinalizeError{FinalizeErrorKind::kCleanup, "failed to clean up object: " + c.error(), {}};
      return result;
    }
    auto removed = patch_remove_finalizer(client, obj, finalizer_name);
    if (!removed) {
      return patch_failed(FinalizeErrorKind::kRemoveFinalizer,
                          "failed to remove finalizer: ", std::move(removed).error());
    }
    return sent(std::move(*removed));
  }

  if (!has) {
    // Apply waits for the next reconcile, which the patch's event triggers.
    result.action = FinalizeAction::kAddedFinalizer;
    auto added = patch_add_finalizer(client, obj, finalizer_name);
    if (!added) {
      return patch_failed(FinalizeErrorKind::kAddFinalizer,
                          "failed to add finalizer: ", std::move(added).error());
    }
    return sent(std::move(*added));
  }

  result.action = FinalizeAction::kApplied;
  if (auto a = apply ? apply(obj) : Result<void>(); !a) {
    result.error =
        FinalizeError{FinalizeErrorKind::kApply, "failed to apply object: " + a.error(), {}};
  }
  return result;
}

}  // namespace kcm::controller
