#include "series.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {
bool isMaxChannel(int c)
{
    return c == int(Channel::LagMax);
}

double niceWidth(double minWidth)
{
    double w = 0.001;
    static const double steps[] = {1, 2, 5};
    for (int decade = 0; decade < 12; ++decade) {
        for (double s : steps) {
            const double cand = 0.001 * s * std::pow(10.0, decade);
            if (cand >= minWidth) {
                return cand;
            }
            w = cand;
        }
    }
    return w;
}
} // namespace

void SeriesPyramid::reset(double start, double end, std::size_t maxBins)
{
    m_levels.clear();
    m_start = start;
    const double span = std::max(end - start, 0.001);
    const double width = niceWidth(span / double(maxBins));
    const std::size_t n = std::size_t(std::ceil(span / width)) + 1;
    Level l;
    l.width = width;
    for (auto &v : l.ch) {
        v.assign(n, 0.0f);
    }
    m_levels.push_back(std::move(l));
}

void SeriesPyramid::addSpread(Channel c, double t0, double t1, float v)
{
    if (!m_levels.empty()) {
        addSpreadTo(m_levels.front(), c, t0, t1, double(v));
    }
}

void SeriesPyramid::addSpreadTo(Level &l, Channel c, double t0, double t1, double v) const
{
    if (!m_levels.empty() && std::isfinite(t0)) {
        spreadOverBins(l.ch[std::size_t(c)], m_start, l.width, t0, t1, v);
    }
}

void spreadOverBins(std::vector<float> &bins, double start, double width, double t0, double t1,
                    double v)
{
    if (bins.empty()) {
        return;
    }
    const double last = double(bins.size() - 1);
    const auto binOf = [&](double t) {
        const double b = std::floor((t - start) / width);
        return std::size_t(b >= 0 ? std::min(b, last) : 0.0);
    };
    const std::size_t b0 = binOf(t0);
    if (!(t1 > t0) || !std::isfinite(t1) || binOf(t1) == b0) {
        bins[b0] += float(v);
        return;
    }
    const std::size_t b1 = binOf(t1);
    for (std::size_t b = b0; b <= b1; ++b) {
        // The first and last bins take all of the span before the first's end and after
        // the last's start (a time outside the bins is in the nearest one).
        const double lo = b == b0 ? t0 : start + double(b) * width;
        const double hi = b == b1 ? t1 : start + double(b + 1) * width;
        if (hi > lo) {
            bins[b] += float(v * (hi - lo) / (t1 - t0));
        }
    }
}

double SeriesPyramid::binEndBelow(std::ptrdiff_t bin) const
{
    if (m_levels.empty() || bin < 0) {
        return -std::numeric_limits<double>::infinity();
    }
    if (bin + 1 >= std::ptrdiff_t(m_levels.front().bins())) {
        return std::numeric_limits<double>::infinity();
    }
    // A millionth of a bin short of the boundary: far more than the rounding of binOf's
    // subtraction and division, so every time below it is in `bin` or earlier.
    const double t = m_start + (double(bin + 1) - 1e-6) * m_levels.front().width;
    return binAt(t) <= bin ? t : -std::numeric_limits<double>::infinity();
}

SeriesPyramid::Level SeriesPyramid::emptyFinest() const
{
    Level l;
    if (!m_levels.empty()) {
        l.width = m_levels.front().width;
        for (auto &v : l.ch) {
            v.assign(m_levels.front().bins(), 0.0f);
        }
    }
    return l;
}

void SeriesPyramid::mergeFinest(const Level &part)
{
    Level &l = m_levels.front();
    for (int c = 0; c < kChannelCount; ++c) {
        std::vector<float> &dst = l.ch[std::size_t(c)];
        const std::vector<float> &src = part.ch[std::size_t(c)];
        for (std::size_t i = 0; i < dst.size() && i < src.size(); ++i) {
            dst[i] = isMaxChannel(c) ? std::max(dst[i], src[i]) : dst[i] + src[i];
        }
    }
}

