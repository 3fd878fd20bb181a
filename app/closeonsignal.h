// SIGINT, SIGTERM and SIGHUP for the window: closed as its close button closes it, so a
// capture in progress ends its recording (the last frame finished, nothing lost) and the
// window's settings are saved. Without it a logout or a `kill` ended the process where it
// stood: the recording lost its last second and loaded with a warning of a cut frame.
#pragma once

class QWidget;

namespace tty {

// Installs the handlers (once per process) and closes `window` on the first of these
// signals; a second one ends the process as usual (a window stuck in closing is killable).
void closeOnSignals(QWidget *window);

} // namespace tty
