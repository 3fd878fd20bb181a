// Time series on fixed bins, kept as a pyramid (each level 4x coarser) so that a plot can
// always be fed about one bin per pixel whatever the zoom: drawing cost does not grow
// with the size of the log.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tty {

enum class Channel : int {
    Produced, // lines by the time the kernel produced them
    Printed,  // lines by arrival
    Bytes,    // bytes by arrival (line endings included)
    Dropped,  // printk messages dropped (sum of N of the drop notices)
    LagMax,   // max console lag of the lines arriving in the bin (s)
    LagSum,   // sum of console lag (s), with LagCount for the mean
    LagCount,
};
constexpr int kChannelCount = int(Channel::LagCount) + 1;

// Adds v spread evenly over [t0, t1] to `bins` of `width` seconds from `start` (all at t0
// when the span is empty or not finite); a time outside the bins counts in the nearest one.
void spreadOverBins(std::vector<float> &bins, double start, double width, double t0, double t1,
                    double v);

class SeriesPyramid
{
public:
    struct Level
    {
        double width = 0; // seconds per bin
        std::array<std::vector<float>, kChannelCount> ch;
        std::size_t bins() const { return ch[0].size(); }
    };

    // Sets up the finest level covering [start, end) run seconds; the bin width is a
    // 1-2-5 value of at least 1 ms, chosen so that there are at most maxBins bins.
    void reset(double start, double end, std::size_t maxBins = 1u << 20);
    void add(Channel c, double t, float v);
    void addMax(Channel c, double t, float v);
    // Adds v spread evenly over [t0, t1] (at t0 when the span is empty).
    void addSpread(Channel c, double t0, double t1, float v);
    // The same into a finest level of one's own (emptyFinest).
    void addSpreadTo(Level &l, Channel c, double t0, double t1, double v) const;
    // The same for several channels at one time: find the fine bin once (-1: no bin).
    std::ptrdiff_t binAt(double t) const
    {
        if (m_levels.empty() || !std::isfinite(t)) {
            return -1;
        }
        return std::ptrdiff_t(binOf(t));
    }
    // A time just short of the end of `bin` (+inf for the last bin): binAt puts every time
    // from one in `bin` up to it in `bin`, so a pass over sorted times finds most bins with
    // a comparison instead of a division.
    double binEndBelow(std::ptrdiff_t bin) const;
    void addAt(Channel c, std::ptrdiff_t bin, float v) { addAt(m_levels.front(), c, bin, v); }
    void maxAt(Channel c, std::ptrdiff_t bin, float v) { maxAt(m_levels.front(), c, bin, v); }
    // The same on a level of one's own, for filling the finest level in parallel: each
    // thread takes a zeroed copy (emptyFinest), and mergeFinest adds it back.
    static void addAt(Level &l, Channel c, std::ptrdiff_t bin, float v)
    {
        if (bin >= 0) {
            l.ch[std::size_t(c)][std::size_t(bin)] += v;
        }
    }
    static void maxAt(Level &l, Channel c, std::ptrdiff_t bin, float v)
    {
        if (bin >= 0) {
            float &slot = l.ch[std::size_t(c)][std::size_t(bin)];
            slot = slot < v ? v : slot;
        }
    }
    Level &finest() { return m_levels.front(); }
    Level emptyFinest() const;
    void mergeFinest(const Level &part);
    // Builds the coarser levels from the finest one.
    void build();

    bool isEmpty() const { return m_levels.empty(); }
    double start() const { return m_start; }
    double end() const;
    int levels() const { return int(m_levels.size()); }
    const Level &level(int l) const { return m_levels[std::size_t(l)]; }
    // The finest level with at most `maxBins` bins in a span of `seconds`.
    int levelFor(double seconds, double maxBins) const;
    std::size_t memoryBytes() const;

    // A channel's sum over [t0, t1) (whole fine bins) and max, for metrics and tooltips.
    double sum(Channel c, double t0, double t1) const;
    double max(Channel c, double t0, double t1) const;

    // Present channels: the loader marks what the format can provide.
    void setPresent(Channel c, bool on) { m_present[std::size_t(c)] = on; }
    bool present(Channel c) const { return m_present[std::size_t(c)]; }

private:
    std::size_t binOf(double t) const
    {
        const Level &l = m_levels.front();
        const double b = std::floor((t - m_start) / l.width);
        if (!(b >= 0)) {
            return 0;
        }
        return std::min(std::size_t(b), l.bins() - 1);
    }
    double m_start = 0;
    std::vector<Level> m_levels;
    std::array<bool, kChannelCount> m_present{};
};

} // namespace tty
