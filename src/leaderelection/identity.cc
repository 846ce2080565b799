#include "leaderelection/identity.h"

#include <fmt/core.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "record/uuid.h"

namespace kcm::leaderelection {

Result<std::string> new_identity() {
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) {
    return fail(fmt::format("unable to get hostname: {}", std::strerror(errno)));
  }
  return std::string(host.data()) + "_" + record::new_uuid();
}

}  // namespace kcm::leaderelection
