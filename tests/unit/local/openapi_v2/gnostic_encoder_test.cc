#include "local/openapi_v2/gnostic_encoder.h"

#include <gtest/gtest.h>

#include "api/schema/openapi_v2.h"
#include "gnostic_decode.h"
#include "local/openapi_v2/openapi_v2.h"
#include "local/registry/resource_info.h"

namespace kcm::local::openapi_v2 {
namespace {

json::value parse_document(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  EXPECT_TRUE(v) << error << " in " << text;
  return v ? *v : json::value();
}

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string encode_hex(std::string_view text) {
  auto bytes = encode_gnostic_document(parse_document(text));
  EXPECT_TRUE(bytes) << bytes.error();
  return bytes ? hex(*bytes) : "";
}

// Byte-exact encodings of small documents, worked out by hand from gnostic's
// field numbers.
TEST(GnosticEncoder, WritesDocumentFieldsAsProto3) {
  struct Case {
    std::string json;
    std::string bytes;
  };
  const std::vector<Case> cases = {
      // swagger = 1 (string)
      {R"({"swagger":"2.0"})", "0a 03 32 2e 30"},
      // info = 2 {title = 1, version = 2}
      {R"({"info":{"title":"T","version":"1"}})", "12 06 0a 01 54 12 01 31"},
      // definitions = 9 {NamedSchema = 1 {name = 1, value = 2 {type = 22 {value = 1}}}}
      {R"({"definitions":{"A":{"type":"object"}}})",
       "4a 12 0a 10 0a 01 41 12 0b b2 01 08 0a 06 6f 62 6a 65 63 74"},
      // An empty schema is still written; proto3 leaves out false and "".
      {R"({"definitions":{"A":{}}})", "4a 07 0a 05 0a 01 41 12 00"},
      {R"({"definitions":{"A":{"uniqueItems":false,"description":""}}})",
       "4a 07 0a 05 0a 01 41 12 00"},
      // additionalProperties = 21: oneof boolean = 2 is written even when false.
      {R"({"definitions":{"A":{"additionalProperties":false}}})",
       "4a 0c 0a 0a 0a 01 41 12 05 aa 01 02 10 00"},
      // A vendor extension: vendor_extension = 31 {NamedAny{name, Any{yaml = 2}}}.
      {R"({"definitions":{"A":{"x-k":"v"}}})",
       "4a 15 0a 13 0a 01 41 12 0e fa 01 0b 0a 03 78 2d 6b 12 04 12 02 76 0a"},
      // paths = 8 {path = 2 {name, PathItem{get = 2 {operation_id = 5}}}}
      {R"({"paths":{"/a":{"get":{"operationId":"x"}}}})",
       "42 0d 12 0b 0a 02 2f 61 12 05 12 03 2a 01 78"},
      // A query parameter: parameters = 8 {ParametersItem{parameter = 1 {non_body = 2
      // {query = 3 {in = 2, name = 4, type = 6}}}}}
      {R"({"paths":{"/a":{"get":{"parameters":[{"in":"query","name":"n","type":"string"}]}}}})",
       "42 24 12 22 0a 02 2f 61 12 1c 12 1a 42 18 0a 16 12 14 1a 12 12 05 71 75 65 72 79 22 01 "
       "6e 32 06 73 74 72 69 6e 67"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(encode_hex(c.json), c.bytes) << c.json;
  }
}

TEST(GnosticEncoder, RejectsWhatItDoesNotModel) {
  struct Case {
    std::string json;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"[]", "document: must be an object"},
      {R"({"swagger":2})", "swagger: must be a string"},
      {R"({"openapi":"3.0.0"})", R"(document: "openapi" is not supported)"},
      {R"({"definitions":{"A":{"xml":{}}}})", R"(definitions.A: "xml" is not supported)"},
      {R"({"definitions":{"A":{"properties":{"b":{"discriminator":"t"}}}}})",
       R"(definitions.A.properties.b: "discriminator" is not supported)"},
      {R"({"definitions":{"A":{"type":3}}})",
       "definitions.A.type: must be a string or an array of strings"},
      {R"({"definitions":{"A":{"required":"a"}}})",
       "definitions.A.required: must be an array of strings"},
      {R"({"definitions":{"A":{"maxLength":1.5}}})", "definitions.A.maxLength: must be an integer"},
      {R"({"definitions":{"A":"x"}})", "definitions.A: must be an object"},
      {R"({"paths":{"/a":{"get":{"parameters":[{"name":"n"}]}}}})",
       R"(paths./a.get.parameters[0]: a parameter needs "in")"},
      {R"({"paths":{"/a":{"get":{"parameters":[{"in":"cookie","name":"n"}]}}}})",
       R"(paths./a.get.parameters[0].in: unknown parameter location "cookie")"},
      {R"({"paths":{"/a":{"parameters":[{"in":"path","name":"n","allowEmptyValue":true}]}}})",
       R"(paths./a.parameters[0]: "allowEmptyValue" is not supported)"},
      {R"({"paths":{"/a":{"get":{"responses":{"200":{"schema":{"type":"file"}}}}}}})",
       "paths./a.get.responses.200.schema: file schemas are not supported"},
      {R"({"paths":{"/a":{"trace":{}}}})", R"(paths./a: "trace" is not supported)"},
  };
  for (const auto& c : cases) {
    auto bytes = encode_gnostic_document(parse_document(c.json));
    ASSERT_FALSE(bytes) << c.json;
    EXPECT_EQ(bytes.error(), c.error) << c.json;
  }
}

// What protoc's own decoder reads from the bytes, with gnostic's message definitions.
TEST(GnosticEncoder, ProtocDecodesTheMessages) {
  if (!testing::have_protoc()) GTEST_SKIP() << "protoc is not installed";
  const json::value doc = parse_document(R"({
    "swagger": "2.0",
    "info": {"title": "Kubernetes", "version": "v1"},
    "paths": {"/api/v1/pods": {
      "get": {"operationId": "list", "x-kubernetes-action": "list",
              "responses": {"200": {"description": "OK",
                                    "schema": {"$ref": "#/definitions/P"}}}},
      "parameters": [{"in": "query", "name": "pretty", "type": "string", "uniqueItems": true}]}},
    "definitions": {"P": {"type": "object", "required": ["a"],
      "properties": {"a": {"type": "array", "items": {"type": "string"},
                           "x-kubernetes-list-type": "set"}}}}
  })");
  auto bytes = encode_gnostic_document(doc);
  ASSERT_TRUE(bytes) << bytes.error();
  auto text = testing::decode_text(*bytes);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*text, R"(swagger: "2.0"
info {
  title: "Kubernetes"
  version: "v1"
}
paths {
  path {
    name: "/api/v1/pods"
    value {
      get {
        operation_id: "list"
        responses {
          response_code {
            name: "200"
            value {
              response {
                description: "OK"
                schema {
                  schema {
                    _ref: "#/definitions/P"
                  }
                }
              }
            }
          }
        }
        vendor_extension {
          name: "x-kubernetes-action"
          value {
            yaml: "list\n"
          }
        }
      }
      parameters {
        parameter {
          non_body_parameter {
            query_parameter_sub_schema {
              in: "query"
              name: "pretty"
              type: "string"
              unique_items: true
            }
          }
        }
      }
    }
  }
}
definitions {
  additional_properties {
    name: "P"
    value {
      required: "a"
      type {
        value: "object"
      }
      properties {
        additional_properties {
          name: "a"
          value {
            type {
              value: "array"
            }
            items {
              schema {
                type {
                  value: "string"
                }
              }
            }
            vendor_extension {
              name: "x-kubernetes-list-type"
              value {
                yaml: "set\n"
              }
            }
          }
        }
      }
    }
  }
}
)");
}

