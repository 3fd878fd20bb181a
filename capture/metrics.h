// The figures users compare runs by: lines, drops, lag, windows, spans, boot time, panics.
#pragma once

#include "event.h"
#include "run.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <array>
#include <vector>

namespace tty {

struct MetricOptions
{
    QString windowStart; // regex; empty: the window starts at the first line
    double windowSeconds = 30;
    QString windowMatch; // regex; count only matching lines in the window (empty: all)
    QList<QPair<QString, QString>> spans; // FROM regex, TO regex
    QString bootPattern = QStringLiteral("login:");
    QStringList intervals; // regexes: statistics of the time between matches
};

struct WindowResult
{
    bool found = false; // the start pattern matched (always true without one)
    double start = 0;   // run seconds (arrival of the start line)
    LineIndex startLine = -1;
    std::int64_t lines = 0;    // lines that arrived in [start, start + seconds]
    std::int64_t produced = 0; // lines the kernel produced in the same span of kernel time
};

struct SpanResult
{
    QString from, to;
    double seconds = std::numeric_limits<double>::quiet_NaN();
    LineIndex fromLine = -1, toLine = -1;
    QString missing; // which end was not found
};

struct PanicResult
{
    bool detected = false;
    bool complete = false;
    QStringList missing; // "banner", "call trace", "end marker"
    LineIndex line = -1;
    QString reason;
};

struct IntervalStats
{
    QString pattern;
    std::int64_t matches = 0;
    // Time between consecutive matches (s), by arrival and by kernel time; NaN when absent.
    double mean = std::numeric_limits<double>::quiet_NaN();
    double p50 = std::numeric_limits<double>::quiet_NaN();
    double p99 = std::numeric_limits<double>::quiet_NaN();
    double kernelMean = std::numeric_limits<double>::quiet_NaN();
    double kernelP50 = std::numeric_limits<double>::quiet_NaN();
    double kernelP99 = std::numeric_limits<double>::quiet_NaN();
};

struct Metrics
{
    LineIndex first = 0, end = 0; // the lines measured (a whole run or one boot)
    std::int64_t lines = 0;
    std::int64_t kernelLines = 0;
    std::int64_t bytes = 0;
    double duration = 0; // seconds from first to last line
    int boots = 0;
    std::int64_t dropNotices = 0;
    std::int64_t droppedMessages = 0;
    bool hasLag = false;
    double lagMax = 0, lagP50 = 0, lagP99 = 0;
    WindowResult window;
    std::vector<SpanResult> spans;
    double bootTime = std::numeric_limits<double>::quiet_NaN(); // to bootPattern
    PanicResult panic;
    std::array<std::int64_t, kEventKindCount> eventCounts{};
    std::vector<IntervalStats> intervals;
};

// Metrics over [first, end) of a run (end < 0: to the end); a boot's range gives per-boot
// figures.
Metrics computeMetrics(const Run &run, const MetricOptions &options, LineIndex first = 0,
                       LineIndex end = -1);

// p in [0, 1] of a sample (sorted in place); NaN for an empty one.
double quantile(std::vector<double> &v, double p);

} // namespace tty
