// Random (version 4) UUIDs: the fallback event name and the leader identity suffix.
#pragma once

#include <string>

namespace kcm::record {

// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" in lowercase hex (RFC 4122 variant).
std::string new_uuid();

}  // namespace kcm::record
