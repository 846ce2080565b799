// Access and identity reviews: authorization.k8s.io/v1 SelfSubjectAccessReview
// and SelfSubjectRulesReview, authentication.k8s.io/v1 SelfSubjectReview
// (what `kubectl auth can-i` and `kubectl auth whoami` create). Each is
// answered from the request and the requesting user and never stored, as
// upstream's pkg/registry/authorization and pkg/registry/authentication do.
// kcm-local authorizes every authenticated request, as kube-apiserver with
// --authorization-mode=AlwaysAllow: every action is allowed, and the rules
// are "*" on everything.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "local/registry/resource_info.h"

namespace kcm::local::registry {

// Who made the request, as the authenticator saw it.
struct RequestUser {
  std::string name;
  std::vector<std::string> groups;
};

// The answer to `request` (a decoded object of the kind `info` serves, whose
// `review` is set): the object the create returns, or the error upstream
// gives (422 for an invalid review, 400 for a rules review without a
// namespace or a request without a user). `now` is an RFC 3339 time.
Result<json::object, api::Status> answer_review(const ResourceInfo& info,
                                                const json::object& request,
                                                const RequestUser& user, std::string_view now);

// The reviews' strategy: none of its rules apply (nothing is stored).
std::shared_ptr<const Strategy> review_strategy();

}  // namespace kcm::local::registry
