// What "time zero" means when runs are compared: the start of the capture, the first
// kernel line, the first panic or drop, or the first line matching a pattern.
#pragma once

#include "event.h"
#include "run.h"

#include <QString>

namespace tty {

struct Alignment
{
    enum class Kind { Start, FirstKernelLine, FirstEvent, Regex };
    Kind kind = Kind::Start;
    EventKind event = EventKind::Panic;
    QString regex;

    // "start", "boot", "panic", "drop", "event:KIND", "regex:REGEX" (or a bare regex).
    static bool parse(const QString &spec, Alignment *out, QString *error);
    QString spec() const;
    // For axis titles: "seconds from the first 'harness: insmod'".
    QString axisTitle() const;
};

// The run time that becomes x = 0 for this run, searching lines [first, end); none when
// the anchor is not in the run (or has no arrival time to align on).
std::optional<RunSeconds> alignmentTime(const Run &run, const Alignment &a,
                                        LineIndex first = LineIndex(0),
                                        std::optional<LineIndex> end = std::nullopt);

// Where the search for a growing run's anchor got to: a live capture aligned on a pattern
// it has not printed yet searched the whole run again at each update. Lines searched
// without a hit are not searched again; a hit is kept (the first stays the first).
struct AnchorSearch
{
    QString spec;                     // the alignment searched for (Alignment::spec)
    LineIndex first;                  // and from where
    LineIndex from;                   // the first line not searched yet
    std::optional<LineIndex> line;    // the anchor's line, once found
    std::optional<std::size_t> event; // or, for an event kind, its index in run.events
};

// The same, resuming `search` (and updating it) when it was for this alignment and first
// line. The run may only have grown since (a live run).
std::optional<RunSeconds> alignmentTime(const Run &run, const Alignment &a, LineIndex first,
                                        std::optional<LineIndex> end, AnchorSearch *search);

} // namespace tty
