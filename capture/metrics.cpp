#include "metrics.h"

#include "lagsummary.h"
#include "linematcher.h"
#include "parallel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tty {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LineIndex findFirstIn(const Run &run, const LineMatcher &m, LineIndex from, LineIndex end)
{
    if (!m.literal().empty() && m.isValid()) {
        // Only lines holding the required literal can match: find those in bulk.
        for (LineIndex i = from; i < end; ++i) {
            i = run.lines.findContaining(m.literal(), i, end);
            if (i < 0 || m.literalOnly() || m.matches(run.lines.text(i))) {
                return i;
            }
        }
        return -1;
    }
    for (LineIndex i = from; i < end; ++i) {
        if (m.matches(run.lines.text(i))) {
            return i;
        }
    }
    return -1;
}

// A pattern that is found late or not at all is searched for through the whole text: a
// big run is searched by slices at once, each with a matcher of its own (a regex object
// must not be shared between threads).
LineIndex findFirst(const Run &run, const QString &pattern, LineIndex from, LineIndex end)
{
    const int slices = sliceCount(end - from);
    std::vector<LineIndex> hits(std::size_t(slices), -1);
    forEachSlice(from, end, slices, [&](int s, LineIndex a, LineIndex b) {
        hits[std::size_t(s)] = findFirstIn(run, LineMatcher(pattern), a, b);
    });
    for (const LineIndex h : hits) {
        if (h >= 0) {
            return h;
        }
    }
    return -1;
}

// When a line was produced (kernel time on the host clock), or its arrival without one.
double productionTime(const Run &run, LineIndex i)
{
    const double p = run.producedAt(i);
    return p == p ? p : run.timeOf(i);
}

void intervalStats(const std::vector<double> &times, double *mean, double *p50, double *p99)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < times.size(); ++i) {
        if (times[i] == times[i] && times[i - 1] == times[i - 1]) {
            d.push_back(times[i] - times[i - 1]);
        }
    }
    if (d.empty()) {
        return;
    }
    *mean = std::accumulate(d.begin(), d.end(), 0.0) / double(d.size());
    *p50 = quantile(d, 0.5);
    *p99 = quantile(d, 0.99);
}

} // namespace

