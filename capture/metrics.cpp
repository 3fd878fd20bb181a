#include "metrics.h"

#include "metricparts.h"

#include "bootstart.h"
#include "crashes.h"
#include "kernelprefix.h"
#include "lagsummary.h"
#include "linematcher.h"
#include "parallel.h"
#include "textreader.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tty {

using namespace metricpass;

namespace {

// Statistics of the time between consecutive matches; a match without the time breaks the
// chain (its neighbours are not consecutive by that clock).
void intervalStats(const std::vector<std::optional<double>> &times, std::optional<double> *mean,
                   std::optional<double> *p50, std::optional<double> *p99)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < times.size(); ++i) {
        if (times[i] && times[i - 1]) {
            d.push_back(*times[i] - *times[i - 1]);
        }
    }
    if (d.empty()) {
        return;
    }
    *mean = std::accumulate(d.begin(), d.end(), 0.0) / double(d.size());
    *p50 = quantile(d, 0.5);
    *p99 = quantile(d, 0.99);
}

// Kernel time covered by [first, end): per boot, its last kernel time minus its first.
std::optional<double> kernelDuration(const Run &run, LineIndex first, LineIndex end)
{
    double total = 0;
    bool any = false;
    for (const Boot &b : run.bootsOverlapping(first, end)) {
        const LineIndex from = std::max(first, b.first), to = std::min(end, b.end);
        // lo > hi while no kernel time was seen (kernel times are never negative).
        KernelUs lo(std::numeric_limits<std::int64_t>::max()), hi(-1);
        for (LineIndex i = from; i < to; ++i) {
            if (const std::optional<KernelUs> k = run.lines.kernelTime(i)) {
                lo = std::min(lo, *k);
                hi = std::max(hi, *k);
            }
        }
        if (hi >= KernelUs(0)) {
            total += toSeconds(hi - lo);
            any = true;
        }
    }
    return any ? std::optional<double>(total) : std::nullopt;
}

// The die() header (an oops event) before a panic in its boot: after one the kernel
// prints no stack for the panic ("Avoid nested stack-dumping": TAINT_DIE), the oops'
// report holds it.
std::optional<LineIndex> oopsBefore(const Run &run, LineIndex panic)
{
    const LineIndex bootFirst = run.boots[std::size_t(run.bootOf(panic))].first;
    for (std::size_t i = run.eventsBefore(panic); i-- > 0;) {
        const Event &e = run.events[i];
        if (e.line < bootFirst) {
            break;
        }
        if (e.kind == EventKind::Oops) {
            return e.line;
        }
    }
    return std::nullopt;
}

// Whether stack frames follow a panic banner before `to`: not every stack has a `Call
// Trace:` line (arm before 6.9 prints its frames right after `Hardware name:`).
bool stackAfter(const Run &run, LineIndex panic, LineIndex to)
{
    TextReader reader(run.lines);
    const LineIndex last = std::min(to, panic + 64_lines);
    for (LineIndex i = panic + 1_lines; i < last; ++i) {
        const std::string_view t = reader.text(i);
        const KernelPrefix k = parseKernelPrefix(t);
        if (!frameFunction(t.substr(std::min(k.message, t.size()))).isEmpty()) {
            return true;
        }
    }
    return false;
}

} // namespace

QString dropCountOutOfRangeReason(LineIndex notice)
{
    return QStringLiteral("a drop notice's count is out of range (line %1)")
        .arg(lineNumber(notice));
}

bool bytesAreExact(const Run &run)
{
    return formatInfo(run.meta.format).bytesExact;
}

int bitsPerCharacter(const RunMeta &meta)
{
    const int data = meta.extra.value(QStringLiteral("data_bits")).toInt(8);
    const QString parity = meta.extra.value(QStringLiteral("parity")).toString();
    const int stop = meta.extra.value(QStringLiteral("stop_bits")).toInt(1);
    const bool hasParity = !parity.isEmpty() && parity != QLatin1String("none");
    return 1 + std::clamp(data, 5, 8) + (hasParity ? 1 : 0) + std::clamp(stop, 1, 2);
}

