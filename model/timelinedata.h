// What the timeline shows of a comparison, without colours (the widgets pick those from
// the side index): each run with its side, label and alignment shift, the matches of
// the user's pattern lanes, and the wire time by source of the stacked lanes.
#pragma once

#include "alignment.h"
#include "run.h"
#include "sourceseries.h"

#include <QString>
#include <QVector>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace tty {

struct TimelineRun
{
    std::shared_ptr<const Run> run;
    QString label;
    QString source;   // what the trial came from ("lab.log (boot 3)"), without its side
    double shift = 0; // run seconds shown at x = 0 (alignment)
    // How far a growing run's search for its alignment anchor got (Session::timelineRuns).
    AnchorSearch anchorSearch;
    // The view's x of a run time (seconds from the alignment anchor), and back: where the
    // typed run time becomes a plot coordinate.
    double xOf(RunSeconds t) const { return t.count() - shift; }
    RunSeconds timeAtX(double x) const { return RunSeconds(x + shift); }
    int group = 0; // the side (A = 0, B = 1): runs of one side share a colour and a legend entry
    QString groupLabel; // the legend entry of the side (label without the trial)
    // The lines it stands for: a boot's when its trial is one (boots as trials), else all
    // (no end: a live run's grow).
    LineIndex firstLine{0};
    std::optional<LineIndex> endLine;
    // A boot's first and last arrival (run seconds): what the timeline draws of this run,
    // since the rest of it is other boots, other trials. None: the whole run is drawn.
    std::optional<RunSeconds> spanFrom, spanTo;
    // [x0, x1] narrowed to the span's x; false when nothing of it is left.
    bool clipX(double &x0, double &x1) const
    {
        if (spanFrom && spanTo) {
            x0 = std::max(x0, xOf(*spanFrom));
            x1 = std::min(x1, xOf(*spanTo));
        }
        return x0 <= x1;
    }
    // Its events: those of its lines, as [first, end) of run->events (ordered by line).
    std::size_t firstEvent() const { return run->eventsBefore(firstLine); }
    std::size_t endEvent() const
    {
        return endLine ? run->eventsBefore(*endLine) : run->events.size();
    }
};

// Matches of a user's regex, for a lane of matches per second.
struct PatternSeries
{
    QString regex;
    QVector<std::vector<double>> times; // per timeline run: run seconds of each match, sorted
};

// A stacked lane "wire time by source" (issue 14): the top sources of one timeline run
// and the rest, over time. In a comparison each side has its own.
struct SourceLane
{
    int run = 0; // the timeline run whose time axis (shift) it takes
    std::shared_ptr<const SourceSeries> series;
};

} // namespace tty
