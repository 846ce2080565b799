#include "api/name_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api_test_util.h"

namespace kcm::api {
namespace {

using Msgs = std::vector<std::string>;

// Upstream's texts, as users see them in `kubectl apply` errors.
const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kDns1035Msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const std::string kQualifiedNameMsg =
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
    "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
    "subdomain prefix and '/' (e.g. 'example.com/MyName')";

struct NameCase {
  std::string input;
  Msgs want;
};

TEST(NameValidationTest, IsDns1123Label) {
  const std::vector<NameCase> cases = {
      {"a", {}},
      {"ab-c9", {}},
      {"0", {}},
      {std::string(63, 'a'), {}},
      {"", {kLabelMsg}},
      {"A", {kLabelMsg}},
      {"-a", {kLabelMsg}},
      {"a-", {kLabelMsg}},
      {"a_b", {kLabelMsg}},
      {"a.b", {"must not contain dots"}},
      {std::string(64, 'a'), {"must be no more than 63 characters"}},
      {std::string(62, 'a') + ".b",
       {"must be no more than 63 characters", "must not contain dots"}},
      {std::string(64, 'A'), {"must be no more than 63 characters", kLabelMsg}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(is_dns1123_label(c.input), c.want) << c.input;
}

TEST(NameValidationTest, IsDns1123Subdomain) {
  const std::vector<NameCase> cases = {
      {"example.com", {}},
      {"a", {}},
      {"a-1.b-2.c", {}},
      {"1.2.3.4", {}},
      {std::string(253, 'a'), {}},
      {"", {kSubdomainMsg}},
      {"Example.com", {kSubdomainMsg}},
      {"a..b", {kSubdomainMsg}},
      {".a", {kSubdomainMsg}},
      {"a.", {kSubdomainMsg}},
      {"a.-b", {kSubdomainMsg}},
      {"a_b", {kSubdomainMsg}},
      {std::string(254, 'a'), {"must be no more than 253 characters"}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(is_dns1123_subdomain(c.input), c.want) << c.input;
}

TEST(NameValidationTest, IsDns1035Label) {
  const std::vector<NameCase> cases = {
      {"my-svc", {}},
      {"a1", {}},
      {"1a", {kDns1035Msg}},
      {"no-domain.com", {kDns1035Msg}},
      {std::string(64, 'a'), {"must be no more than 63 characters"}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(is_dns1035_label(c.input), c.want) << c.input;
}

TEST(NameValidationTest, IsQualifiedName) {
  const std::vector<NameCase> cases = {
      {"app", {}},
      {"App.Name_1-x", {}},
      {"example.com/MyName", {}},
      {"app.kubernetes.io/name", {}},
      {"1", {}},
      {std::string(63, 'a'), {}},
      {"", {"name part must be non-empty", kNamePartMsg}},
      {"a b", {kNamePartMsg}},
      {"app:monolith", {kNamePartMsg}},
      {"-a", {kNamePartMsg}},
      {"a/b/c", {kQualifiedNameMsg}},
      {"/a", {"prefix part must be non-empty"}},
      {"a/", {"name part must be non-empty", kNamePartMsg}},
      {"Example.com/a", {"prefix part " + kSubdomainMsg}},
      {"app.kubernetes_io/name", {"prefix part " + kSubdomainMsg}},
      {std::string(254, 'a') + "/b", {"prefix part must be no more than 253 characters"}},
      {std::string(64, 'a'), {"name part must be no more than 63 characters"}},
      {"x/" + std::string(64, '-'), {"name part must be no more than 63 characters", kNamePartMsg}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(is_qualified_name(c.input), c.want) << c.input;
}

TEST(NameValidationTest, IsValidLabelValue) {
  const std::vector<NameCase> cases = {
      {"", {}},
      {"web", {}},
      {"My_value-1.2", {}},
      {std::string(63, 'z'), {}},
      {"-a", {kLabelValueMsg}},
      {"a b", {kLabelValueMsg}},
      {"a/b", {kLabelValueMsg}},
      {std::string(64, 'z'), {"must be no more than 63 characters"}},
      {std::string(64, '.'), {"must be no more than 63 characters", kLabelValueMsg}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(is_valid_label_value(c.input), c.want) << c.input;
}

TEST(NameValidationTest, ValidateLabels) {
  const json::object labels = {{"app", "web"}, {"bad key", "x"}, {"tier", "-v"}};
  const auto errs = validate_labels(labels, "metadata.labels");
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kInvalid);
  EXPECT_EQ(errs[0].message(), "metadata.labels: Invalid value: \"bad key\": " + kNamePartMsg);
  EXPECT_EQ(errs[1].message(), "metadata.labels: Invalid value: \"-v\": " + kLabelValueMsg);

  EXPECT_TRUE(validate_labels(json::object{}, "metadata.labels").empty());
  const std::vector<std::pair<std::string, std::string>> pairs = {{"a/b/c", "ok"}};
  EXPECT_EQ(error_messages(validate_labels(pairs, "spec.selector.matchLabels")),
            (Msgs{"spec.selector.matchLabels: Invalid value: \"a/b/c\": " + kQualifiedNameMsg}));
}

TEST(NameValidationTest, ValidateLabelsNonStringValue) {
  const json::object labels = {{"app", 5}};
  const auto errs = validate_labels(labels, "metadata.labels");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kTypeInvalid);
}

TEST(NameValidationTest, ValidateAnnotationsKeys) {
  // NameCase does not matter for annotation keys; the message shows the key as given.
  EXPECT_TRUE(
      validate_annotations({{"Example.COM/Some-Key", "v"}}, "metadata.annotations").empty());
  EXPECT_EQ(error_messages(validate_annotations({{"A/B/C", ""}}, "metadata.annotations")),
            (Msgs{"metadata.annotations: Invalid value: \"A/B/C\": " + kQualifiedNameMsg}));
  EXPECT_EQ(error_messages(validate_annotations({{"", "v"}}, "metadata.annotations")),
            (Msgs{"metadata.annotations: Invalid value: \"\": name part must be non-empty",
                  "metadata.annotations: Invalid value: \"\": " + kNamePartMsg}));
}

TEST(NameValidationTest, ValidateAnnotationsTotalSize) {
  // Keys and values together: 262144 bytes is the largest accepted total.
  const std::string at_limit(kTotalAnnotationSizeLimitBytes - 1, 'x');
  EXPECT_TRUE(validate_annotations({{"a", at_limit}}, "metadata.annotations").empty());
  const std::string over(kTotalAnnotationSizeLimitBytes - 2, 'x');
  const auto errs = validate_annotations({{"a", over}, {"bc", ""}}, "metadata.annotations");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kTooLong);
  EXPECT_EQ(errs[0].message(), "metadata.annotations: Too long: may not be more than 262144 bytes");
}

TEST(NameValidationTest, PathSegmentNames) {
  const std::vector<NameCase> names = {
      {"web", {}},
      {"a.b", {}},
      {"...", {}},
      {".", {"may not be '.'"}},
      {"..", {"may not be '..'"}},
      {"a/b", {"may not contain '/'"}},
      {"a%2F", {"may not contain '%'"}},
      {"/%", {"may not contain '/'", "may not contain '%'"}},
  };
  for (const auto& c : names) {
    EXPECT_EQ(is_valid_path_segment_name(c.input), c.want) << c.input;
    EXPECT_EQ(validate_path_segment_name(c.input, false), c.want) << c.input;
  }
  // As a generateName prefix, "." and ".." are fine: a suffix follows.
  EXPECT_TRUE(is_valid_path_segment_prefix(".").empty());
  EXPECT_TRUE(validate_path_segment_name("..", true).empty());
  EXPECT_EQ(validate_path_segment_name("a/", true), (Msgs{"may not contain '/'"}));
}

TEST(NameValidationTest, NameValidatorsAllowTrailingDashForPrefixes) {
  EXPECT_TRUE(name_is_dns_subdomain("web-", true).empty());
  EXPECT_EQ(name_is_dns_subdomain("web-", false), (Msgs{kSubdomainMsg}));
  EXPECT_TRUE(name_is_dns_label("web-", true).empty());
  EXPECT_TRUE(name_is_dns1035_label("svc-", true).empty());
  // Upstream replaces the last two characters with "a": "a-" becomes "a".
  EXPECT_TRUE(name_is_dns_label("a-", true).empty());
  // ".-" becomes "a"; "x.-" becomes "xa"... but "x.y-" becomes "x.a": still fine.
  EXPECT_TRUE(name_is_dns_subdomain("x.y-", true).empty());
  // A lone "-" is not masked.
  EXPECT_EQ(name_is_dns_label("-", true), (Msgs{kLabelMsg}));
  EXPECT_EQ(name_is_dns_label("my.name", false), (Msgs{"must not contain dots"}));
}

TEST(NameValidationTest, ValidateObjectName) {
  struct NameCase {
    std::string name;
    std::string generate_name;
    NameValidator validator;
    Msgs want;
  };
  const std::vector<NameCase> cases = {
      {"web", "", name_is_dns_subdomain, {}},
      {"",
       "",
       name_is_dns_subdomain,
       {"metadata.name: Required value: name or generateName is required"}},
      {"Web",
       "",
       name_is_dns_subdomain,
       {"metadata.name: Invalid value: \"Web\": " + kSubdomainMsg}},
      {"web-x7k2p", "web-", name_is_dns_subdomain, {}},
      {"",
       "Web-",
       name_is_dns_subdomain,
       {"metadata.generateName: Invalid value: \"Web-\": " + kSubdomainMsg,
        "metadata.name: Required value: name or generateName is required"}},
      {"kube.system",
       "",
       name_is_dns_label,
       {"metadata.name: Invalid value: \"kube.system\": must not contain dots"}},
      {"..",
       "",
       validate_path_segment_name,
       {"metadata.name: Invalid value: \"..\": may not be '..'"}},
      {"a/b",
       "",
       validate_path_segment_name,
       {"metadata.name: Invalid value: \"a/b\": may not contain '/'"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(error_messages(validate_object_name(c.name, c.generate_name, c.validator)), c.want)
        << c.name;
  }
  EXPECT_EQ(
      error_messages(validate_object_name("", "", name_is_dns_label, "spec.template.metadata")),
      (Msgs{"spec.template.metadata.name: Required value: name or generateName is required"}));
}

TEST(NameValidationTest, RegexErrorFormats) {
  EXPECT_EQ(regex_error("msg", "re"), "msg (regex used for validation is 're')");
  EXPECT_EQ(regex_error("msg", "re", {"a"}), "msg (e.g. 'a', regex used for validation is 're')");
  EXPECT_EQ(max_len_error(15), "must be no more than 15 characters");
  EXPECT_EQ(empty_error(), "must be non-empty");
}

}  // namespace
}  // namespace kcm::api
