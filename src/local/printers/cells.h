// Helpers the kind printers share: tolerant field access on stored objects,
// ages (upstream's translateTimestampSince), container layout and the column
// descriptions several kinds use. Internal to local/printers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "api/json.h"
#include "api/time.h"
#include "local/printers/table.h"

namespace kcm::local::printers {

// metav1.ObjectMeta's documentation of name and creationTimestamp, which
// upstream uses as the NAME and AGE column descriptions.
inline constexpr std::string_view kNameDescription =
    "Name must be unique within a namespace. Is required when creating resources, although some "
    "resources may allow a client to request the generation of an appropriate name automatically. "
    "Name is primarily intended for creation idempotence and configuration definition. Cannot be "
    "updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
inline constexpr std::string_view kCreationTimestampDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. "
    "It is not guaranteed to be set in happens-before order across separate operations. Clients "
    "may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the "
    "system. Read-only. Null for lists. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#metadata";
inline constexpr std::string_view kContainersDescription =
    "Names of each container in the template.";
inline constexpr std::string_view kImagesDescription =
    "Images referenced by each container in the template.";

// Field access that treats absent, null and wrongly typed members as Go's zero
// values (stored objects were validated, but a printer must never throw).
// `o` may be null.
const json::object* object_at(const json::object* o, std::string_view key);
const json::array* array_at(const json::object* o, std::string_view key);
std::string_view string_at(const json::object* o, std::string_view key);
std::int64_t int_at(const json::object* o, std::string_view key, std::int64_t zero = 0);
bool bool_at(const json::object* o, std::string_view key);
// Go's len() of a map member: 0 when absent, null or not an object.
std::int64_t map_len_at(const json::object* o, std::string_view key);
// A *T in Go: true when the member is there and not null.
bool present(const json::object* o, std::string_view key);
// metav1.Time or MicroTime; the zero time when absent, null or unparsable.
api::Time time_at(const json::object* o, std::string_view key);

// upstream translateTimestampSince: HumanDuration(now - t), "<unknown>" for zero.
std::string age(const api::Time& t, TimePoint now);
// The AGE cell: the age of metadata.creationTimestamp.
std::string creation_age(const json::object& object, TimePoint now);
std::string_view object_name(const json::object& object);

// upstream layoutContainerCells: names and images, comma separated.
std::pair<std::string, std::string> layout_container_cells(const json::array* containers);

// Go's strings.ToLower for the ASCII letters kinds are made of.
std::string ascii_lower(std::string_view s);
// Go's strings.TrimSpace: strips Unicode white space (UTF-8) at both ends.
std::string_view trim_space(std::string_view s);

}  // namespace kcm::local::printers
