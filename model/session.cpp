#include "session.h"

#include "bootstart.h"
#include "linesearch.h"

namespace tty {

QVector<TimelineRun> Session::timelineRuns(QStringList *warnings,
                                           const QVector<TimelineRun> *previous) const
{
    QVector<TimelineRun> out;
    for (int s = 0; s < sides.size(); ++s) {
        for (const Trial &t : sides[s].trials) {
            TimelineRun tr;
            tr.run = t.run;
            tr.group = s;
            tr.groupLabel = sides[s].label;
            tr.source = t.source();
            tr.label = sides[s].trials.size() > 1
                           ? QStringLiteral("%1 [%2]").arg(sides[s].label, t.source())
                           : sides[s].label;
            LineIndex first{0};
            std::optional<LineIndex> end; // none: the whole run
            if (const Boot *b = t.bootOfRun()) {
                first = b->first;
                end = b->end;
            }
            const TimelineRun *before =
                previous && out.size() < previous->size() ? &(*previous)[out.size()] : nullptr;
            const bool same = before && before->run == t.run && before->firstLine == first &&
                              before->endLine == end;
            if (same && !t.run->growLock) {
                tr.shift = before->shift; // a loaded run: the same anchor as before
            } else {
                // A growing run resumes its search where it got to (the lines searched
                // without a hit stay without one); another searches its lines.
                if (same) {
                    tr.anchorSearch = before->anchorSearch;
                }
                const std::optional<RunSeconds> anchor =
                    t.run->growLock ? alignmentTime(*t.run, alignment, first, end, &tr.anchorSearch)
                                    : alignmentTime(*t.run, alignment, first, end);
                if (!anchor && warnings && alignment.kind != Alignment::Kind::Start) {
                    *warnings << QStringLiteral("%1: no '%2' to align on; shown from its start")
                                     .arg(t.source(), alignment.spec());
                }
                // Without one, from its start: a boot trial's is its boot's first line.
                const std::optional<RunSeconds> start =
                    end ? alignmentTime(*t.run, Alignment{}, first, end) : std::nullopt;
                tr.shift = anchor.value_or(start.value_or(RunSeconds(0))).count();
            }
            tr.firstLine = first;
            tr.endLine = end;
            if (end && first < *end) {
                tr.spanFrom = t.run->timeOf(arrivalStandIn(*t.run, first, *end));
                tr.spanTo = t.run->timeOf(*end - 1_lines);
            }
            out.append(tr);
        }
    }
    return out;
}

QVector<PatternSeries> Session::patternSeries() const
{
    QVector<PatternSeries> out;
    for (const QString &re : patterns) {
        PatternSeries ps;
        ps.regex = re;
        for (const Side &side : sides) {
            for (const Trial &t : side.trials) {
                std::vector<double> times;
                const Run &r = *t.run;
                // The search takes the run's read lock itself (it is not recursive); a live
                // run only grows meanwhile, so the lines found stay where they are.
                const auto lines = findMatchingLines(r, re, nullptr);
                const auto lock = r.readLock();
                if (lines) {
                    times.reserve(lines->size());
                    for (const LineIndex i : *lines) {
                        // A match without an arrival time has no place on the time axis.
                        if (const std::optional<RunSeconds> at = r.timeOf(i)) {
                            times.push_back(at->count());
                        }
                    }
                }
                ps.times.append(std::move(times));
            }
        }
        out.append(ps);
    }
    return out;
}

Report Session::report() const
{
    std::vector<ReportColumn> cols;
    for (const Side &side : sides) {
        ReportColumn c;
        c.label = side.label;
        c.metrics.reserve(std::size_t(side.trials.size()));
        for (const Trial &t : side.trials) {
            c.runs.push_back(t.run.get());
            c.boots.push_back(t.boot);
            c.files << t.file;
            if (const Boot *b = t.bootOfRun()) {
                c.metrics.push_back(computeMetrics(*t.run, metrics, b->first, b->end));
            } else {
                c.metrics.push_back(computeMetrics(*t.run, metrics));
            }
        }
        cols.push_back(std::move(c));
    }
    return Report(std::move(cols), metrics);
}

QString Session::title() const
{
    QStringList parts;
    for (const Side &s : sides) {
        parts << (s.trials.size() > 1 ? QStringLiteral("%1 (%2 trials)")
                                            .arg(s.label, QString::number(s.trials.size()))
                                      : s.label);
    }
    QString t = parts.join(QStringLiteral("  vs  "));
    if (sample) {
        t = QStringLiteral("Sample: ") + t;
    }
    return t;
}

} // namespace tty
