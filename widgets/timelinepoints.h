// Data to points for the timeline: pure functions from run data to plot vectors, with no
// QCustomPlot state, so what a lane shows can be reasoned about apart from the widget.
#pragma once

#include "event.h"
#include "run.h"

#include <qcustomplot.h>

#include <vector>

namespace tty {

// One marker at height y per bucket of `step` in x within [x0, x1] (plus a margin), for
// one kind's events (Run::eventsByKind) drawn at x = run seconds - shift; `events`
// receives the event index of each point. Only events with an index in [firstEvent,
// endEvent) are drawn: a boot trial's own (its run's other boots may have the same times
// when the run has only kernel times, which start again at each boot).
QVector<QCPGraphData> markerPoints(const EventKindIndex::Kind &kind, double shift, double y,
                                   double x0, double x1, double step, QVector<int> *events,
                                   std::size_t firstEvent = 0,
                                   std::size_t endEvent = std::size_t(-1));

// Matches per second in `bins` equal bins over [x0, x1] from sorted run seconds `times`;
// `*maxRate` is raised to the highest rate (callers start it at 0).
QVector<QCPGraphData> patternRatePoints(const std::vector<double> &times, double shift, double x0,
                                        double x1, int bins, double *maxRate);

// The top of a lane's value axis: the highest value with some room, unless a few spikes
// stand far above the rest (a sysrq-t burst of 40 k lines/s over a steady 200): then the
// 99th percentile with room, so that the steady rate stays readable, and `clipped` says
// the spikes above it are drawn cut off (marked at the top edge).
struct LaneRange
{
    double top = 1.0;
    bool clipped = false;
};
LaneRange robustLaneRange(std::vector<double> values);

} // namespace tty
