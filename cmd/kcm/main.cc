// kcm: the Kubernetes controller-manager (kube-controller-manager's flags and behaviour).
#include <string>
#include <vector>

#include "app/controller_manager.h"

int main(int argc, char** argv) {
  return kcm::app::run_controller_manager(std::vector<std::string>(argv + 1, argv + argc));
}
