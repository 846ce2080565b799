// Server-side apply and managed-fields tracking for one resource (or its
// status subresource), as kube-apiserver's field manager: every write records
// which manager set which fields in metadata.managedFields; an apply merges a
// configuration into the live object, removes the fields its manager stopped
// applying, and refuses to change fields other managers own unless forced.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/result.h"
#include "local/fieldmanager/field_set.h"
#include "local/fieldmanager/managed_fields.h"
#include "local/fieldmanager/type_ref.h"
#include "local/fieldmanager/typed.h"

namespace kcm::local::fieldmanager {

// upstream's DefaultMaxUpdateManagers: older Update entries merge into
// kAncientChanges beyond this many.
inline constexpr std::size_t kMaxUpdateManagers = 10;
inline constexpr std::string_view kAncientChanges = "ancient-changes";
// The manager that owns an object's fields when it is first applied to
// without having any managed fields.
inline constexpr std::string_view kBeforeFirstApply = "before-first-apply";
// validation.FieldManagerMaxLength.
inline constexpr std::size_t kFieldManagerMaxLength = 128;

// A field another manager owns that an apply would change.
struct Conflict {
  ManagerEntry manager;  // fields empty
  Path path;
};

// Why an apply failed.
struct ApplyFailure {
  enum Code {
    kConflict,    // 409, `conflicts`
    kBadRequest,  // 400, `message`
    kTypedPatch,  // the configuration does not fit the type: `message` lists where
    kInternal,    // 500, `message`
  };
  std::vector<Conflict> conflicts;
  Code code = kConflict;
  std::string message;
};

// "Apply failed with 1 conflict: conflict with \"m\" using apps/v1: .spec.replicas".
std::string conflict_message(const std::vector<Conflict>& conflicts);

// upstream's ValidateFieldManager: at most kFieldManagerMaxLength bytes, and
// printable characters only. `path`: where the errors point.
api::FieldErrors validate_field_manager(std::string_view manager,
                                        std::string_view path = "fieldManager");

// upstream's ValidateManagedFields, for an object's metadata.managedFields:
// operations Apply or Update, fieldsType FieldsV1 when given, valid manager
// names, subresources of at most 256 bytes.
api::FieldErrors validate_managed_fields(const json::array& entries);

// The manager a request without fieldManager is recorded under: its
// User-Agent up to the first "/", printable characters only, at most 128 bytes.
std::string manager_from_user_agent(std::string_view user_agent);

class FieldManager {
 public:
  // `zero`: the kind's zero object, what a create starts from (its non-pointer
  // structs exist, so that a create does not own them as such).
  // `reset`: the fields the (sub)resource's strategy resets, which nobody owns
  // through it (status for the main resource, spec for /status).
  // `type_owner`: what `type` points into, kept alive with the manager (a
  // custom resource's schema, which a CRD update replaces).
  FieldManager(TypeRef type, json::object zero, std::string api_version, std::string subresource,
               FieldSet reset, std::shared_ptr<const void> type_owner = nullptr);

  const json::object& zero() const { return zero_; }

  // A create, update or non-apply patch by `manager` from `live` (zero() for
  // a create) to `updated`: what it changed becomes its own and no one else's.
  // Writes updated's managedFields. As upstream:
  // - managed fields a client put into `updated` are the starting point
  //   instead of live's (kubectl rewrites them when it moves an object from
  //   client-side to server-side apply), and `[]` clears them;
  // - an existing object without managed fields is not tracked.
  Result<void, std::string> update(const json::object& live, json::object& updated,
                                   std::string_view manager, std::string_view now) const;

  // Applies `config` for `manager` to `live` (zero() with name and namespace
  // for a create). Returns the new object with its managedFields. Fields of
  // an existing object without managed fields first go to kBeforeFirstApply.
  Result<json::object, ApplyFailure> apply(const json::object& live, const json::object& config,
                                           std::string_view manager, bool force,
                                           std::string_view now) const;

 private:
  json::value prune(const json::value& merged, const std::vector<ManagerEntry>& entries,
                    const FieldSet& last_applied) const;
  // The fields live's kubectl last-applied annotation sets that still hold
  // the values it gives them (upstream's lastAppliedManager).
  FieldSet unchanged_last_applied(const json::object& live) const;
  // What changed from `from` to `to`, reset fields left out.
  Result<Comparison, std::string> changes(const json::object& from, const json::object& to) const;

  std::shared_ptr<const void> type_owner_;
  TypeRef type_;
  json::object zero_;
  std::string api_version_;
  std::string subresource_;
  FieldSet reset_;
};

// The Update entries beyond kMaxUpdateManagers, oldest first, merged per API
// version into kAncientChanges (upstream's capManagersManager).
void cap_update_managers(std::vector<ManagerEntry>& entries);

}  // namespace kcm::local::fieldmanager
