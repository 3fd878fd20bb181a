#include "livepump.h"

#include "baudcheck.h"
#include "consolerate.h"
#include "event.h"
#include "live/recordingwriter.h"

#include <algorithm>
#include <mutex>

namespace tty {

namespace {
// Changing the run takes its grow lock when it has one (a run that workers read).
std::unique_lock<GrowLock> changing(Run &r)
{
    return r.growLock ? std::unique_lock<GrowLock>(*r.growLock) : std::unique_lock<GrowLock>();
}
} // namespace

LivePump::LivePump(CaptureSession &session, LiveRun &live, Mode mode)
    : m_session(session), m_live(live), m_mode(mode)
{
}

LivePump::Turn LivePump::turn(std::int64_t monoNow)
{
    Run &r = m_live.run();
    {
        const auto lock = changing(r);
        m_live.add(m_session.takeLive());
        m_live.idle(monoNow);
    }
    if (m_mode == Mode::EventsOnly) {
        return stableEvents(Turn{});
    }
    if (r.lines.size() == m_finalizedLines && r.events.size() == m_finalizedEvents) {
        return Turn{};
    }
    // finalize() goes over every line (the series): hours into a fast capture it takes
    // tens of milliseconds, so it runs at most a fifth of the time. A turn that skips it
    // leaves the counts behind, so the next turn finalizes even when no data came since:
    // the views always catch up with the last byte.
    const std::int64_t start = monoNowNs();
    if (start - m_lastFinalizeMono < 4 * m_finalizeNs) {
        return Turn{};
    }
    finalize();
    m_lastFinalizeMono = monoNowNs();
    m_finalizeNs = m_lastFinalizeMono - start;
    Turn t;
    t.changed = true;
    return stableEvents(t);
}

LivePump::Turn LivePump::finish()
{
    Run &r = m_live.run();
    {
        const auto lock = changing(r);
        m_live.add(m_session.takeLive());
        m_live.finish();
        if (m_mode == Mode::Views) {
            // The whole capture is in: a rate its kernel's command line names is taken as a
            // report of the recording takes it (runloader.cpp), before the series are made;
            // a later boot naming another rate puts back the default.
            if (m_live.tookDefaultBaud()) {
                takeStatedOrDefaultRate(r, true);
            }
            r.finalize();
            // The whole capture is in: its rate is checked as a report of the recording
            // checks it, so that the window and the report give the same wire figures.
            if (m_live.tookDefaultBaud()) {
                checkDefaultBaud(r);
            }
        }
    }
    Turn t;
    t.changed = true;
    t.eventsFrom = m_reported;
    t.eventsTo = m_reported = r.events.size();
    return t;
}

void LivePump::finalize()
{
    Run &r = m_live.run();
    const auto lock = changing(r);
    // All lines but the last (a partial line may still grow) are final: the boot split
    // need not go over them again, which keeps an update cheap hours into a capture.
    r.splitBootsSoFar(r.lines.endIndex() - 1_lines);
    // A board at 1500000 baud watched for hours must not show its UART at 1300 % of a
    // 115200 line: the rate its kernel's command line names is taken as soon as it is
    // printed (a few hundred lines at most after the banner: statedConsoleRate's bound).
    if (m_mode == Mode::Views && m_live.tookDefaultBaud() &&
        r.meta.baudSource == RunMeta::BaudSource::Default) {
        takeStatedOrDefaultRate(r, false);
    }
    r.finalize();
    m_finalizedLines = r.lines.size();
    m_finalizedEvents = r.events.size();
}

LivePump::Turn LivePump::stableEvents(Turn t)
{
    t.eventsFrom = m_reported;
    t.eventsTo = m_reported = std::max(m_reported, m_live.stableEvents());
    return t;
}

bool LivePump::alerts(const Event &e)
{
    // WARN splats and kmemleak reports come by the dozen and the kernel goes on: they are
    // in the events, not worth interrupting for.
    if (isCrashKind(e.kind) && e.kind != EventKind::Warning && e.kind != EventKind::MemoryLeak) {
        return true;
    }
    if (e.kind == EventKind::Drop && !m_dropAlerted) {
        m_dropAlerted = true;
        return true;
    }
    return false;
}

} // namespace tty
