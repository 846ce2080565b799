// Headers nearly every kcm source includes, parsed once per library instead of
// once per file (target_precompile_headers in kcm_library): about 40% of a
// typical file's compile time. Only stable third-party and standard headers
// belong here; a project header would rebuild everything on each edit.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
