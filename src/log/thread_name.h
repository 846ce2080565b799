// Thread names, as `top -H`, `ps -L`, gdb and perf show them: kcm names each
// thread it starts after its role (a controller's workers after the
// controller), so that a busy or stuck thread can be told apart.
#pragma once

#include <string>
#include <string_view>

namespace kcm::log {

// Names the calling thread. Linux keeps at most 15 bytes: a longer name is cut.
void set_thread_name(std::string_view name);

// The calling thread's name.
std::string thread_name();

}  // namespace kcm::log
