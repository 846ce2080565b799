// Deployments: NAME READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES
// SELECTOR (upstream printDeployment).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "api/label_selector.h"
#include "api/labels.h"
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kDeploymentColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Ready", "string", "", "Number of the pod with ready state", 0},
    {"Up-to-date", "string", "",
     "Total number of non-terminated pods targeted by this deployment that have the desired "
     "template spec.",
     0},
    {"Available", "string", "",
     "Total number of available pods (ready for at least minReadySeconds) targeted by this "
     "deployment.",
     0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
    {"Containers", "string", "", kContainersDescription, 1},
    {"Images", "string", "", kImagesDescription, 1},
    {"Selector", "string", "",
     "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the "
     "ones affected by this deployment.",
     1},
};

// LabelSelectorAsSelector(spec.selector).String(): "" for a nil or empty
// selector, "<invalid>" when it does not convert.
std::string deployment_selector_cell(const json::object* spec) {
  const json::value* v = spec == nullptr ? nullptr : spec->if_contains("selector");
  auto selector = api::label_selector_from_json(v, "spec.selector");
  if (!selector) return "<invalid>";
  auto converted = api::as_selector(*selector);
  if (!converted) return "<invalid>";
  return api::labels::to_string(*converted);
}

Row print_deployment(const json::object& deployment, const PrintContext& context) {
  const json::object* spec = api::find_object(deployment, "spec");
  const json::object* status = api::find_object(deployment, "status");
  // apps/v1 defaults spec.replicas to 1.
  const std::int64_t desired = int_at(spec, "replicas", 1);

  Row row;
  row.cells.emplace_back(object_name(deployment));
  row.cells.emplace_back(fmt::format("{}/{}", int_at(status, "readyReplicas"), desired));
  row.cells.emplace_back(int_at(status, "updatedReplicas"));
  row.cells.emplace_back(int_at(status, "availableReplicas"));
  row.cells.emplace_back(creation_age(deployment, context.now));
  if (context.wide) {
    const json::object* pod_spec = object_at(object_at(spec, "template"), "spec");
    auto [names, images] = layout_container_cells(array_at(pod_spec, "containers"));
    row.cells.emplace_back(names);
    row.cells.emplace_back(images);
    row.cells.emplace_back(deployment_selector_cell(spec));
  }
  return row;
}

}  // namespace

const TablePrinter& deployment_printer() {
  static constexpr TablePrinter kPrinter{kDeploymentColumns, &print_deployment};
  return kPrinter;
}

}  // namespace kcm::local::printers
