// Helpers shared by the registry tests: JSON literals and error listings.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry::testing {

namespace json = boost::json;

inline json::object obj(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  EXPECT_TRUE(v.has_value()) << error << " in " << text;
  if (!v || !v->is_object()) return {};
  return v->get_object();
}

inline json::value load_data(const std::string& name) {
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string error;
  auto v = api::parse_json(ss.str(), &error);
  EXPECT_TRUE(v.has_value()) << name << ": " << error;
  return v ? *v : json::value();
}

// "field: body" per error, one per line.
inline std::string messages(const api::FieldErrors& errs) {
  std::string out;
  for (const auto& e : errs)
    out += e.message() + "\n";
  return out;
}

inline bool has_message(const api::FieldErrors& errs, std::string_view message) {
  for (const auto& e : errs) {
    if (e.message() == message) return true;
  }
  return false;
}

}  // namespace kcm::local::registry::testing
