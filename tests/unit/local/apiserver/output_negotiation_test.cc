// Accept header -> response shape, as upstream's apiserver negotiates it.
#include "local/apiserver/output_negotiation.h"

#include <gtest/gtest.h>

namespace kcm::local::apiserver {
namespace {

constexpr std::string_view kNotAcceptable =
    "only the following media types are accepted: application/json, application/yaml, "
    "application/vnd.kubernetes.protobuf";

struct Case {
  std::string_view accept;
  OutputShape shape;
  std::string_view version;  // meta.k8s.io version of the shape
  bool acceptable = true;
};

constexpr OutputShape kObject = OutputShape::kObject;
constexpr OutputShape kTable = OutputShape::kTable;
constexpr OutputShape kPartial = OutputShape::kPartialObjectMetadata;
constexpr OutputShape kPartialList = OutputShape::kPartialObjectMetadataList;

const Case kCases[] = {
    {"", kObject, ""},
    {"application/json", kObject, ""},
    {"*/*", kObject, ""},
    {"*", kObject, ""},
    {"application/*", kObject, ""},
    {"application/json, */*", kObject, ""},
    {"application/vnd.kubernetes.protobuf,application/json", kObject, ""},
    // client-go's metadata client (get/watch, then list).
    {"application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
     "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
     kPartial, "v1"},
    {"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
     "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
     kPartialList, "v1"},
    {"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1", kPartial, "v1beta1"},
    {"application/json;v=v1beta1;as=PartialObjectMetadataList;g=meta.k8s.io", kPartialList,
     "v1beta1"},
    {"application/json; as=PartialObjectMetadata ; g=meta.k8s.io ;v=v1", kPartial, "v1"},
    // kubectl get.
    {"application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
     "g=meta.k8s.io,application/json",
     kTable, "v1"},
    {"application/json;as=Table;v=v1beta1;g=meta.k8s.io", kTable, "v1beta1"},
    // The first servable clause wins...
    {"application/json,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", kObject, ""},
    {"application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=PartialObjectMetadata;"
     "g=meta.k8s.io;v=v1",
     kTable, "v1"},
    // ...in goautoneg's order: higher q first, wildcards after concrete types.
    {"application/json;q=0.5,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
     kPartial, "v1"},
    {"*/*,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", kPartial, "v1"},
    {"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1;q=0,application/json;q=0.1",
     kObject, ""},
    {"application/json;q=x,application/json;as=Table;v=v1;g=meta.k8s.io;q=0.1", kTable, "v1"},
    // Clauses the server cannot serve are skipped.
    {"application/json;as=Foo;g=meta.k8s.io;v=v1,application/json", kObject, ""},
    {"application/json;as=Table;g=example.com;v=v1,application/json", kObject, ""},
    {"application/json;as=Table;g=meta.k8s.io;v=v2,application/json", kObject, ""},
    {"application/json;as=Table,application/json", kObject, ""},
    {"application/json;v=v1,application/json;as=Table;v=v1;g=meta.k8s.io", kTable, "v1"},
    {"application/json;stream=foo,application/json;as=Table;v=v1;g=meta.k8s.io", kTable, "v1"},
    {"application/json;sv=v2,application/json;as=Table;v=v1;g=meta.k8s.io", kTable, "v1"},
    {"application/json;stream=watch;sv=v1;pretty=1", kObject, ""},
    {"application/yaml,application/json", kObject, ""},
    // Nothing servable: 406.
    {"application/vnd.kubernetes.protobuf", kObject, "", false},
    {"application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", kObject, "",
     false},
    {"application/json;as=Foo;g=meta.k8s.io;v=v1", kObject, "", false},
    {"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2", kObject, "", false},
    {"application/yaml", kObject, "", false},
    {"text/html", kObject, "", false},
    {"*/json", kObject, "", false},
    {"Application/JSON", kObject, "", false},  // case-sensitive, as upstream
    {"application/json/x", kObject, "", false},
    {"foo", kObject, "", false},
};

TEST(OutputNegotiationTest, AcceptHeaderToShape) {
  for (const Case& c : kCases) {
    auto format = negotiate_output(c.accept);
    if (!c.acceptable) {
      ASSERT_FALSE(format.ok()) << c.accept;
      EXPECT_EQ(format.error().code, 406) << c.accept;
      EXPECT_EQ(format.error().reason, "NotAcceptable") << c.accept;
      EXPECT_EQ(format.error().message, kNotAcceptable) << c.accept;
      continue;
    }
    ASSERT_TRUE(format.ok()) << c.accept << ": " << format.error().message;
    EXPECT_EQ(format->shape, c.shape) << c.accept;
    EXPECT_EQ(format->meta_version, c.version) << c.accept;
  }
}

TEST(OutputNegotiationTest, TablesOnlyWhereTheEndpointCanPrintThem) {
  const OutputRestrictions no_table{.table = false};
  auto fallback =
      negotiate_output("application/json;as=Table;v=v1;g=meta.k8s.io,application/json", no_table);
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(fallback->shape, OutputShape::kObject);
  auto refused = negotiate_output("application/json;as=Table;v=v1;g=meta.k8s.io", no_table);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, 406);
  auto partial =
      negotiate_output("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", no_table);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->shape, OutputShape::kPartialObjectMetadata);
  EXPECT_EQ(partial->meta_api_version(), "meta.k8s.io/v1");
}

}  // namespace
}  // namespace kcm::local::apiserver
