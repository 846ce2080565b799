// The tag of a container image reference, as upstream's parsers.ParseImageName
// reads it to default imagePullPolicy.
#pragma once

#include <string>
#include <string_view>

namespace kcm::local::registry {

// "latest" when the reference names neither a tag nor a digest; "" when it
// has only a digest or does not parse (upstream ignores the parse error).
std::string image_tag(std::string_view image);

// imagePullPolicy's default: Always for the latest tag, else IfNotPresent.
std::string default_pull_policy(std::string_view image);

}  // namespace kcm::local::registry
