#include "interrupt.h"

#include <csignal>

namespace tty {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void onSignal(int)
{
    g_interrupted.store(true, std::memory_order_relaxed);
}
} // namespace

const std::atomic<bool> *interruptFlag()
{
    static const bool installed = [] {
        struct sigaction sa = {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        // The handler is removed once it ran: a second Ctrl-C kills a stuck process.
        sa.sa_flags = SA_RESETHAND;
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
        return true;
    }();
    (void)installed;
    return &g_interrupted;
}

bool interrupted()
{
    return g_interrupted.load(std::memory_order_relaxed);
}

} // namespace tty
