// Entry point of the kcm-local binary: parses flags, prepares the data
// directory and credentials, and serves the API until SIGINT/SIGTERM.
#pragma once

namespace kcm::local {

int main(int argc, char** argv);

}  // namespace kcm::local
