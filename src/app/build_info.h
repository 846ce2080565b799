// component-base's build information metric, which every Kubernetes
// component exposes on /metrics:
//   kubernetes_build_info{major,minor,git_version,git_commit,git_tree_state,
//                         build_date,go_version,compiler,platform} 1  (BETA)
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "api/result.h"
#include "metrics/registry.h"

namespace kcm::app {

// version.Info's fields, as kcm fills them.
struct BuildInfo {
  std::string major;
  std::string minor;
  std::string git_version;
  std::string git_commit;
  std::string git_tree_state;
  std::string build_date;
  std::string go_version;  // no Go here: the C++ compiler's version ("g++ 12.2.0")
  std::string compiler;    // "gcc" or "clang" (Go reports "gc")
  std::string platform;    // GOOS/GOARCH names: "linux/amd64"
};

// Major and minor as hack/lib/version.sh derives them from a git version:
// "v1.33.0" gives "1" and "33"; a "-" suffix marks the minor as past the
// release ("v1.33.0-kcm.0" gives "33+"), a "+" build suffix alone does not;
// anything else gives "" and "".
std::pair<std::string, std::string> major_minor(std::string_view git_version);

// kcm's: kcm_version(), and the commit, tree state and build date stamped
// with -DKCM_GIT_COMMIT=..., -DKCM_GIT_TREE_STATE=..., -DKCM_BUILD_DATE=...
// when compiling build_info.cc ("", "" and 1970-01-01T00:00:00Z, upstream's
// unstamped values, otherwise).
BuildInfo current_build_info();

// Registers the family on `registry` with its one series set to 1; errors if
// it is there already.
Result<void> register_build_info(metrics::Registry& registry,
                                 const BuildInfo& info = current_build_info());

}  // namespace kcm::app
