#include "controller/owner_references.h"

#include <utility>

#include "controller/object_json.h"

namespace kcm::controller {

namespace {

// A string member of `o` ("" when `o` is null or the member absent or null).
Result<std::string_view> string_member(const json::object* o, std::string_view key,
                                       std::string_view path) {
  if (o == nullptr) return std::string_view{};
  const json::value* v = api::find(*o, key);
  if (v == nullptr || v->is_null()) return std::string_view{};
  const json::string* s = v->if_string();
  if (s == nullptr) return fail(member_type_error(path, "string", *v));
  return std::string_view(s->data(), s->size());
}

// The owned object's name and namespace, for messages and validation.
struct Identity {
  std::string_view kind;
  std::string_view namespace_;
  std::string_view name;
};

Result<Identity> identity_of(const json::object& obj) {
  auto meta = find_metadata(obj);
  if (!meta) return fail(meta.error());
  Identity id;
  id.kind = api::as_string_view(api::find(obj, "kind"));
  auto ns = string_member(*meta, "namespace", "metadata.namespace");
  if (!ns) return fail(ns.error());
  auto name = string_member(*meta, "name", "metadata.name");
  if (!name) return fail(name.error());
  id.namespace_ = *ns;
  id.name = *name;
  return id;
}

std::string describe(const Identity& id) {
  std::string out = id.kind.empty() ? "object" : std::string(id.kind);
  out += ' ';
  if (!id.namespace_.empty()) out.append(id.namespace_).append("/");
  out.append(id.name);
  return out;
}

// The members an ownerReference must have (the API server rejects it otherwise).
Result<void> check_owner(const Owner& owner) {
  if (owner.api_version.empty()) return fail("owner: apiVersion is required");
  if (owner.kind.empty()) return fail("owner: kind is required");
  if (owner.name.empty()) return fail("owner: name is required");
  if (owner.uid.empty()) return fail("owner: uid is required");
  if (!api_group_of(owner.api_version)) {
    return fail("owner: unexpected GroupVersion string: " + owner.api_version);
  }
  return {};
}

void write_owner_references(json::object& obj, const std::vector<api::OwnerReference>& refs) {
  json::value& m = obj["metadata"];
  if (!m.is_object()) m = json::object{};  // find_metadata vetted it: absent or null
  json::object& meta = m.as_object();
  if (refs.empty()) {
    meta.erase("ownerReferences");
    return;
  }
  json::array a;
  a.reserve(refs.size());
  for (const api::OwnerReference& r : refs)
    a.push_back(r.to_json());
  meta["ownerReferences"] = std::move(a);
}

void upsert(std::vector<api::OwnerReference>& refs, api::OwnerReference ref) {
  for (api::OwnerReference& r : refs) {
    if (refer_same_object(r, ref)) {
      r = std::move(ref);
      return;
    }
  }
  refs.push_back(std::move(ref));
}

api::OwnerReference with_block(api::OwnerReference ref, std::optional<bool> block) {
  if (block) ref.block_owner_deletion = block;
  return ref;
}

}  // namespace

std::optional<std::string_view> api_group_of(std::string_view api_version) {
  if (api_version.empty() || api_version == "/") return std::string_view{};
  const auto slash = api_version.find('/');
  if (slash == std::string_view::npos) return std::string_view{};
  if (api_version.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
  return api_version.substr(0, slash);
}

Result<Owner> Owner::from_json(const json::object& obj) {
  auto meta = find_metadata(obj, "owner: ");
  if (!meta) return fail(meta.error());
  Owner owner;
  const auto required = [](Result<std::string_view> v, std::string_view path,
                           std::string& out) -> Result<void> {
    if (!v) return fail("owner: " + v.error());
    if (v->empty()) return fail("owner: " + std::string(path) + " is required");
    out = std::string(*v);
    return {};
  };
  if (auto r = required(string_member(&obj, "apiVersion", "apiVersion"), "apiVersion",
                        owner.api_version);
      !r) {
    return fail(r.error());
  }
  if (auto r = required(string_member(&obj, "kind", "kind"), "kind", owner.kind); !r) {
    return fail(r.error());
  }
  if (auto r = required(string_member(*meta, "name", "metadata.name"), "metadata.name", owner.name);
      !r) {
    return fail(r.error());
  }
  if (auto r = required(string_member(*meta, "uid", "metadata.uid"), "metadata.uid", owner.uid);
      !r) {
    return fail(r.error());
  }
  auto ns = string_member(*meta, "namespace", "metadata.namespace");
  if (!ns) return fail("owner: " + ns.error());
  owner.namespace_ = std::string(*ns);
  return owner;
}

Result<Owner> Owner::from_object(const api::Object& obj) {
  return from_json(obj.as_object());
}

Result<std::vector<api::OwnerReference>> owner_references_of(const json::object& obj) {
  std::vector<api::OwnerReference> refs;
  auto meta = find_metadata(obj);
  if (!meta) return fail(meta.error());
  if (*meta == nullptr) return refs;
  const json::value* v = api::find(**meta, "ownerReferences");
  if (v == nullptr || v->is_null()) return refs;
  const json::array* a = v->if_array();
  if (a == nullptr) return fail(member_type_error("metadata.ownerReferences", "array", *v));
  refs.reserve(a->size());
  for (std::size_t i = 0; i < a->size(); ++i) {
    auto r = api::OwnerReference::from_json((*a)[i],
                                            "metadata.ownerReferences[" + std::to_string(i) + "]");
    if (!r) return fail(r.error());
    refs.push_back(std::move(*r));
  }
  return refs;
}

api::OwnerReference owner_reference_to(const Owner& owner) {
  api::OwnerReference ref;
  ref.api_version = owner.api_version;
  ref.kind = owner.kind;
  ref.name = owner.name;
  ref.uid = owner.uid;
  return ref;
}

api::OwnerReference controller_reference_to(const Owner& owner) {
  api::OwnerReference ref = owner_reference_to(owner);
  ref.controller = true;
  ref.block_owner_deletion = true;
  return ref;
}

bool refer_same_object(const api::OwnerReference& a, const api::OwnerReference& b) {
  const auto ga = api_group_of(a.api_version);
  const auto gb = api_group_of(b.api_version);
  return ga && gb && *ga == *gb && a.kind == b.kind && a.name == b.name;
}

Result<void> validate_owner(const Owner& owner, std::string_view object_namespace) {
  if (owner.namespace_.empty()) return {};
  if (object_namespace.empty()) {
    return fail(
        "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace " +
        owner.namespace_);
  }
  if (owner.namespace_ != object_namespace) {
    return fail("cross-namespace owner references are disallowed, owner's namespace " +
                owner.namespace_ + ", obj's namespace " + std::string(object_namespace));
  }
  return {};
}

Result<void> set_controller_reference(const Owner& owner, json::object& controlled,
                                      bool block_owner_deletion) {
  if (auto c = check_owner(owner); !c) return c;
  auto id = identity_of(controlled);
  if (!id) return fail(id.error());
  if (auto v = validate_owner(owner, id->namespace_); !v) return v;
  auto refs = owner_references_of(controlled);
  if (!refs) return fail(refs.error());

  api::OwnerReference ref = controller_reference_to(owner);
  ref.block_owner_deletion = block_owner_deletion;
  for (const api::OwnerReference& existing : *refs) {
    if (!existing.controller.value_or(false)) continue;
    // Only the first controller reference counts (GetControllerOf).
    if (!refer_same_object(existing, ref)) {
      return fail("Object " + std::string(id->namespace_) + "/" + std::string(id->name) +
                  " is already owned by another " + existing.kind + " controller " + existing.name);
    }
    break;
  }
  upsert(*refs, std::move(ref));
  write_owner_references(controlled, *refs);
  return {};
}

Result<void> set_controller_reference(const Owner& owner, api::Object& controlled,
                                      bool block_owner_deletion) {
  return set_controller_reference(owner, controlled.mutable_object(), block_owner_deletion);
}

Result<void> set_owner_reference(const Owner& owner, json::object& object,
                                 std::optional<bool> block_owner_deletion) {
  if (auto c = check_owner(owner); !c) return c;
  auto id = identity_of(object);
  if (!id) return fail(id.error());
  if (auto v = validate_owner(owner, id->namespace_); !v) return v;
  auto refs = owner_references_of(object);
  if (!refs) return fail(refs.error());
  upsert(*refs, with_block(owner_reference_to(owner), block_owner_deletion));
  write_owner_references(object, *refs);
  return {};
}

Result<void> set_owner_reference(const Owner& owner, api::Object& object,
                                 std::optional<bool> block_owner_deletion) {
  return set_owner_reference(owner, object.mutable_object(), block_owner_deletion);
}

Result<void> remove_owner_reference(const Owner& owner, json::object& object) {
  auto id = identity_of(object);
  if (!id) return fail(id.error());
  auto refs = owner_references_of(object);
  if (!refs) return fail(refs.error());
  if (refs->empty()) return fail(describe(*id) + " does not have any owner references");
  const api::OwnerReference target = owner_reference_to(owner);
  for (auto it = refs->begin(); it != refs->end(); ++it) {
    if (!refer_same_object(*it, target)) continue;
    refs->erase(it);
    write_owner_references(object, *refs);
    return {};
  }
  return fail(describe(*id) + " does not have an owner reference for " + owner.kind + " " +
              owner.name);
}

Result<void> remove_owner_reference(const Owner& owner, api::Object& object) {
  return remove_owner_reference(owner, object.mutable_object());
}

bool has_owner_reference(const json::object& object, const Owner& owner) {
  const auto refs = owner_references_of(object);
  if (!refs) return false;
  const api::OwnerReference target = owner_reference_to(owner);
  for (const api::OwnerReference& r : *refs) {
    if (refer_same_object(r, target)) return true;
  }
  return false;
}

bool has_controller_reference(const json::object& object) {
  return get_controller_of(object).has_value();
}

std::optional<api::OwnerReference> get_controller_of(const json::object& object) {
  auto refs = owner_references_of(object);
  if (!refs) return std::nullopt;
  for (api::OwnerReference& r : *refs) {
    if (r.controller.value_or(false)) return std::move(r);
  }
  return std::nullopt;
}

bool is_controlled_by(const json::object& object, std::string_view owner_uid) {
  const auto ref = get_controller_of(object);
  return ref && ref->uid == owner_uid;
}

}  // namespace kcm::controller
