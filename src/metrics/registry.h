// A set of collectors rendered together as one /metrics page.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/result.h"
#include "metrics/collector.h"
#include "metrics/snapshot.h"

namespace kcm::metrics {

class Registry {
 public:
  // Errors with "duplicate metrics collector registration attempted" when a
  // collector of the same name is registered already, or for a null one.
  Result<void> register_collector(std::shared_ptr<const Collector> collector);
  // False if no collector has that name.
  bool unregister(std::string_view name);

  // Every family, sorted by name.
  std::vector<FamilySnapshot> gather() const;
  // gather() in the text exposition format 0.0.4 (see text_format.h).
  std::string render_text() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Collector>, std::less<>> collectors_;
};

}  // namespace kcm::metrics
