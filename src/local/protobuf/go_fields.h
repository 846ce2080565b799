// What the schema does not say about the Go struct behind each field, and
// what decides how a decoded object prints as JSON: whether the Go field is a
// pointer (so "set to zero" and "unset" differ) and whether its json tag has
// omitempty. Taken from k8s.io/api's types.go for the served types.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/schema/type.h"

namespace kcm::local::protobuf {

enum class GoPresence : std::uint8_t {
  // A value field with omitempty: zero scalars and nil lists/maps are left
  // out; structs (and Time, Quantity, IntOrString...) are always printed.
  kOmitEmpty,
  // A value field without omitempty: always printed, zero scalars included,
  // nil lists and maps as null.
  kAlways,
  // A pointer with omitempty: printed exactly when it was set.
  kPointer,
  // A pointer without omitempty: printed when set, null otherwise.
  kPointerOrNull,
};

// The presence rule of `field`, a field of `type`. Without an entry in the
// table, a field is a value field whose omitempty is the opposite of the
// schema's `req` flag (kube-openapi marks exactly the fields without
// omitempty as required, with a handful of exceptions the table lists).
GoPresence go_presence(const api::schema::Type& type, const api::schema::Field& field);

// The table's keys ("core/v1.PodSpec.priority"), so tests can check that
// each names a field of the built-in registry.
std::vector<std::string_view> go_presence_overrides();

}  // namespace kcm::local::protobuf
