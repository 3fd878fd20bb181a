// What the timeline shows of a comparison, without colours (the widgets pick those from
// the side index): each run with its side, label and alignment shift, the matches of
// the user's pattern lanes, and the wire time by source of the stacked lanes.
#pragma once

#include "run.h"
#include "sourceseries.h"

#include <QString>
#include <QVector>

#include <memory>
#include <vector>

namespace tty {

struct TimelineRun
{
    std::shared_ptr<const Run> run;
    QString label;
    double shift = 0; // run seconds shown at x = 0 (alignment)
    // The view's x of a run time (seconds from the alignment anchor), and back: where the
    // typed run time becomes a plot coordinate.
    double xOf(RunSeconds t) const { return t.count() - shift; }
    RunSeconds timeAtX(double x) const { return RunSeconds(x + shift); }
    int group = 0; // the side (A = 0, B = 1): runs of one side share a colour and a legend entry
    QString groupLabel; // the legend entry of the side (label without the trial)
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
