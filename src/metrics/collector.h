// What a registry gathers from: one metric family per collector.
#pragma once

#include <string_view>

#include "metrics/snapshot.h"

namespace kcm::metrics {

class Collector {
 public:
  virtual ~Collector() = default;
  virtual std::string_view name() const = 0;
  // A consistent-enough copy of the family; called concurrently with updates.
  virtual FamilySnapshot collect() const = 0;
};

}  // namespace kcm::metrics
