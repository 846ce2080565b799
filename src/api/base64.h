// Base64 (RFC 4648) as Kubernetes uses it: standard alphabet with padding for
// kubeconfig data and Secrets, URL-safe without padding for continue tokens.
#pragma once

#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::api {

enum class Base64Alphabet { kStandard, kUrlUnpadded };

std::string base64_encode(std::string_view data,
                          Base64Alphabet alphabet = Base64Alphabet::kStandard);

// Strict decoding: characters outside the alphabet, bad padding or a
// truncated final group are errors naming the offset.
Result<std::string> base64_decode(std::string_view text,
                                  Base64Alphabet alphabet = Base64Alphabet::kStandard);

}  // namespace kcm::api