double quantile(std::vector<double> &v, double p)
{
    if (v.empty()) {
        return kNaN;
    }
    const std::size_t k = rankOf(v.size(), p);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

Metrics computeMetrics(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end)
{
    Metrics m;
    if (end < 0 || end > run.lines.size()) {
        end = run.lines.size();
    }
    first = std::clamp<LineIndex>(first, 0, end);
    m.first = first;
    m.end = end;
    m.lines = end - first;
    const bool whole = first == 0 && end == run.lines.size();

    const LagSummary lags = summariseLags(run, first, end);
    m.kernelLines = lags.kernelLines;
    if (whole) {
        m.bytes = run.bytes;
    } else {
        for (LineIndex i = first; i < end; ++i) {
            m.bytes += std::int64_t(run.lines.text(i).size()) + 2;
        }
    }
    if (m.lines > 0) {
        m.duration = run.timeOf(end - 1) - run.timeOf(first);
    }
    for (const Boot &b : run.boots) {
        m.boots += (b.first < end && b.end > first) ? 1 : 0;
    }
    m.hasLag = run.hasArrival && lags.count > 0;
    if (m.hasLag) {
        m.lagMax = lags.max;
        m.lagP50 = lags.p50;
        m.lagP99 = lags.p99;
    }

    // Events: those of lines in range, and notes placed before a line in range.
    LineIndex panicLine = -1, endLine = -1, traceLine = -1;
    for (const Event &e : run.events) {
        const bool in = e.line >= first && (e.line < end || (whole && e.line >= end));
        if (!in) {
            continue;
        }
        ++m.eventCounts[std::size_t(e.kind)];
        if (e.kind == EventKind::Drop) {
            ++m.dropNotices;
            m.droppedMessages += e.count;
        } else if (e.kind == EventKind::Panic && panicLine < 0) {
            panicLine = e.line;
        }
    }
    for (const Event &e : run.events) {
        if (e.line < first || e.line >= end) {
            continue;
        }
        if (e.kind == EventKind::PanicEnd && endLine < 0 && e.line >= panicLine) {
            endLine = e.line;
        }
    }
    if (panicLine >= 0 || endLine >= 0) {
        const LineIndex from = panicLine >= 0 ? panicLine : first;
        const LineIndex to = endLine >= 0 ? endLine : end;
        for (const Event &e : run.events) {
            if (e.kind == EventKind::CallTrace && e.line > from && e.line < to) {
                traceLine = e.line;
                break;
            }
        }
        PanicResult &p = m.panic;
        p.detected = true;
        p.line = panicLine >= 0 ? panicLine : endLine;
        if (panicLine < 0) {
            p.missing << QStringLiteral("banner");
        }
        if (traceLine < 0) {
            p.missing << QStringLiteral("call trace");
        }
        if (endLine < 0) {
            p.missing << QStringLiteral("end marker");
        }
        p.complete = p.missing.isEmpty();
        const std::string_view t = run.lines.text(p.line);
        const std::string_view key = panicLine >= 0 ? "not syncing: " : "not syncing: ";
        const auto at = t.find(key);
        if (at != std::string_view::npos) {
            std::string_view r = t.substr(at + key.size());
            if (r.size() >= 5 && r.substr(r.size() - 5) == " ]---") {
                r = r.substr(0, r.size() - 5);
            }
            p.reason = QString::fromUtf8(r.data(), qsizetype(r.size()));
        }
    }

    // Window.
    WindowResult &w = m.window;
    w.startLine = first;
    if (!o.windowStart.isEmpty()) {
        w.startLine = findFirst(run, o.windowStart, first, end);
    }
    w.found = w.startLine >= 0 && w.startLine < end;
    if (w.found) {
        const LineMatcher only(o.windowMatch);
        w.start = run.timeOf(w.startLine);
        const double p0 = productionTime(run, w.startLine);
        const double t1 = w.start + o.windowSeconds, p1 = p0 + o.windowSeconds;
        for (LineIndex i = w.startLine; i < end; ++i) {
            const double t = run.timeOf(i);
            const double p = run.producedAt(i);
            const bool inArrival = run.hasArrival && t >= w.start && t <= t1;
            const bool inProduced = p == p && p >= p0 && p <= p1;
            if (!inArrival && !inProduced) {
                if (t > t1 + 3600) {
                    break;
                }
                continue;
            }
            if (!only.isEmpty() && !only.matches(run.lines.text(i))) {
                continue;
            }
            w.lines += inArrival ? 1 : 0;
            w.produced += inProduced ? 1 : 0;
        }
    }

    // Spans: from the production of the first FROM to the arrival of the first TO after it.
    for (const auto &s : o.spans) {
        SpanResult r;
        r.from = s.first;
        r.to = s.second;
        r.fromLine = findFirst(run, s.first, first, end);
        if (r.fromLine < 0) {
            r.missing = QStringLiteral("no line matches '%1'").arg(s.first);
        } else {
            r.toLine = findFirst(run, s.second, r.fromLine, end);
            if (r.toLine < 0) {
                r.missing =
                    QStringLiteral("no line matches '%1' after '%2'").arg(s.second, s.first);
            } else {
                r.seconds = run.timeOf(r.toLine) - productionTime(run, r.fromLine);
            }
        }
        m.spans.push_back(r);
    }

    // Boot time: from the boot's first line to the first line matching the pattern.
    if (!o.bootPattern.isEmpty() && run.hasArrival) {
        const LineIndex hit = findFirst(run, o.bootPattern, first, end);
        if (hit >= 0) {
            const Boot &b = run.boots[std::size_t(run.bootOf(hit))];
            m.bootTime = run.timeOf(hit) - run.timeOf(std::max(b.first, first));
        }
    }

    for (const QString &pattern : o.intervals) {
        IntervalStats st;
        st.pattern = pattern;
        const LineMatcher matcher(pattern);
        std::vector<double> arrivals, kernel;
        for (LineIndex i = first; i < end; ++i) {
            if (matcher.matches(run.lines.text(i))) {
                ++st.matches;
                if (run.hasArrival) {
                    arrivals.push_back(run.timeOf(i));
                }
                const KernelUs k = run.lines.kernelTime(i);
                kernel.push_back(hasKernelTime(k) ? run.producedAt(i) : kNaN);
            }
        }
        intervalStats(arrivals, &st.mean, &st.p50, &st.p99);
        intervalStats(kernel, &st.kernelMean, &st.kernelP50, &st.kernelP99);
        m.intervals.push_back(st);
    }
    return m;
}

} // namespace tty
