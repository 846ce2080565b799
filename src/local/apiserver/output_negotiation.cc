#include "local/apiserver/output_negotiation.h"

#include <optional>

#include "api/accept_header.h"

namespace kcm::local::apiserver {
namespace {

// What kube-apiserver lists for its built-in and custom resources alike (its
// serializers, in order), though kcm-local itself answers in JSON only.
constexpr std::string_view kNotAcceptable =
    "only the following media types are accepted: application/json, application/yaml, "
    "application/vnd.kubernetes.protobuf";

// upstream's acceptMediaTypeOptions for the JSON serializer: the shape a
// clause asks for, or nullopt when this endpoint cannot serve it.
std::optional<OutputFormat> served_shape(const api::AcceptClause& clause,
                                         const OutputRestrictions& restrictions) {
  const std::string_view stream = clause.param("stream");
  if (!stream.empty() && stream != "watch") return std::nullopt;
  // The server version of the meta group (sv=) must be meta.k8s.io's, v1.
  const std::string_view server_version = clause.param("sv");
  if (!server_version.empty() && server_version != "v1") return std::nullopt;
  const bool convert =
      clause.params.contains("as") || clause.params.contains("g") || clause.params.contains("v");
  if (!convert) return OutputFormat{};
  const std::string_view version = clause.param("v");
  if (clause.param("g") != "meta.k8s.io" || (version != "v1" && version != "v1beta1")) {
    return std::nullopt;
  }
  const std::string_view kind = clause.param("as");
  OutputFormat format;
  format.meta_version = std::string(version);
  if (kind == "Table") {
    if (!restrictions.table) return std::nullopt;
    format.shape = OutputShape::kTable;
  } else if (kind == "PartialObjectMetadata") {
    format.shape = OutputShape::kPartialObjectMetadata;
  } else if (kind == "PartialObjectMetadataList") {
    format.shape = OutputShape::kPartialObjectMetadataList;
  } else {
    return std::nullopt;
  }
  return format;
}

}  // namespace

Result<OutputFormat, api::Status> negotiate_output(std::string_view accept,
                                                   OutputRestrictions restrictions) {
  if (accept.empty()) return OutputFormat{};
  for (const api::AcceptClause& clause : api::parse_accept(accept)) {
    const bool json = (clause.type == "application" || clause.type == "*") &&
                      (clause.subtype == "json" || clause.subtype == "*");
    // "*/json" names no type upstream matches.
    if (!json || (clause.type == "*" && clause.subtype != "*")) continue;
    if (auto format = served_shape(clause, restrictions)) return std::move(*format);
  }
  return fail(api::not_acceptable(std::string(kNotAcceptable)));
}

}  // namespace kcm::local::apiserver
