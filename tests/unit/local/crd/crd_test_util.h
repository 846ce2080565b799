// Helpers shared by the CRD library's tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::crd::testing {

inline boost::json::value parse(std::string_view text) {
  return boost::json::parse(text);
}

inline std::vector<std::string> messages(const api::FieldErrors& errs) {
  std::vector<std::string> out;
  for (const api::FieldError& e : errs)
    out.push_back(e.message());
  return out;
}

}  // namespace kcm::local::crd::testing
