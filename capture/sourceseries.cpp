#include "sourceseries.h"

#include "parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {

SourceSeries::Level emptyLevel(double width, std::size_t bins, int channels)
{
    SourceSeries::Level l;
    l.width = width;
    l.ch.assign(std::size_t(channels), std::vector<float>(bins, 0.0f));
    return l;
}

} // namespace

int SourceSeries::levelFor(double seconds, double maxBins) const
{
    for (std::size_t l = 0; l < levels.size(); ++l) {
        if (seconds / levels[l].width <= maxBins) {
            return int(l);
        }
    }
    return int(levels.size()) - 1;
}

std::size_t SourceSeries::memoryBytes() const
{
    std::size_t n = 0;
    for (const Level &l : levels) {
        n += l.bins() * l.ch.size() * sizeof(float);
    }
    return n;
}

SourceSeries buildSourceSeries(const Run &run, const SourceIndex &index, const SourceTable &table,
                               const Metrics &m, int topN, const std::atomic<bool> *cancel)
{
    SourceSeries out;
    out.byKernelTime = !run.hasArrival;
    out.baud = out.byKernelTime ? 0 : m.baud;
    out.bitsPerChar = m.bitsPerChar;
    const LineIndex first = m.first;
    const LineIndex end = std::min(m.end, LineIndex(0) + index.lines());
    if (run.series.isEmpty() || end <= first || table.by != SourceGrouping::Template) {
        return out;
    }
    // The top sources get a channel each, every other template the last one.
    const std::size_t nTemplates = index.templates().size();
    const std::size_t top =
        std::min<std::size_t>(std::size_t(std::max(topN, 0)), table.sources.size());
    std::vector<std::uint8_t> channelOf(nTemplates, std::uint8_t(top));
    for (std::size_t k = 0; k < top; ++k) {
        const SourceStat &s = table.sources[k];
        channelOf[s.templateId] = std::uint8_t(k);
        out.top.push_back({s.templ.toStdString(), s.kernel, s.templateId, s.lines, s.bytes});
    }
    out.otherSources = std::int64_t(table.sources.size() - top);
    for (std::size_t k = top; k < table.sources.size(); ++k) {
        out.otherLines += table.sources[k].lines;
        out.otherBytes += table.sources[k].bytes;
    }
    const int channels = out.channels();

    // The fine bins: the run's own, 4x coarser until there are few enough.
    const SeriesPyramid::Level &runFine = run.series.level(0);
    double width = runFine.width;
    std::size_t bins = runFine.bins();
    while (bins > kSourceSeriesMaxBins) {
        width *= 4;
        bins = (bins + 3) / 4;
    }
    out.start = run.series.start();

    const int slices = sliceCount(end - first, LineCount(1 << 19));
    std::vector<SourceSeries::Level> parts(static_cast<std::size_t>(slices));
    std::vector<std::int64_t> untimed(static_cast<std::size_t>(slices), 0);
    std::atomic<bool> stopped{false};
    const double start = out.start;
    forEachSlice(first, end, slices, [&](int s, LineIndex from, LineIndex to) {
        SourceSeries::Level &l = parts[std::size_t(s)];
        l = emptyLevel(width, bins, channels);
        // Times come sorted (arrival) or nearly (kernel): the bin of the line before is
        // tried first, and a bin's bytes per channel are added when the bin changes.
        double lo = std::numeric_limits<double>::infinity(), hi = lo;
        std::size_t bin = 0;
        WirePass wire(run);
        for (LineIndex i = from; i < to; ++i) {
            if ((i.value() & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            std::optional<RunSeconds> at = run.hasArrival ? wire.arrival(i) : std::nullopt;
            const bool arrived = at.has_value();
            if (!at) {
                at = run.producedAt(i);
            }
            const std::int64_t bytes = sourceLineBytes(run, i);
            if (!at || !std::isfinite(at->count())) {
                untimed[std::size_t(s)] += bytes;
                continue;
            }
            const double t = at->count();
            // The bytes over the time they took on the wire, as in the run's series: at
            // 9600 baud a line takes longer than a bin, and the lane went over 100 %.
            const Run::WireSpan sent =
                arrived ? wire.span(i, t, double(bytes)) : Run::WireSpan{t, t};
            if (!sent.empty()) {
                spreadOverBins(l.ch[channelOf[index.templateOf(i)]], start, width, sent.from,
                               sent.to, double(bytes));
                continue;
            }
            if (!(t >= lo && t < hi)) {
                const double b = std::floor((t - start) / width);
                bin = b >= 0 ? std::min(std::size_t(b), bins - 1) : 0;
                lo = b >= 0 && std::size_t(b) < bins ? start + double(bin) * width
                                                     : -std::numeric_limits<double>::infinity();
                hi = b >= 0 && std::size_t(b) + 1 < bins ? start + double(bin + 1) * width : lo;
                if (!(t >= lo && t < hi)) { // rounding at the edge, or outside: no caching
                    lo = hi = std::numeric_limits<double>::infinity();
                }
            }
            l.ch[channelOf[index.templateOf(i)]][bin] += float(bytes);
        }
    });
    if (stopped) {
        return SourceSeries();
    }
    SourceSeries::Level fine = std::move(parts[0]);
    for (std::size_t s = 1; s < parts.size(); ++s) {
        for (int c = 0; c < channels; ++c) {
            std::vector<float> &dst = fine.ch[std::size_t(c)];
            const std::vector<float> &src = parts[s].ch[std::size_t(c)];
            for (std::size_t b = 0; b < bins; ++b) {
                dst[b] += src[b];
            }
        }
    }
    for (const std::int64_t u : untimed) {
        out.untimedBytes += u;
    }
    out.levels.push_back(std::move(fine));
    // Coarser levels, four bins in one, down to a few dozen bins.
    while (out.levels.back().bins() > 64) {
        const SourceSeries::Level &f = out.levels.back();
        const std::size_t n = (f.bins() + 3) / 4;
        SourceSeries::Level c = emptyLevel(f.width * 4, n, channels);
        for (int ch = 0; ch < channels; ++ch) {
            const std::vector<float> &src = f.ch[std::size_t(ch)];
            std::vector<float> &dst = c.ch[std::size_t(ch)];
            for (std::size_t b = 0; b < src.size(); ++b) {
                dst[b / 4] += src[b];
            }
        }
        out.levels.push_back(std::move(c));
    }
    return out;
}

} // namespace tty
