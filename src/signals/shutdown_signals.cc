#include "signals/shutdown_signals.h"

#include <pthread.h>

#include <cstdlib>
#include <ctime>

#include "log/log.h"
#include "log/thread_name.h"

namespace kcm::signals {

ShutdownSignals::ShutdownSignals() {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  thread_ = std::jthread([this](std::stop_token done) {
    log::set_thread_name("signals");
    // Wake up now and then to notice `done`: sigtimedwait cannot be interrupted otherwise.
    const timespec tick{0, 200'000'000};
    while (!done.stop_requested()) {
      const int sig = sigtimedwait(&signals_, nullptr, &tick);
      if (sig < 0) continue;
      if (stop_.stop_requested()) {
        log::info("Received a second signal, exiting");
        std::_Exit(1);
      }
      log::info("Received signal, shutting down",
                {{"signal", sig == SIGINT ? "SIGINT" : "SIGTERM"}});
      stop_.request_stop();
    }
  });
}

ShutdownSignals::~ShutdownSignals() = default;

}  // namespace kcm::signals
