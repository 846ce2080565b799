// Identifiers and timestamps the server assigns to new objects.
#pragma once

#include <chrono>
#include <string>

namespace kcm::local::apiserver {

// A random (version 4) UUID, as metadata.uid.
std::string new_uid();

// The 5 random characters appended to metadata.generateName (upstream's
// alphabet without vowels, so names never spell words).
std::string generate_name_suffix();

// Now (plus `offset`) as RFC 3339 in UTC with seconds, as metav1.Time prints.
std::string rfc3339_now(std::chrono::seconds offset = std::chrono::seconds(0));

}  // namespace kcm::local::apiserver
