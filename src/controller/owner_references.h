// Owner-reference helpers for controller authors (controller-runtime's
// controllerutil: SetControllerReference, SetOwnerReference,
// RemoveOwnerReference, HasControllerReference, HasOwnerReference, and
// apimachinery's GetControllerOf / IsControlledBy) over an object's JSON.
//
// Only metadata.ownerReferences is touched; references that are not changed
// re-encode exactly as they were read (api::OwnerReference is lossless).
// Adoption and release of existing dependents by selector is
// controller_ref_manager.h's job; these helpers are for the objects a
// controller creates.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/object.h"
#include "api/object_meta.h"
#include "api/result.h"

namespace kcm::controller {

namespace json = api::json;

// The object that owns another, as an owner reference names it.
struct Owner {
  std::string api_version;  // "apps/v1", "v1"
  std::string kind;         // "ReplicaSet"
  std::string name;
  std::string uid;
  // The owner's namespace; empty for a cluster-scoped owner. Used only to
  // validate the owned object's scope (controller-runtime's validateOwner).
  std::string namespace_;

  bool namespaced() const { return !namespace_.empty(); }

  // From a whole object: apiVersion, kind, metadata.name and metadata.uid
  // must be non-empty strings; metadata.namespace is optional. Errors:
  // "owner: apiVersion is required", "owner: metadata.uid: expected string,
  // got number", "owner: metadata: expected object, got array".
  static Result<Owner> from_json(const json::object& obj);
  static Result<Owner> from_object(const api::Object& obj);
};

// metadata.ownerReferences, decoded (empty when metadata or the member is
// absent or null). Errors name the member:
// "metadata.ownerReferences[1].controller: expected boolean, got string".
Result<std::vector<api::OwnerReference>> owner_references_of(const json::object& obj);

// A reference to `owner` (apiVersion, kind, name, uid) without the
// controller and blockOwnerDeletion members.
api::OwnerReference owner_reference_to(const Owner& owner);
// metav1.NewControllerRef: controller and blockOwnerDeletion true.
api::OwnerReference controller_reference_to(const Owner& owner);

// The API group of an apiVersion ("apps/v1" -> "apps", "v1" -> ""), or
// nullopt when it does not parse (more than one '/'), as upstream
// schema.ParseGroupVersion.
std::optional<std::string_view> api_group_of(std::string_view api_version);

// upstream referSameObject: same API group (the version may differ), kind and
// name. False when either apiVersion does not parse ("a/b/c").
bool refer_same_object(const api::OwnerReference& a, const api::OwnerReference& b);

// controller-runtime's validateOwner, for an owned object in
// `object_namespace` ("" when cluster-scoped):
// "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace <ns>"
// "cross-namespace owner references are disallowed, owner's namespace <ns>, obj's namespace <ns>"
Result<void> validate_owner(const Owner& owner, std::string_view object_namespace);

// SetControllerReference: validates the owner, then makes `owner` the
// controller of `controlled` (controller and blockOwnerDeletion true, unless
// `block_owner_deletion` is false: WithBlockOwnerDeletion). An existing
// reference to the same group/kind/name is replaced, others are kept. When
// another object already controls it:
// "Object <ns>/<name> is already owned by another <Kind> controller <name>".
// Also fails on an owner without apiVersion, kind, name or uid ("owner: uid
// is required") and on malformed metadata; `controlled` is unchanged then.
Result<void> set_controller_reference(const Owner& owner, json::object& controlled,
                                      bool block_owner_deletion = true);
Result<void> set_controller_reference(const Owner& owner, api::Object& controlled,
                                      bool block_owner_deletion = true);

// SetOwnerReference: validates the owner, then upserts a non-controller
// reference to it (matched by group/kind/name), keeping the others.
// `block_owner_deletion` set: written as given (WithBlockOwnerDeletion).
Result<void> set_owner_reference(const Owner& owner, json::object& object,
                                 std::optional<bool> block_owner_deletion = std::nullopt);
Result<void> set_owner_reference(const Owner& owner, api::Object& object,
                                 std::optional<bool> block_owner_deletion = std::nullopt);

// RemoveOwnerReference: removes the reference to `owner`'s group/kind/name.
// Errors (Go's %T becomes the kind): "<Kind> <ns>/<name> does not have any
// owner references" and "<Kind> <ns>/<name> does not have an owner reference
// for <OwnerKind> <name>". A list left empty is removed.
Result<void> remove_owner_reference(const Owner& owner, json::object& object);
Result<void> remove_owner_reference(const Owner& owner, api::Object& object);

// HasOwnerReference: a reference to `owner`'s group/kind/name exists.
bool has_owner_reference(const json::object& object, const Owner& owner);
// HasControllerReference: some reference has controller=true.
bool has_controller_reference(const json::object& object);
// GetControllerOf: the first reference with controller=true, if any.
std::optional<api::OwnerReference> get_controller_of(const json::object& object);
// IsControlledBy: the controller reference's uid is `owner_uid`.
bool is_controlled_by(const json::object& object, std::string_view owner_uid);
// The predicates above see no references in an object whose
// ownerReferences do not decode (owner_references_of says why).

}  // namespace kcm::controller
