// SIGINT/SIGTERM for the commands that read logs (report, export, cat): a pipe whose writer
// stays open would keep them reading for ever, so a signal ends the reading instead of the
// process, and what was read is still reported, marked as read in part (exit 3).
#pragma once

#include <atomic>

namespace tty {

// Installs the handlers (once) and returns the flag they set; pass it as
// LoadOptions::cancel. A second signal ends the process as usual.
const std::atomic<bool> *interruptFlag();
bool interrupted();

} // namespace tty
