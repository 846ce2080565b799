// Figures of a running process read from /proc, for benchmarks that measure
// other processes from outside: resident memory, CPU time, the load average.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::bench {

// A "kB" line of /proc/<pid>/status ("VmRSS", "VmHWM"), in bytes.
Result<std::uint64_t> proc_status_bytes(pid_t pid, std::string_view field);

// User + system CPU time of /proc/<pid>/stat (fields 14 and 15), in seconds.
Result<double> proc_cpu_seconds(pid_t pid);

// The state letter of /proc/<pid>/stat ('R', 'S', 'Z' for a zombie...), or
// '?' when the process is gone.
char proc_state(pid_t pid);

// The 1, 5 and 15 minute load averages of /proc/loadavg ("6.84 5.26 3.04"),
// "?" when unreadable.
std::string load_average();

}  // namespace kcm::bench
