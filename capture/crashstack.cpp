#include "crashstack.h"

#include "crashes.h"
#include "crashlines.h"

#include <algorithm>

namespace tty::crash {

StackReader::StackReader(EventKind kind, const QString &headline)
    : m_kind(kind),
      // Reports that print a dependency chain give their own stack after
      // "stack backtrace:"; the others (non-static key, MAX_* too low) at once.
      m_lockdepStack(kind != EventKind::Lockdep ||
                     headline.contains(QLatin1String("non-static key")) ||
                     headline.contains(QLatin1String("too low")) ||
                     headline.contains(QLatin1String("not been registered")) ||
                     headline.contains(QLatin1String("invalid subclass")))
{
}

void StackReader::feed(std::string_view m, Scan *s)
{
    if (m_kind == EventKind::Lockdep) {
        lockdepLine(m, s);
    }
    if (m_done) {
        return;
    }
    if (m_kind == EventKind::Lockdep && !m_lockdepStack) {
        // Lockdep prints the dependency chain's stacks first; its own is after this.
        if (startsWith(m, "stack backtrace:")) {
            m_lockdepStack = true;
        }
        return;
    }
    if (m_kind == EventKind::Kasan || m_kind == EventKind::Kfence) {
        // The stacks of allocation and free come after the access's.
        if (startsWith(m, "Allocated by task") || startsWith(m, "Freed by task") ||
            startsWith(m, "The buggy address") || startsWith(m, "allocated by task")) {
            m_done = m_inStack || !s->seq.isEmpty();
            return;
        }
    }
    const QString ip = ipFunction(m);
    if (!ip.isEmpty()) {
        s->seq << ip;
        return;
    }
    bool unreliable = false;
    const QString f = frameFunction(m, &unreliable);
    if (!f.isEmpty()) {
        m_inStack = true;
        if (!unreliable) {
            s->seq << f;
            s->frames << f;
            if (f.contains(QLatin1String("apic_timer_interrupt"))) {
                s->afterTimer = int(s->seq.size());
            }
        }
        return;
    }
    const std::string_view t = m.substr(std::min(m.size(), skipSpaces(m, 0)));
    if (startsWith(t, "Call Trace:") || startsWith(t, "Call trace:") ||
        startsWith(t, "backtrace")) { // kmemleak: "backtrace:", "backtrace (crc ...):"
        m_inStack = true;
        return;
    }
    if (m_inStack && !isTraceFiller(m)) {
        m_done = true;
    }
}

void StackReader::lockdepLine(std::string_view m, Scan *s)
{
    if (m_releasePending) {
        const QString f = frameFunction(m);
        if (!f.isEmpty() && s->releaseAt.isEmpty()) {
            s->releaseAt = f;
            m_releasePending = false;
        }
    }
    if (m.find("is trying to release lock") != std::string_view::npos) {
        m_releasePending = true;
    }
    if (s->firstAt.isEmpty() && m.find("at: ") != std::string_view::npos) {
        s->firstAt = atFunction(m);
    }
}

} // namespace tty::crash
