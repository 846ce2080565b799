// The candidate identity kube-controller-manager uses: "<hostname>_<uuid>",
// unique per process so a restarted instance is a new candidate.
#pragma once

#include <string>

#include "api/result.h"

namespace kcm::leaderelection {

Result<std::string> new_identity();

}  // namespace kcm::leaderelection
