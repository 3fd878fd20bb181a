// The first stack of a crash report, read line by line: where it starts (after `Call
// Trace:`, after lockdep's dependency chain, before KASAN's allocation stacks), its frames
// and instruction-pointer functions into a Scan, and where it ends. Internal to the crash
// pass (crashes.cpp).
#pragma once

#include "crashtitle.h"
#include "event.h"

#include <QString>

#include <string_view>

namespace tty::crash {

// Feeds one line of a report into `s`; stackDone() once the first stack has ended.
class StackReader
{
public:
    StackReader(EventKind kind, const QString &headline);

    void feed(std::string_view m, Scan *s);
    bool stackStarted() const { return m_inStack; }
    bool stackDone() const { return m_done; }

private:
    void lockdepLine(std::string_view m, Scan *s);

    EventKind m_kind;
    bool m_inStack = false;
    bool m_done = false;
    bool m_lockdepStack;
    bool m_releasePending = false;
};

} // namespace tty::crash
