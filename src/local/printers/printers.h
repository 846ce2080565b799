// The printers kcm-local serves, looked up by group and kind: upstream's
// pkg/printers/internalversion handlers for the built-in kinds, and the
// DefaultTableConvertor (NAME, CREATED AT) for everything else.
#pragma once

#include <string_view>

#include "local/printers/table.h"

namespace kcm::local::printers {

// The printer for a kind ("" for the core group), or nullptr when upstream has
// none: callers then use default_printer(). events.k8s.io/v1 Events print as
// core Events do (upstream converts them to the same internal type first).
const TablePrinter* find_printer(std::string_view group, std::string_view kind);

// upstream's rest.DefaultTableConvertor: NAME and CREATED AT (RFC 3339, UTC).
const TablePrinter& default_printer();

}  // namespace kcm::local::printers