void SeriesPyramid::add(Channel c, double t, float v)
{
    if (m_levels.empty() || !std::isfinite(t)) {
        return;
    }
    m_levels.front().ch[std::size_t(c)][binOf(t)] += v;
}

void SeriesPyramid::addMax(Channel c, double t, float v)
{
    if (m_levels.empty() || !std::isfinite(t)) {
        return;
    }
    float &slot = m_levels.front().ch[std::size_t(c)][binOf(t)];
    slot = std::max(slot, v);
}

void SeriesPyramid::build()
{
    if (m_levels.empty()) {
        return;
    }
    m_levels.resize(1);
    // Four fine bins make a coarse one. The channel's kind is settled outside the loops
    // over the bins: every input, however small, has at least 4096 fine bins.
    auto fold = [](const float *src, std::size_t n, float *dst, bool takeMax) {
        const std::size_t whole = n / 4;
        // In the order and from the 0 the values were always folded in: the same floats.
        if (takeMax) {
            for (std::size_t j = 0; j < whole; ++j) {
                const float *s = src + 4 * j;
                dst[j] = std::max(std::max(std::max(std::max(0.0f, s[0]), s[1]), s[2]), s[3]);
            }
        } else {
            for (std::size_t j = 0; j < whole; ++j) {
                const float *s = src + 4 * j;
                dst[j] = (((0.0f + s[0]) + s[1]) + s[2]) + s[3];
            }
        }
        if (n % 4) { // the last coarse bin, part full
            float d = 0.0f;
            for (std::size_t i = 4 * whole; i < n; ++i) {
                d = takeMax ? std::max(d, src[i]) : d + src[i];
            }
            dst[whole] = d;
        }
    };
    while (m_levels.back().bins() > 64) {
        const Level &fine = m_levels.back();
        Level coarse;
        coarse.width = fine.width * 4;
        const std::size_t n = (fine.bins() + 3) / 4;
        for (int c = 0; c < kChannelCount; ++c) {
            const std::vector<float> &src = fine.ch[std::size_t(c)];
            std::vector<float> &dst = coarse.ch[std::size_t(c)];
            dst.resize(n);
            fold(src.data(), src.size(), dst.data(), isMaxChannel(c));
        }
        m_levels.push_back(std::move(coarse));
    }
}

double SeriesPyramid::end() const
{
    if (m_levels.empty()) {
        return m_start;
    }
    return m_start + m_levels.front().width * double(m_levels.front().bins());
}

int SeriesPyramid::levelFor(double seconds, double maxBins) const
{
    for (int l = 0; l < levels(); ++l) {
        if (seconds / m_levels[std::size_t(l)].width <= maxBins) {
            return l;
        }
    }
    return levels() - 1;
}

std::size_t SeriesPyramid::memoryBytes() const
{
    std::size_t n = 0;
    for (const Level &l : m_levels) {
        n += l.bins() * kChannelCount * sizeof(float);
    }
    return n;
}

double SeriesPyramid::sum(Channel c, double t0, double t1) const
{
    if (m_levels.empty() || t1 <= t0) {
        return 0;
    }
    const std::vector<float> &v = m_levels.front().ch[std::size_t(c)];
    double s = 0;
    for (std::size_t i = binOf(t0), e = binOf(t1); i <= e && i < v.size(); ++i) {
        s += v[i];
    }
    return s;
}

double SeriesPyramid::max(Channel c, double t0, double t1) const
{
    if (m_levels.empty() || t1 <= t0) {
        return 0;
    }
    const std::vector<float> &v = m_levels.front().ch[std::size_t(c)];
    double m = 0;
    for (std::size_t i = binOf(t0), e = binOf(t1); i <= e && i < v.size(); ++i) {
        m = std::max(m, double(v[i]));
    }
    return m;
}

} // namespace tty
