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

} // namespace tty
