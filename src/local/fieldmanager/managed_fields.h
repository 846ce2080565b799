// metadata.managedFields: which manager owns which fields of an object, and
// by which operation (Apply or Update), as upstream's ManagedFieldsEntry.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "local/fieldmanager/field_set.h"

namespace kcm::local::fieldmanager {

inline constexpr std::string_view kApply = "Apply";
inline constexpr std::string_view kUpdate = "Update";

struct ManagerEntry {
  std::string manager;
  std::string operation;  // kApply or kUpdate
  std::string api_version;
  std::string subresource;          // "" or "status"
  std::optional<std::string> time;  // RFC 3339, when the manager last changed the object
  FieldSet fields;
  // The stored FieldsV1, kept as it is instead of `fields` when a write
  // touches none of it: most writes change one manager's fields, and
  // decoding and encoding every other entry would cost more than the write.
  std::optional<json::value> stored_fields;

  // Whether `other` is the same manager (upstream's BuildManagerIdentifier):
  // name, operation and subresource, and the API version for updates.
  bool same_manager(const ManagerEntry& other) const;
  // The manager as conflict messages name it: "\"kubectl\"",
  // "\"kcm\" with subresource \"status\" using apps/v1".
  std::string printed() const;
};

// The entries of `obj`'s metadata.managedFields (none when absent), with
// upstream's decoding errors. With `touching`, entries whose fields include
// none of its paths (nor anything below them) keep stored_fields instead.
Result<std::vector<ManagerEntry>> decode_managed_fields(const json::object& obj,
                                                        const FieldSet* touching = nullptr);

// Decodes an entry's stored_fields into fields (an entry kept undecoded was
// read once already: a malformed one counts as empty).
void load_fields(ManagerEntry& entry);

// Sets `obj`'s metadata.managedFields to `entries` in upstream's order
// (Apply before Update, then by time, manager, API version, subresource);
// removes the member when there are none.
void encode_managed_fields(json::object& obj, std::vector<ManagerEntry> entries);

}  // namespace kcm::local::fieldmanager
