// ReplicaSets: NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR
// (upstream printReplicaSet).
#include <string>

#include "api/label_selector.h"
#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr ColumnDefinition kReplicaSetColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Desired", "integer", "",
     "Replicas is the number of desired replicas. This is a pointer to distinguish between "
     "explicit zero and unspecified. Defaults to 1. More info: "
     "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/"
     "#what-is-a-replicationcontroller",
     0},
    {"Current", "integer", "",
     "Replicas is the most recently oberved number of replicas. More info: "
     "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/"
     "#what-is-a-replicationcontroller",
     0},
    {"Ready", "integer", "", "The number of ready replicas for this replica set.", 0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
    {"Containers", "string", "", kContainersDescription, 1},
    {"Images", "string", "", kImagesDescription, 1},
    {"Selector", "string", "",
     "Selector is a label query over pods that should match the replica count. If the selector is "
     "empty, it is defaulted to the labels present on the pod template. Label keys and values "
     "that must match in order to be controlled by this replica set. More info: "
     "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
     1},
};

// metav1.FormatLabelSelector: "<none>" when nil or empty, "<error>" when it
// does not convert.
std::string replica_set_selector_cell(const json::object* spec) {
  const json::value* v = spec == nullptr ? nullptr : spec->if_contains("selector");
  auto selector = api::label_selector_from_json(v, "spec.selector");
  if (!selector) return "<error>";
  return api::format_label_selector(*selector);
}

Row print_replica_set(const json::object& rs, const PrintContext& context) {
  const json::object* spec = api::find_object(rs, "spec");
  const json::object* status = api::find_object(rs, "status");

  Row row;
  row.cells.emplace_back(object_name(rs));
  // apps/v1 defaults spec.replicas to 1.
  row.cells.emplace_back(int_at(spec, "replicas", 1));
  row.cells.emplace_back(int_at(status, "replicas"));
  row.cells.emplace_back(int_at(status, "readyReplicas"));
  row.cells.emplace_back(creation_age(rs, context.now));
  if (context.wide) {
    const json::object* pod_spec = object_at(object_at(spec, "template"), "spec");
    auto [names, images] = layout_container_cells(array_at(pod_spec, "containers"));
    row.cells.emplace_back(names);
    row.cells.emplace_back(images);
    row.cells.emplace_back(replica_set_selector_cell(spec));
  }
  return row;
}

}  // namespace

const TablePrinter& replica_set_printer() {
  static constexpr TablePrinter kPrinter{kReplicaSetColumns, &print_replica_set};
  return kPrinter;
}

}  // namespace kcm::local::printers
