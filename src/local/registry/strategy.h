// Per-kind API rules, as upstream's registry strategies: defaulting, what
// create and update may change, validation, and selectable fields. The
// generic REST store (local/apiserver/rest_store.h) calls these in upstream's
// order: defaults, prepare, then validate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

class Strategy {
 public:
  virtual ~Strategy() = default;

  // Fills defaults (upstream's SetDefaults_* for the served version). Runs on
  // every decoded request object, and on patch results, before prepare.
  virtual void apply_defaults(json::object& /*obj*/) const {}

  // Create: e.g. clear status, set generation.
  virtual void prepare_for_create(json::object& /*obj*/) const {}
  // Update of the main resource: e.g. keep status from `old`, bump generation
  // when the spec changed.
  virtual void prepare_for_update(json::object& /*obj*/, const json::object& /*old*/) const {}
  // Update through the status subresource: e.g. keep spec from `old`.
  virtual void prepare_for_status_update(json::object& /*obj*/, const json::object& /*old*/) const {
  }

  // Custom resources: the paths of `obj` that their schema does not declare
  // (`spec.foo`), which fieldValidation reports as unknown fields; nullopt for
  // kinds whose bodies are checked against their built-in type definition.
  virtual std::optional<std::vector<std::string>> unknown_fields(
      const json::object& /*obj*/) const {
    return std::nullopt;
  }

  // Kind-specific validation (metadata is validated generically).
  virtual api::FieldErrors validate(const json::object& /*obj*/) const { return {}; }
  virtual api::FieldErrors validate_update(const json::object& obj,
                                           const json::object& /*old*/) const {
    return validate(obj);
  }
  virtual api::FieldErrors validate_status_update(const json::object& /*obj*/,
                                                  const json::object& /*old*/) const {
    return {};
  }

  // Graceful deletion (pods): the grace period a DELETE with `requested` seconds
  // (nullopt: not given) gets; nullopt when the kind is not deleted gracefully.
  virtual std::optional<std::int64_t> graceful_delete_period(
      const json::object& /*obj*/, std::optional<std::int64_t> /*requested*/) const {
    return std::nullopt;
  }

  // The first DELETE of an object, before finalizers are looked at: a kind that
  // must clean up first adds its own finalizer here (CRDs: the cleanup of
  // their custom objects), as upstream's REST Delete overrides do.
  virtual void prepare_for_delete(json::object& /*obj*/) const {}

  // Whether something besides metadata.finalizers keeps an object that is
  // being deleted (a namespace's spec.finalizers).
  virtual bool blocks_deletion(const json::object& /*obj*/) const { return false; }

  // Appends the values of the kind's selectable fields beyond metadata.name and
  // metadata.namespace, in the order of ResourceInfo::selectable_fields.
  virtual void field_values(const json::object& /*obj*/, std::vector<std::string>& /*out*/) const {}
};

}  // namespace kcm::local::registry
