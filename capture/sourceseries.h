// Wire time by source over time (issue 14, the timeline's stacked lane): the bytes the top
// sources of a trial (by template) and all its other sources put on the wire per bin, as
// a pyramid like the run's series (series.h: fixed fine bins, each level 4x coarser), so
// that the lane is fed about one bin a pixel at any zoom whatever the size of the log.
//
// Built by one pass over the trial's template ids (sourceindex.h, 4 B a line) and line
// sizes, on all cores, off the GUI thread. The fine bins are a level of the run's own
// series (same start, a width of 4^k of its finest), at most kSourceSeriesMaxBins of them:
// (top + 1) channels of floats, ~3 MB at 1 GiB where the run's series takes 28 MB.
// A line is binned by its arrival (the time its bytes took the wire), by its production
// time when it has no arrival time; bytes count as in the sources table (sourcestats.h).
#pragma once

#include "metrics.h"
#include "run.h"
#include "sourceindex.h"
#include "sourcestats.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tty {

constexpr int kSourceLaneTop = 6; // sources drawn on their own; the rest are "other"
constexpr std::size_t kSourceSeriesMaxBins = std::size_t(1) << 16;

struct SourceSeries
{
    struct Source
    {
        std::string templ; // the masked message
        bool kernel = true;
        std::uint32_t templateId = 0;
        std::int64_t lines = 0, bytes = 0;
    };
    struct Level
    {
        double width = 0;                   // seconds per bin
        std::vector<std::vector<float>> ch; // per channel: bytes per bin
        std::size_t bins() const { return ch.empty() ? 0 : ch.front().size(); }
    };
    std::vector<Source> top; // most bytes first; channel top.size() is "other"
    std::int64_t otherLines = 0, otherBytes = 0;
    std::int64_t otherSources = 0; // how many sources "other" holds
    std::int64_t untimedBytes = 0; // of lines with neither an arrival nor a kernel time
    int baud = 0;                  // 0: unknown (the lane then shows bytes per second)
    // No arrivals: the bins are by the lines' kernel times, the bytes as the kernel produced
    // them (no baud: a share of the UART would be a rate it never carried, 200 %).
    bool byKernelTime = false;
    int bitsPerChar = 10;
    double start = 0; // run seconds of the first bin's start
    std::vector<Level> levels;

    int channels() const { return int(top.size()) + 1; }
    bool empty() const { return levels.empty(); }
    // The finest level with at most maxBins bins in a span of `seconds`.
    int levelFor(double seconds, double maxBins) const;
    // Wire seconds of `bytes` (none without a baud rate).
    std::optional<double> wireSeconds(double bytes) const
    {
        return baud > 0 ? std::optional<double>(bytes * bitsPerChar / baud) : std::nullopt;
    }
    std::size_t memoryBytes() const;
};

// The series of the lines [m.first, m.end) of a run: the top `topN` sources of `table`
// (a table by template of the same lines, m's) and the others. `cancel` (may be null)
// stops early: the series is then empty.
SourceSeries buildSourceSeries(const Run &run, const SourceIndex &index, const SourceTable &table,
                               const Metrics &m, int topN = kSourceLaneTop,
                               const std::atomic<bool> *cancel = nullptr);

} // namespace tty
