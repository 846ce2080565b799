// The status the naming and establishing controllers give a
// CustomResourceDefinition (upstream's controller/status/naming_controller.go
// and controller/establish), as one pure function.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "api/json.h"

namespace kcm::local::crd {

namespace json = boost::json;

// Names other CRDs of the same group have already been given (their
// status.acceptedNames).
struct TakenNames {
  std::set<std::string> resources;  // plurals, singulars and short names
  std::set<std::string> kinds;      // kinds and list kinds
};

// Adds a CRD's accepted names (its status.acceptedNames) to `taken`.
void add_accepted_names(const json::object& crd, TakenNames& taken);

// The new status of `crd`: status.acceptedNames (each requested name that is
// free or already ours; conflicting ones keep their old accepted value),
// categories always taken over; the NamesAccepted condition (True/NoConflicts/
// "no conflicts found", or False with PluralConflict, SingularConflict,
// ShortNamesConflict, KindConflict or ListKindConflict and `"x" is already in
// use`); the Established condition (True/InitialNamesAccepted once names are
// accepted and `establish` is true; False/Installing before the establishing
// step; False/NotAccepted when names were never accepted; an Established
// condition that was True stays). Conditions keep their order and
// lastTransitionTime unless their status changes (then `now`, RFC 3339).
// Other status members (storedVersions, other conditions) are kept.
json::object crd_status(const json::object& crd, const TakenNames& taken, std::string_view now,
                        bool establish = true);

// Whether the CRD has the condition `type` with status "True".
bool crd_condition_true(const json::object& crd, std::string_view type);

}  // namespace kcm::local::crd