// The whole of kcm-local's document survives encoding: decoding the bytes
// with gnostic's messages and reading them back as Swagger JSON (extensions
// parsed from their YAML) gives the document again, member for member and
// in the same order.
TEST(GnosticEncoder, KcmLocalDocumentRoundTrips) {
  if (!testing::have_protoc()) GTEST_SKIP() << "protoc is not installed";
  const registry::ResourceTable table = registry::builtin_resources();
  const json::value doc = openapi_v2_json(table);
  auto bytes = encode_gnostic_document(doc);
  ASSERT_TRUE(bytes) << bytes.error();
  EXPECT_EQ(*bytes, openapi_v2_protobuf(table));
  auto decoded = testing::decode_document(*bytes);
  ASSERT_TRUE(decoded) << decoded.error();
  // Map order is the document's (gnostic keeps it); inside a message the
  // members come in field-number order, so compare those sorted.
  std::vector<std::string> names, decoded_names;
  for (const auto& [k, v] : doc.at("definitions").as_object())
    names.emplace_back(k);
  for (const auto& [k, v] : decoded->at("definitions").as_object())
    decoded_names.emplace_back(k);
  EXPECT_EQ(decoded_names, names);
  json::value sorted = *decoded;
  api::schema::sort_object_keys(sorted);
  EXPECT_EQ(sorted, doc);
  if (sorted != doc) {
    // Name the first definition or path that differs, for a readable failure.
    for (std::string_view section : {"definitions", "paths"}) {
      for (const auto& [k, v] : doc.at(section).as_object()) {
        const json::value* got = sorted.at(section).as_object().if_contains(k);
        if (got == nullptr || *got != v) {
          ADD_FAILURE() << section << " " << k << "\nwant " << json::serialize(v) << "\ngot  "
                        << (got ? json::serialize(*got) : "nothing");
          return;
        }
      }
    }
  }
}

}  // namespace
}  // namespace kcm::local::openapi_v2
