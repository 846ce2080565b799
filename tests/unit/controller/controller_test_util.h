// Helpers the controller suite's tests share. The suite's files are compiled
// in batches (tests/CMakeLists.txt), so a helper two files need lives here once.
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/time.h"

namespace kcm::controller {

// The time `rfc3339` names; it must be valid.
inline api::Time time_at(const char* rfc3339) {
  return *api::Time::parse(rfc3339);
}

// `text`, a JSON object.
inline api::json::object json_object(std::string_view text) {
  return api::json::parse(text).as_object();
}

}  // namespace kcm::controller
