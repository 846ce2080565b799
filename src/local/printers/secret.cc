// Secrets: NAME TYPE DATA AGE (upstream printSecret).
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kSecretColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Type", "string", "",
     "Used to facilitate programmatic handling of secret data. More info: "
     "https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
     0},
    {"Data", "string", "",
     "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' "
     "or '.'. The serialized form of the secret data is a base64 encoded string, representing "
     "the arbitrary (possibly non-string) data value here. Described in "
     "https://tools.ietf.org/html/rfc4648#section-4",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
};

Row print_secret(const json::object& secret, const PrintContext& context) {
  Row row;
  row.cells.emplace_back(object_name(secret));
  row.cells.emplace_back(string_at(&secret, "type"));
  row.cells.emplace_back(map_len_at(&secret, "data"));
  row.cells.emplace_back(creation_age(secret, context.now));
  return row;
}

}  // namespace

const TablePrinter& secret_printer() {
  static constexpr TablePrinter kPrinter{kSecretColumns, &print_secret};
  return kPrinter;
}

}  // namespace kcm::local::printers
