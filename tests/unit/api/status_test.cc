#include "api/status.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

TEST(StatusTest, NotFoundMatchesUpstream) {
  Status s = not_found({"apps", "deployments"}, "web");
  EXPECT_EQ(s.code, 404);
  EXPECT_EQ(s.reason, "NotFound");
  EXPECT_EQ(s.message, R"(deployments.apps "web" not found)");
  EXPECT_EQ(to_json_string(s.to_json()),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"deployments.apps \"web\" not found","reason":"NotFound",)"
            R"("details":{"name":"web","group":"apps","kind":"deployments"},"code":404})");
}

TEST(StatusTest, CoreGroupHasNoSuffix) {
  EXPECT_EQ(not_found({"", "pods"}, "p").message, R"(pods "p" not found)");
}

TEST(StatusTest, ConflictMessage) {
  Status s = conflict({"apps", "deployments"}, "web", kObjectModified);
  EXPECT_EQ(s.code, 409);
  EXPECT_EQ(s.message,
            "Operation cannot be fulfilled on deployments.apps \"web\": the object has been "
            "modified; please apply your changes to the latest version and try again");
}

TEST(StatusTest, InvalidAggregatesCauses) {
  FieldErrors errs = {invalid("spec.replicas", json::value(-1), "must be greater than or equal to 0"),
                      required("spec.template.spec.containers[0].image")};
  Status s = invalid(GroupKind{"apps", "Deployment"}, "web", errs);
  EXPECT_EQ(s.code, 422);
  EXPECT_EQ(s.message,
            "Deployment.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be "
            "greater than or equal to 0, spec.template.spec.containers[0].image: Required value]");
  ASSERT_TRUE(s.details.has_value());
  ASSERT_EQ(s.details->causes.size(), 2u);
  EXPECT_EQ(s.details->causes[0].type, "FieldValueInvalid");
  EXPECT_EQ(s.details->causes[0].field, "spec.replicas");
  EXPECT_EQ(s.details->causes[0].message, "Invalid value: -1: must be greater than or equal to 0");
  EXPECT_EQ(s.details->kind, "Deployment");
}

TEST(StatusTest, RoundTripsThroughJson) {
  Status s = invalid(GroupKind{"", "Pod"}, "p", {not_supported("spec.restartPolicy", "Never", {"Always"})});
  Status back = Status::from_json(s.to_json());
  EXPECT_EQ(back.message, s.message);
  EXPECT_EQ(back.code, 422);
  ASSERT_TRUE(back.details.has_value());
  EXPECT_EQ(back.details->causes[0].message,
            "Unsupported value: \"Never\": supported values: \"Always\"");
}

}  // namespace
}  // namespace kcm::api
