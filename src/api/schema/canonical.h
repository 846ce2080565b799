// An object in the form kube-apiserver stores and serves it: what decoding the
// JSON into the Go struct of its kind and encoding it back produces.
//
// - Members the type does not have are dropped (fieldValidation Ignore/Warn;
//   Strict refuses the body before this runs).
// - Members come out in Go declaration order; map keys sorted.
// - null, and a member absent from the input, become the Go zero value: left
//   out when the field is omitempty (a zero scalar, "", an empty or nil list or
//   map), printed otherwise ("", 0, false, null for nil lists, maps and
//   pointers). Struct values always print, so absent structs appear as their
//   own zero ("resources":{}, "status":{}, a zero metav1.Time as null).
// - A set pointer always prints, zero or empty ("replicas":0, "securityContext":{}).
// - Quantity, Time, MicroTime, Duration and []byte are re-encoded the way
//   their Go types print ("0.5" -> "500m", "+02:00" offsets -> UTC, whole
//   seconds for Time); IntOrString stays a number or a string.
// - RawExtension and FieldsV1 contents are kept as they are.
//
// The result is a fixed point: canonicalizing it again changes nothing. One
// deliberate difference from a single Go round trip follows from that: a
// pointer to a zero Time (deletionTimestamp: "0001-01-01T00:00:00Z") is
// dropped, where Go would print null once and drop it on the next round trip.
//
// Values of the wrong JSON type (which the decoder rejects before this runs)
// are kept unchanged. Nesting deeper than any built-in type allows is left as
// it is rather than walked.
#pragma once

#include "api/json.h"
#include "api/schema/type.h"

namespace kcm::api::schema {

struct CanonicalOptions {
  // Kubernetes after 1.32 (PR #130989) tags ObjectMeta.creationTimestamp
  // omitzero: a zero creation time is left out instead of printed as null.
  bool omit_zero_creation_timestamp = false;
};

// Rewrites `object`, a value of the struct `type` (usually a kind's root from
// Registry::root), into canonical form.
void canonicalize(json::value& object, const Type& type, const CanonicalOptions& opts = {});

}  // namespace kcm::api::schema
