#include "local/main.h"

#include <cstdio>

namespace kcm::local {

int main(int /*argc*/, char** /*argv*/) {
  std::fprintf(stderr, "kcm-local: not yet serving\n");
  return 1;
}

}  // namespace kcm::local
