// The cadence of a live capture, the same for `capture --headless` and the window: takes
// what the capture session received into the live run, shows an idle partial line,
// finalizes the run (boots, series, drop spans) no more than a fifth of the time, and says
// which events became stable and which of them should interrupt the user.
#pragma once

#include "event.h"
#include "live/capturesession.h"
#include "live/liverun.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace tty {

class LivePump
{
public:
    // How often the owner turns the pump: the window redraws at most this often; the
    // headless command prints events within this delay.
    static constexpr int kViewIntervalMs = 200;
    static constexpr int kHeadlessIntervalMs = 100;

    enum class Mode {
        Views,     // finalize the run for the lanes and metrics (the window)
        EventsOnly // only the events matter (the headless command)
    };

    // What one turn brought.
    struct Turn
    {
        bool changed = false; // the run was finalized with new lines or events: redraw
        // Events [eventsFrom, eventsTo) of run().events became stable in this turn: they will
        // not change any more (the open partial line's events still may).
        std::size_t eventsFrom = 0;
        std::size_t eventsTo = 0;
    };

    // `session` and `live` must outlive the pump; a run with a grow lock is changed only
    // while holding it, so workers may read it meanwhile.
    LivePump(CaptureSession &session, LiveRun &live, Mode mode);

    Turn turn(std::int64_t monoNow);
    // After the session stopped: takes the last records, ends the partial line and
    // finalizes; every remaining event becomes stable.
    Turn finish();

    // The alert policy: a crash that stops or taints the kernel (not a WARN or a kmemleak
    // report), and the first drop (the lane shows the rest).
    bool alerts(const Event &e);

private:
    Turn stableEvents(Turn t);
    void finalize();

    CaptureSession &m_session;
    LiveRun &m_live;
    Mode m_mode;
    std::size_t m_reported = 0;                // events reported stable so far
    std::optional<LineCount> m_finalizedLines; // lines and events at the last finalize
    std::size_t m_finalizedEvents = 0;
    std::int64_t m_lastFinalizeMono = 0;
    std::int64_t m_finalizeNs = 0; // how long the last finalize took
    bool m_dropAlerted = false;
};

} // namespace tty
