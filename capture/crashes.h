// Crash reports: the lines of one kernel report (headline -> stack -> end marker) put
// together from a run's events, and a stable one-line title per report, e.g.
// "BUG: KASAN: slab-use-after-free in foo_release" or "INFO: task hung in baz_wait".
// The rule table finds the headlines; this pass only reads lines near them.
#pragma once

#include "event.h"
#include "run.h"

#include <QString>
#include <QStringList>

#include <string_view>
#include <vector>

namespace tty {

struct Crash
{
    QString title; // headline's stable part + the function it happened in
    EventKind kind = EventKind::Bug;
    LineIndex line;        // the headline (the `cut here` line of a WARN splat)
    LineIndex endLine;     // the report's last line
    std::size_t event = 0; // index in Run::events of the headline's event
    // The report was not cut short: its stack ended (or it prints none) before the log,
    // the boot or the next report did.
    bool traceComplete = false;
    QStringList frames; // the report's stack, reliable frames only, innermost first
};

// Crashes whose headline lies in [first, end) (no end: to the end of the run). Runs with
// many reports are assembled in slices at once: `slices` caps their number (0: one per
// core where there is enough to do; tests ask for more), and *sliced gets how many were
// formed (fewer where the reports lie too close together to be cut apart).
std::vector<Crash> findCrashes(const Run &run, LineIndex first = LineIndex(0),
                               std::optional<LineIndex> end = std::nullopt, int slices = 0,
                               int *sliced = nullptr);

// The title of a report given its lines (one string per console line, prefixes included);
// lines[0] is the headline. For tests and callers without a Run.
Crash crashFromLines(const QStringList &lines, EventKind kind);

// A frame's function name from a stack line (" foo+0x12/0x40 [mod]", " ? foo...",
// " [<ffffffff81234567>] foo+0x12/0x40"), empty when the line is no frame. `unreliable`
// is set for `?` frames.
QString frameFunction(std::string_view message, bool *unreliable = nullptr);

} // namespace tty
