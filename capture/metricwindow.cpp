// The counting window and the spans: figures of the lines between two points in time.
#include "metricparts.h"

#include "bootstart.h"
#include "kernelprefix.h"
#include "linematcher.h"
#include "textreader.h"

#include <algorithm>
#include <cmath>

namespace tty::metricpass {

bool kernelStopped(const Run &run, LineIndex from, LineIndex end)
{
    if (end < run.lines.endIndex()) {
        return true;
    }
    bool stopped = false;
    for (std::size_t i = run.eventsBefore(from); i < run.events.size(); ++i) {
        const Event &e = run.events[i];
        if (e.line >= end) {
            break;
        }
        if (e.note) {
            continue;
        }
        if (e.kind == EventKind::Reboot || e.kind == EventKind::PanicEnd) {
            stopped = true;
        } else if (e.kind == EventKind::Boot || e.kind == EventKind::Firmware) {
            stopped = false;
        }
    }
    return stopped;
}

void measureWindow(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                   Metrics *m)
{
    WindowResult &w = m->window;
    w.startLine = first < end ? std::optional<LineIndex>(first) : std::nullopt;
    if (!o.windowStart.isEmpty()) {
        w.startLine =
            findFirstReporting(run, o.windowStart, "--window-start", first, end, &m->warnings);
    }
    w.found = w.startLine && *w.startLine < end;
    if (!w.found) {
        return;
    }
    const LineIndex start = *w.startLine;
    const LineMatcher only = matcherOf(o.windowMatch);
    // A start found in kernel text behind other text came after its line's first byte.
    w.start = !run.hasArrival ? std::nullopt
              : o.windowStart.isEmpty()
                  ? secondsOf(run.timeOf(arrivalStandIn(run, start, end)))
                  : secondsOf(run.runTimeOf(matchArrival(run, start, o.windowStart, end)));
    // A start without an arrival (before a log's first stamp, or stamped only at its line's
    // end) has no window of arrivals: none arrived in it is not what is known.
    w.printedKnown = w.start.has_value();
    if (run.hasArrival && !w.start) {
        w.printedUnknownWhy =
            QStringLiteral("starts at line %1, which has no host time").arg(lineNumber(start));
    }
    // Without a production time of its own the start line's arrival stands in (as for a
    // user-space line that starts the window); without either there is no produced figure.
    // Nor is there one when no line has a kernel time: what was produced when is unknown,
    // not none.
    // A start found in the text in front of a timestamp (a prompt) has no production time
    // of its own either: the kernel text behind it came later.
    // Without host times a line has only its kernel time: the times the timeline gives the
    // others (the kernel time before them) are not when they came, so a window that starts
    // at one (a boot's firmware lines, a capture's partial first line) cannot be placed on
    // the kernel clock; from the kernel's first line it would count another span.
    const bool inFront = !o.windowStart.isEmpty() && matchInFront(run, start, o.windowStart);
    std::optional<double> p0;
    if (!run.hasArrival) {
        if (!inFront) {
            p0 = secondsOf(run.producedAt(start));
        }
    } else {
        p0 = inFront ? secondsOf(run.timeOf(start)) : productionTime(run, start);
    }
    w.producedKnown = p0.has_value() && m->kernelLines > 0 && run.recordNumbers.missing == 0;
    if (run.recordNumbers.missing > 0) {
        // The drops it would add are unknown (Run::RecordNumbers).
        w.producedUnknownWhy =
            QStringLiteral("drops unknown: %1 record(s) missing").arg(run.recordNumbers.missing);
    } else if (m->kernelLines == 0) {
        w.producedUnknownWhy = QStringLiteral("no line has a kernel time");
    } else if (!p0) {
        w.producedUnknownWhy = QStringLiteral("starts at line %1, which has no kernel time%2")
                                   .arg(QString::number(lineNumber(start)),
                                        run.hasArrival ? QStringLiteral(" and no host time")
                                                       : QStringLiteral("; no host times"));
    }
    // Whether x is in the window that starts at `from`; not when either is unknown.
    const auto inWindow = [&](std::optional<double> x, std::optional<double> from) {
        return x && from && *x >= *from && *x <= *from + o.windowSeconds;
    };
    std::int64_t bytes = 0;
    // The latest arrival and production seen from the start on: where the log ends, if it
    // ends inside the window.
    std::optional<double> lastArrival = w.start, lastProduced = p0;
    const auto later = [](std::optional<double> *seen, std::optional<double> x) {
        if (x && (!*seen || *x > **seen)) {
            *seen = x;
        }
    };
    bool beyondWindow = false;
    TextReader reader(run.lines);
    for (LineIndex i = start; i < end; ++i) {
        const std::optional<double> t = !w.start     ? std::nullopt
                                        : i == start ? w.start
                                                     : secondsOf(run.timeOf(i));
        const std::optional<double> produced = secondsOf(run.producedAt(i));
        later(&lastArrival, t);
        later(&lastProduced, produced);
        const bool inArrival = inWindow(t, w.start);
        const bool inProduced = inWindow(produced, p0);
        if (!inArrival && !inProduced) {
            if (t && *t > *w.start + o.windowSeconds + 3600) {
                beyondWindow = true;
                break;
            }
            continue;
        }
        if (inArrival) {
            bytes += lineBytes(run, i, i + 1_lines);
        }
        if (!only.isEmpty() && !only.matches(reader.text(i))) {
            continue;
        }
        w.lines += inArrival ? 1 : 0;
        w.produced += inProduced ? 1 : 0;
    }
    if (w.printedKnown) {
        w.wireSeconds = wireTime(bytes, m->bitsPerChar, m->baud);
    }
    // A recording says when its capture stopped: up to then nothing more arrived, and,
    // where the console had not fallen behind (a queue under a second: Metrics::behindAtEnd),
    // nothing more was produced up to a second before.
    if (end == run.lines.endIndex() && run.captureEnd) {
        const std::optional<double> stopped = secondsOf(run.runTimeOf(*run.captureEnd));
        later(&lastArrival, stopped);
        if (stopped && !m->behindAtEnd) {
            later(&lastProduced, *stopped - 1.0);
        }
    }
    if (!beyondWindow && !kernelStopped(run, start, end)) {
        if (w.printedKnown && lastArrival && *lastArrival < *w.start + o.windowSeconds) {
            w.printedSeenSeconds = *lastArrival - *w.start;
        }
        if (w.producedKnown && lastProduced && *lastProduced < *p0 + o.windowSeconds) {
            w.producedSeenSeconds = *lastProduced - *p0;
        }
    }
    if (!p0) {
        w.produced = 0;
        return;
    }
    const double p1 = *p0 + o.windowSeconds;
    // Dropped messages were produced as well, somewhere between their printed neighbours:
    // the part of that interval inside the window counts. Their text is lost, so with
    // --window-match they count only when the neighbours on both sides match.
    double dropped = 0;
    for (const DropSpan &d : run.drops) {
        const LineIndex at = run.events[d.event].line;
        if (at < first || at >= end || !d.from || !d.to) {
            continue;
        }
        if (!only.isEmpty() && (!d.before || !d.after || !only.matches(reader.text(*d.before)) ||
                                !only.matches(reader.text(*d.after)))) {
            continue;
        }
        if (d.count == kCountOutOfRange) {
            w.dropCountOutOfRange = w.dropCountOutOfRange.value_or(at);
            continue;
        }
        const double from = d.from->count(), to = d.to->count();
        double share = 0;
        if (to > from) {
            share = std::max(0.0, std::min(to, p1) - std::max(from, *p0)) / (to - from);
        } else {
            share = from >= *p0 && from <= p1 ? 1.0 : 0.0;
        }
        dropped += share * d.count;
    }
    w.producedDropped = std::llround(dropped);
    w.produced += w.producedDropped;
}

void measureSpans(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                  Metrics *m)
{
    // From the production of the first FROM to the arrival of the first TO after it; and
    // by kernel time alone where both ends carry one in the same boot.
    for (const auto &s : o.spans) {
        SpanResult r;
        r.from = s.first;
        r.to = s.second;
        r.fromLine = findFirstReporting(run, s.first, "--span", first, end, &m->warnings);
        if (!r.fromLine) {
            r.missing = QStringLiteral("no line matches '%1'").arg(s.first);
        } else {
            const LineIndex fromLine = *r.fromLine;
            r.toLine = findFirst(run, s.second, fromLine, end);
            if (!r.toLine) {
                r.missing =
                    QStringLiteral("no line matches '%1' after '%2'").arg(s.second, s.first);
                m->warnings << QStringLiteral("--span '%1' matched no line after '%2'")
                                   .arg(s.second, s.first);
            } else {
                // An end found in the text in front of a timestamp (a prompt) has no
                // kernel time: the one behind it is the kernel text's, printed later.
                const bool fromInFront = matchInFront(run, fromLine, s.first);
                const bool toInFront = matchInFront(run, *r.toLine, s.second);
                if (run.hasArrival) {
                    const std::optional<double> to =
                        secondsOf(run.runTimeOf(matchArrival(run, *r.toLine, s.second, end)));
                    const std::optional<double> from = fromInFront ? secondsOf(run.timeOf(fromLine))
                                                                   : productionTime(run, fromLine);
                    if (to && from) {
                        r.seconds = *to - *from;
                    }
                } else {
                    r.missing = QStringLiteral("no host arrival times");
                }
                const std::optional<KernelUs> k0 =
                    fromInFront ? std::nullopt : run.lines.kernelTime(fromLine);
                const std::optional<KernelUs> k1 =
                    toInFront ? std::nullopt : run.lines.kernelTime(*r.toLine);
                if (k0 && k1 && run.bootOf(fromLine) == run.bootOf(*r.toLine)) {
                    r.kernelSeconds = toSeconds(*k1 - *k0);
                } else {
                    r.kernelMissing = !k0 ? QStringLiteral("'%1' has no kernel time").arg(s.first)
                                      : !k1
                                          ? QStringLiteral("'%1' has no kernel time").arg(s.second)
                                          : QStringLiteral("the ends in different boots");
                }
            }
        }
        m->spans.push_back(r);
    }
}

} // namespace tty::metricpass
