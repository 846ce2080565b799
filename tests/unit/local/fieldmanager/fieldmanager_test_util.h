// What the field manager tests share: JSON from text and field sets as text.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "api/json.h"
#include "api/schema/registry.h"
#include "local/fieldmanager/field_set.h"

namespace kcm::local::fieldmanager::testing {

inline json::value parse(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  EXPECT_TRUE(v) << error << "\n" << text;
  return v ? *v : json::value();
}

inline std::string text(const FieldSet& s) {
  return api::to_json_string(s.to_fields_v1());
}

inline FieldSet fields(std::string_view fields_v1) {
  auto set = FieldSet::from_fields_v1(parse(fields_v1));
  EXPECT_TRUE(set) << set.error();
  return set ? *set : FieldSet{};
}

inline const api::schema::Type& deployment_type() {
  return *api::schema::Registry::builtin().root({"apps", "v1", "Deployment"});
}

}  // namespace kcm::local::fieldmanager::testing
