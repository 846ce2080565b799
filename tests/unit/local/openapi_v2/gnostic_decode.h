// Test helper: decodes gnostic openapi.v2.Document bytes with libprotobuf's
// reflection, from a descriptor protoc builds out of the test copy of
// gnostic's messages (tests/data/openapi_v2/OpenAPIv2.proto), and turns the
// message back into Swagger JSON, as gnostic's ToRawInfo would.
#pragma once

#include <string>

#include "api/json.h"
#include "api/result.h"

namespace kcm::local::openapi_v2::testing {

namespace json = boost::json;

// Whether protoc is installed (the decoding tests skip without it).
bool have_protoc();

// Parses `bytes` as openapi.v2.Document. Fails when the bytes do not parse
// or any message holds fields the schema does not know.
Result<json::value> decode_document(const std::string& bytes);

// protoc --decode=openapi.v2.Document, as text.
Result<std::string> decode_text(const std::string& bytes);

}  // namespace kcm::local::openapi_v2::testing
