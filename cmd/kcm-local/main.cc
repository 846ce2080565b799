// kcm-local: a small local Kubernetes control plane (API server for now).
#include "local/main.h"

int main(int argc, char** argv) { return kcm::local::main(argc, argv); }
