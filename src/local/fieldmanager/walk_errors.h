// Collects structured-merge-diff's validation errors during a walk: each is
// "<path>: <message>" (the message alone at the root).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "local/fieldmanager/path_element.h"

namespace kcm::local::fieldmanager {

class WalkErrors {
 public:
  void add(const Path& path, std::string_view message) {
    errors_.push_back(path.empty() ? std::string(message)
                                   : to_string(path) + ": " + std::string(message));
  }
  bool empty() const { return errors_.empty(); }
  // One error per line, as ValidationErrors.Error() joins them.
  std::string text() const {
    std::string out;
    for (const std::string& e : errors_) {
      if (!out.empty()) out += "\n";
      out += e;
    }
    return out;
  }

 private:
  std::vector<std::string> errors_;
};

}  // namespace kcm::local::fieldmanager
