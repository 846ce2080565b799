// Which shape a resource response takes, negotiated from the Accept header as
// upstream's apiserver does (negotiation.NegotiateOutputMediaType with the
// endpoint's restrictions): the clauses in goautoneg's order, the first one
// kcm-local can serve wins. kcm-local serves JSON only; the `as`/`g`/`v`
// parameters ask for a meta.k8s.io Table or PartialObjectMetadata(List)
// instead of the object itself.
#pragma once

#include <string>
#include <string_view>

#include "api/result.h"
#include "api/status.h"

namespace kcm::local::apiserver {

enum class OutputShape {
  kObject,                     // the object (or list) itself
  kTable,                      // meta.k8s.io Table
  kPartialObjectMetadata,      // meta.k8s.io PartialObjectMetadata
  kPartialObjectMetadataList,  // meta.k8s.io PartialObjectMetadataList
};

struct OutputFormat {
  OutputShape shape = OutputShape::kObject;
  std::string meta_version;  // "v1" or "v1beta1" for the meta.k8s.io shapes, else ""

  // "meta.k8s.io/v1" for the meta.k8s.io shapes.
  std::string meta_api_version() const { return "meta.k8s.io/" + meta_version; }
  bool operator==(const OutputFormat&) const = default;
};

// What an endpoint can convert its answers to (upstream's
// RequestScope.AllowsMediaTypeTransform): Tables need a table convertor,
// which scale and binding subresources lack.
struct OutputRestrictions {
  bool table = true;
};

// The negotiated shape, or 406 NotAcceptable when no clause can be served.
// An empty header means the object as JSON.
Result<OutputFormat, api::Status> negotiate_output(std::string_view accept,
                                                   OutputRestrictions restrictions = {});

}  // namespace kcm::local::apiserver