std::optional<double> quantile(std::vector<double> &v, double p)
{
    if (v.empty()) {
        return std::nullopt;
    }
    const std::size_t k = rankOf(v.size(), p);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

std::shared_ptr<const std::vector<Crash>> crashesOf(const Run &run, const Metrics &m)
{
    return m.crashes ? m.crashes
                     : std::make_shared<const std::vector<Crash>>(findCrashes(run, m.first, m.end));
}

QString Metrics::backlogUnseen() const
{
    if (cutShort) {
        return QStringLiteral("the file was read only in part");
    }
    return behindAtEnd ? QStringLiteral("the log ends with the console %1 s behind")
                             .arg(*behindAtEnd, 0, 'f', 3)
                       : QString();
}

QString Metrics::noPanicSeenWhy() const
{
    if (panic.detected) {
        return {};
    }
    if (cutShort) {
        return QStringLiteral("none in what was read; the file was read only in part");
    }
    // How far behind is for the footnote and lag.behind_at_end_s to say: a group's trials
    // share this reason.
    return behindAtEnd ? QStringLiteral("none seen; the log ends with the console behind")
                       : QString();
}

Metrics computeMetrics(const Run &run, const MetricOptions &o, LineIndex first,
                       std::optional<LineIndex> last)
{
    Metrics m;
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    first = std::clamp(first, LineIndex(0), end);
    m.first = first;
    m.end = end;
    m.lines = (end - first).count();
    const bool whole = first == LineIndex(0) && end == run.lines.endIndex();

    const LagSummary lags = summariseLags(run, first, end);
    m.kernelLines = lags.kernelLines;
    m.kernelLinesBehindText = lags.kernelLinesBehindText;
    m.bytes = whole ? run.bytes : lineBytes(run, first, end);
    m.hasArrival = run.hasArrival;
    m.cutShort = run.load.readInPart() && end == run.lines.endIndex();
    if (!formatInfo(run.meta.format).consoleOutput) {
        m.notConsole = QStringLiteral("a kernel log, not console output");
    }
    m.dropsUnknown = formatInfo(run.meta.format).dropsKnown ? QString() : m.notConsole;
    if (m.dropsUnknown.isEmpty() && run.recordNumbers.missing > 0) {
        // netconsole's extended form prints no drop notice; the records missing from its
        // numbers bound the drops, but are the ones below the log level too. With none
        // missing, none was dropped: the count of notices (0) stands.
        m.dropsUnknown =
            QStringLiteral("%1 record(s) missing: below the log level, dropped or lost")
                .arg(run.recordNumbers.missing);
    }
    m.bytesUnknown = !m.notConsole.isEmpty() ? m.notConsole
                     : run.unreadStamps      ? QStringLiteral("a terminal's stamps in the text")
                                             : QString();
    if (m.lines > 0 && run.hasArrival) {
        const std::optional<RunSeconds> last = run.timeOf(end - 1_lines),
                                        start = run.timeOf(arrivalStandIn(run, first, end));
        if (last && start) {
            m.duration = (*last - *start).count();
        } else if (!start) {
            m.startUntimed = QStringLiteral("line %1 has no host time")
                                 .arg(lineNumber(arrivalStandIn(run, first, end)));
        }
    }
    m.kernelDuration = kernelDuration(run, first, end);
    const Run::BootRange overlapping = run.bootsOverlapping(first, end);
    m.boots = int(overlapping.end() - overlapping.begin());
    if (run.hasArrival && lags.count > 0) {
        m.lagMax = lags.max;
        m.lagP50 = lags.p50;
        m.lagP99 = lags.p99;
        // A log that ended normally ends under 0.3 s behind (every bundled capture), a
        // boot's burst of output reaches 0.7 s: a second is a backlog left unprinted.
        constexpr double kBehindAtEnd = 1.0;
        if (!m.cutShort && lags.last && *lags.last >= kBehindAtEnd &&
            !metricpass::kernelStopped(run, first, end)) {
            m.behindAtEnd = lags.last;
        }
    }

    // Events: those of lines in range, and notes placed before a line in range.
    std::optional<LineIndex> panicLine, endLine, traceLine;
    // Those of [first, end), and with the whole run the notes after its last line: a
    // binary search, not a pass over all events for each boot of a run of 10^4 boots.
    const std::size_t eventsFrom = run.eventsBefore(first);
    const std::size_t eventsTo =
        std::max(eventsFrom, whole ? run.events.size() : run.eventsBefore(end));
    const auto events = [&](auto &&visit) {
        for (std::size_t i = eventsFrom; i < eventsTo; ++i) {
            visit(run.events[i]);
        }
    };
    events([&](const Event &e) {
        ++m.eventCounts[std::size_t(e.kind)];
        if (e.kind == EventKind::Drop) {
            ++m.dropNotices;
            if (e.count == kCountOutOfRange) {
                m.dropCountOutOfRange = m.dropCountOutOfRange.value_or(e.line);
            } else {
                m.droppedMessages += e.count;
            }
        } else if (e.kind == EventKind::Panic && !panicLine) {
            panicLine = e.line;
        }
    });
    events([&](const Event &e) {
        if (e.line < end && e.kind == EventKind::PanicEnd && !endLine &&
            (!panicLine || e.line >= *panicLine)) {
            endLine = e.line;
        }
    });
    if (panicLine || endLine) {
        const LineIndex from = panicLine.value_or(first);
        const LineIndex to = endLine.value_or(end);
        for (std::size_t i = run.eventsBefore(from); i < run.events.size(); ++i) {
            const Event &e = run.events[i];
            if (e.line >= to) {
                break;
            }
            if (e.kind == EventKind::CallTrace && e.line > from) {
                traceLine = e.line;
                break;
            }
        }
        PanicResult &p = m.panic;
        p.detected = true;
        p.line = panicLine ? panicLine : endLine;
        if (!panicLine) {
            p.missing << QStringLiteral("banner");
        }
        p.stackInOops = panicLine ? oopsBefore(run, *panicLine) : std::nullopt;
        if (!traceLine && !p.stackInOops && !(panicLine && stackAfter(run, *panicLine, to))) {
            p.missing << QStringLiteral("call trace");
        }
        if (!endLine) {
            p.missing << QStringLiteral("end marker");
        }
        p.complete = p.missing.isEmpty();
        const LineText line = run.lines.text(*p.line);
        const std::string_view t = line.view();
        const std::string_view key = "not syncing: ";
        const auto at = t.find(key);
        if (at != std::string_view::npos) {
            std::string_view r = t.substr(at + key.size());
            if (r.size() >= 5 && r.substr(r.size() - 5) == " ]---") {
                r = r.substr(0, r.size() - 5);
            }
            p.reason = QString::fromUtf8(r.data(), qsizetype(r.size()));
        }
    }

    m.baud = run.meta.baud;
    m.noSerialLine = run.meta.noSerialLine;
    m.bitsPerChar = bitsPerCharacter(run.meta);
    m.wireSeconds = wireTime(m.bytes, m.bitsPerChar, m.baud);
    measureWindow(run, o, first, end, &m);
    measureSpans(run, o, first, end, &m);
    measureBootTime(run, o, first, end, &m);

    for (const QString &pattern : o.intervals) {
        IntervalStats st;
        st.pattern = pattern;
        const LineMatcher matcher = matcherOf(pattern);
        std::vector<std::optional<double>> arrivals, kernel;
        TextReader reader(run.lines);
        std::optional<int> lastBoot;
        for (LineIndex i = first; i < end; ++i) {
            if (matcher.matches(reader.text(i))) {
                ++st.matches;
                if (run.hasArrival) {
                    arrivals.push_back(secondsOf(run.timeOf(i)));
                }
                // The kernel's clock starts again at each boot: no interval by it spans
                // two (without host times the boots are only laid end to end, 1 s apart).
                const int boot = run.bootOf(i);
                if (lastBoot && *lastBoot != boot) {
                    kernel.push_back(std::nullopt);
                }
                lastBoot = boot;
                kernel.push_back(secondsOf(run.producedAt(i)));
            }
        }
        if (st.matches == 0) {
            m.warnings << QStringLiteral("--interval '%1' matched no line").arg(pattern);
        }
        intervalStats(arrivals, &st.mean, &st.p50, &st.p99);
        intervalStats(kernel, &st.kernelMean, &st.kernelP50, &st.kernelP99);
        m.intervals.push_back(st);
    }
    m.crashes = std::make_shared<const std::vector<Crash>>(findCrashes(run, first, end));
    return m;
}

} // namespace tty
