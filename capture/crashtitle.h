// The title of a crash report: the headline's stable part and the function the report
// happened in, chosen from what a scan of the report's lines gathered. Internal to the crash
// pass; the public API is in crashes.h.
#pragma once

#include "event.h"

#include <QString>
#include <QStringList>

namespace tty::crash {

// Everything the title needs from a report's lines.
struct Scan
{
    QString headline;   // the headline's message
    QString warnLine;   // the WARNING: line of a splat headed by `refcount_t:`
    QString firstAt;    // first lockdep "at: FUNC"
    QString releaseAt;  // lockdep: the frame after "is trying to release lock"
    QString oomInvoked; // the OOM report's "invoked oom-killer" line
    // arm's "Unhandled fault: NAME (0xFSR) at 0xADDR" before die()'s headline, which
    // then says nothing of the fault ("Internal error: : 1b [#1] SMP ARM").
    QString armFault;
    // Functions in the order printed: instruction-pointer lines and reliable frames of
    // the report's first stack.
    QStringList seq;
    int afterTimer = -1; // seq index after the last *apic_timer_interrupt frame
    QStringList frames;
};

// The stable one-line title of a report of kind `kind` scanned into `s`.
QString titleOf(EventKind kind, const Scan &s);

} // namespace tty::crash
