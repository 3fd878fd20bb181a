// The JSON of a report (docs/report.md documents every key): per run, per group, and the
// differences of two columns.
#include "crashreport.h"
#include "jsonnumber.h"
#include "report.h"

#include <QJsonArray>

#include <cmath>

namespace tty {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QJsonValue num(double v)
{
    return jsonNumber(v);
}
QJsonValue num(const std::optional<double> &v)
{
    return jsonNumber(v);
}
} // namespace

bool eventOutputFromName(const QString &name, EventOutput::Which *out)
{
    if (name == QLatin1String("all")) {
        *out = EventOutput::Which::All;
    } else if (name == QLatin1String("crash")) {
        *out = EventOutput::Which::Crash;
    } else if (name == QLatin1String("none")) {
        *out = EventOutput::Which::None;
    } else {
        return false;
    }
    return true;
}

namespace {

// Where the rate of the wire figures came from (docs/report.md); null: no rate was taken.
QJsonValue baudSourceName(RunMeta::BaudSource s)
{
    switch (s) {
    case RunMeta::BaudSource::Given:
        return QStringLiteral("given");
    case RunMeta::BaudSource::Recording:
        return QStringLiteral("recording");
    case RunMeta::BaudSource::KernelCommandLine:
        return QStringLiteral("kernel_command_line");
    case RunMeta::BaudSource::Default:
        return QStringLiteral("default");
    case RunMeta::BaudSource::None:
        break;
    }
    return QJsonValue();
}

} // namespace

QJsonObject runToJson(const Run &run, const Metrics &m, const MetricOptions &o,
                      const EventOutput &eo)
{
    QJsonObject j;
    j[QStringLiteral("source")] = run.meta.source;
    j[QStringLiteral("format")] = formatName(run.meta.format);
    j[QStringLiteral("label")] = run.meta.label;
    j[QStringLiteral("baud")] = run.meta.baud;
    j[QStringLiteral("baud_source")] = baudSourceName(run.meta.baudSource);
    if (run.meta.baudSource == RunMeta::BaudSource::KernelCommandLine) {
        j[QStringLiteral("baud_stated")] = run.meta.baudStatement;
    }
    j[QStringLiteral("host_times")] = run.hasArrival;
    j[QStringLiteral("lines")] = double(m.lines);
    j[QStringLiteral("kernel_lines")] = double(m.kernelLines);
    j[QStringLiteral("kernel_lines_behind_text")] = double(m.kernelLinesBehindText);
    // A kernel log read from its buffer (dmesg, the journal) has no console bytes, drops
    // or times: null, and console_note says why.
    if (!m.notConsole.isEmpty()) {
        j[QStringLiteral("console_note")] = m.notConsole;
    }
    const bool bytesKnown = m.bytesUnknown.isEmpty();
    j[QStringLiteral("bytes")] = bytesKnown ? QJsonValue(double(m.bytes)) : QJsonValue();
    if (!bytesKnown) {
        j[QStringLiteral("bytes_note")] = m.bytesUnknown;
    }
    j[QStringLiteral("bytes_exact")] = bytesAreExact(run);
    j[QStringLiteral("bits_per_char")] = m.bitsPerChar;
    j[QStringLiteral("wire_s")] = bytesKnown ? num(m.wireSeconds) : QJsonValue();
    if (bytesKnown && m.baud <= 0) {
        // What the text report prints as the reason.
        j[QStringLiteral("wire_note")] = m.noSerialLine
                                             ? QStringLiteral("a netconsole: no serial line")
                                             : QStringLiteral("no baud rate: give --baud");
    }
    j[QStringLiteral("duration_s")] = num(m.duration);
    if (!m.startUntimed.isEmpty()) {
        j[QStringLiteral("duration_note")] = m.startUntimed;
    }
    j[QStringLiteral("kernel_duration_s")] = num(m.kernelDuration);
    j[QStringLiteral("boots")] = m.boots;
    const bool dropsKnown = m.dropsUnknown.isEmpty();
    QJsonObject drops{
        {QStringLiteral("notices"), dropsKnown ? QJsonValue(double(m.dropNotices)) : QJsonValue()},
        {QStringLiteral("messages"), m.dropCountOutOfRange || !dropsKnown
                                         ? QJsonValue()
                                         : QJsonValue(double(m.droppedMessages))}};
    if (!dropsKnown) {
        drops[QStringLiteral("note")] = m.dropsUnknown;
    }
    // Counts that can only grow past what the log saw (a cut, a queue still unprinted).
    const QString backlogUnseen = m.backlogUnseen();
    if (dropsKnown && !backlogUnseen.isEmpty()) {
        drops[QStringLiteral("at_least")] = true;
        drops[QStringLiteral("note")] = backlogUnseen;
    }
    if (m.dropCountOutOfRange) {
        drops[QStringLiteral("count_out_of_range_line")] =
            double(lineNumber(*m.dropCountOutOfRange));
    }
    j[QStringLiteral("drops")] = drops;
    QJsonObject panic{{QStringLiteral("detected"), m.panic.detected},
                      // No panic, no trace to be complete: null, as the report's n/a.
                      {QStringLiteral("trace_complete"), m.panicTraceCutOff() || !m.panic.detected
                                                             ? QJsonValue()
                                                             : QJsonValue(m.panic.complete)},
                      {QStringLiteral("missing"), QJsonArray::fromStringList(m.panic.missing)}};
    if (m.panicTraceCutOff()) {
        panic[QStringLiteral("trace_note")] =
            QStringLiteral("the file was read only in part, after the panic");
    } else if (!m.noPanicSeenWhy().isEmpty()) {
        panic[QStringLiteral("note")] = m.noPanicSeenWhy();
    }
    if (m.panic.detected) {
        panic[QStringLiteral("line")] = double(lineNumber(m.panic.line.value_or(LineIndex(-1))));
        panic[QStringLiteral("reason")] = m.panic.reason;
        if (m.panic.stackInOops) {
            panic[QStringLiteral("stack_in_oops_line")] = double(lineNumber(*m.panic.stackInOops));
        }
    }
    j[QStringLiteral("panic")] = panic;
    QJsonObject lag{{QStringLiteral("max_s"), m.lagMax ? num(*m.lagMax) : QJsonValue()},
                    {QStringLiteral("p50_s"), m.lagP50 ? num(*m.lagP50) : QJsonValue()},
                    {QStringLiteral("p99_s"), m.lagP99 ? num(*m.lagP99) : QJsonValue()}};
    if (!run.hasArrival) {
        lag[QStringLiteral("note")] = m.noArrivalNote();
    } else if (!m.lagMax && m.kernelLines == 0) {
        lag[QStringLiteral("note")] = QStringLiteral("no line has a kernel time");
    } else if (m.lagMax && !backlogUnseen.isEmpty()) {
        lag[QStringLiteral("max_at_least")] = true;
        lag[QStringLiteral("note")] = backlogUnseen;
    }
    if (m.behindAtEnd) {
        lag[QStringLiteral("behind_at_end_s")] = num(*m.behindAtEnd);
    }
    j[QStringLiteral("lag")] = lag;
    const bool producedKnown =
        m.window.found && m.window.producedKnown && !m.window.dropCountOutOfRange;
    QJsonObject win{{QStringLiteral("start"),
                     o.windowStart.isEmpty() ? QStringLiteral("first line") : o.windowStart},
                    {QStringLiteral("seconds"), o.windowSeconds},
                    {QStringLiteral("found"), m.window.found},
                    {QStringLiteral("lines"), m.window.found && m.window.printedKnown
                                                  ? QJsonValue(double(m.window.lines))
                                                  : QJsonValue()},
                    {QStringLiteral("produced"),
                     producedKnown ? QJsonValue(double(m.window.produced)) : QJsonValue()},
                    {QStringLiteral("produced_dropped"),
                     producedKnown ? QJsonValue(double(m.window.producedDropped)) : QJsonValue()},
                    {QStringLiteral("wire_s"), num(m.window.wireSeconds)}};
    QStringList notes;
    if (m.window.found && !m.window.printedKnown) {
        notes << (run.hasArrival ? QStringLiteral("the window ") + m.window.printedUnknownWhy
                                 : m.noArrivalNote()) +
                     QStringLiteral(": lines printed in the window are unknown");
    }
    if (m.window.found && !m.window.producedKnown) {
        notes << (m.kernelLines > 0 ? QStringLiteral("the window ") : QString()) +
                     m.window.producedUnknownWhy +
                     QStringLiteral(": lines produced in the window are unknown");
    } else if (m.window.found && m.window.dropCountOutOfRange) {
        notes << dropCountOutOfRangeReason(*m.window.dropCountOutOfRange);
    }
    // Counts of a window the log ended in are lower bounds (WindowResult).
    win[QStringLiteral("lines_at_least")] = m.window.printedSeenSeconds.has_value();
    win[QStringLiteral("produced_at_least")] = m.window.producedSeenSeconds.has_value();
    if (m.window.printedSeenSeconds || m.window.producedSeenSeconds) {
        QStringList seen;
        if (m.window.printedSeenSeconds) {
            seen << QString::number(*m.window.printedSeenSeconds, 'f', 3) +
                        QStringLiteral(" s by arrival");
        }
        if (m.window.producedSeenSeconds) {
            seen << QString::number(*m.window.producedSeenSeconds, 'f', 3) +
                        QStringLiteral(" s by kernel time");
        }
        notes << QStringLiteral("the log ends inside the window without the kernel saying it "
                                "stopped (seen: %1): its counts are lower bounds")
                     .arg(seen.join(QStringLiteral(", ")));
    }
    if (!notes.isEmpty()) {
        win[QStringLiteral("note")] = notes.join(QStringLiteral("; "));
    }
    if (!o.windowMatch.isEmpty()) {
        win[QStringLiteral("match")] = o.windowMatch;
    }
    if (m.window.found) {
        win[QStringLiteral("start_line")] =
            double(lineNumber(m.window.startLine.value_or(LineIndex(-1))));
        win[QStringLiteral("start_s")] = num(m.window.start);
    }
    j[QStringLiteral("window")] = win;
    QJsonArray spans;
    for (const SpanResult &s : m.spans) {
        QJsonObject so{{QStringLiteral("from"), s.from},
                       {QStringLiteral("to"), s.to},
                       {QStringLiteral("seconds"), num(s.seconds)},
                       {QStringLiteral("kernel_seconds"), num(s.kernelSeconds)}};
        if (!s.missing.isEmpty()) {
            so[QStringLiteral("missing")] = s.missing;
        }
        if (!s.kernelMissing.isEmpty()) {
            so[QStringLiteral("kernel_note")] = s.kernelMissing;
        }
        spans.append(so);
    }
    j[QStringLiteral("spans")] = spans;
    j[QStringLiteral("boot_time_s")] = num(m.bootTime);
    j[QStringLiteral("boot_start")] = o.bootStart;
    j[QStringLiteral("boot_time_first_byte_s")] = num(m.bootTimeFirstByte);
    j[QStringLiteral("boot_time_kernel_s")] = num(m.bootTimeKernel);
    j[QStringLiteral("boot_wire_s")] = num(m.bootWireSeconds);
    j[QStringLiteral("boot_wire_share")] =
        m.bootTimeFirstByte && *m.bootTimeFirstByte > 0
            ? num(m.bootWireSeconds
                      ? std::optional<double>(*m.bootWireSeconds / *m.bootTimeFirstByte)
                      : std::nullopt)
            : QJsonValue();
    if (!run.hasArrival) {
        j[QStringLiteral("boot_time_note")] = m.noArrivalNote();
    } else if (!m.bootStartNote.isEmpty()) {
        j[QStringLiteral("boot_time_note")] = m.bootStartNote;
    } else if (!m.bootDoneNote.isEmpty()) {
        j[QStringLiteral("boot_time_note")] = m.bootDoneNote;
    } else if (!m.bootDoneLine && !o.bootPattern.isEmpty()) {
        j[QStringLiteral("boot_time_note")] =
            QStringLiteral("no line matches the boot pattern '%1'").arg(o.bootPattern);
    }
    QJsonObject counts;
    for (int k = 0; k < kEventKindCount; ++k) {
        counts[QLatin1String(eventKindName(EventKind(k)))] = double(m.eventCounts[std::size_t(k)]);
    }
    j[QStringLiteral("event_counts")] = counts;
    QJsonArray events;
    qint64 omitted = 0;
    // From the first event of the trial's lines (a boot trial: one of 10^4 boots).
    for (std::size_t i = run.eventsBefore(m.first); i < run.events.size(); ++i) {
        const Event &e = run.events[i];
        if (e.line >= m.end && m.end < run.lines.endIndex()) {
            break;
        }
        const bool wanted = eo.which == EventOutput::Which::All ||
                            (eo.which == EventOutput::Which::Crash && isCrashKind(e.kind));
        if (!wanted || (eo.max && events.size() >= *eo.max)) {
            ++omitted;
            continue;
        }
        const LineText held = run.eventText(e);
        const std::string_view t = held.view();
        QJsonObject eo{{QStringLiteral("kind"), QLatin1String(eventKindName(e.kind))},
                       {QStringLiteral("line"), double(lineNumber(e.line))},
                       {QStringLiteral("text"), QString::fromUtf8(t.data(), qsizetype(t.size()))}};
        const std::optional<HostNs> a = run.eventArrival(e);
        eo[QStringLiteral("arrival")] =
            run.hasArrival && a ? QJsonValue(jsonSeconds(*a)) : QJsonValue();
        const std::optional<KernelUs> k = run.eventKernelTime(e);
        eo[QStringLiteral("kernel_time")] = k ? QJsonValue(jsonSeconds(*k)) : QJsonValue();
        if (e.kind == EventKind::Drop || e.kind == EventKind::Ratelimit) {
            eo[QStringLiteral("count")] =
                e.count == kCountOutOfRange ? QJsonValue() : QJsonValue(double(e.count));
        }
        events.append(eo);
    }
    j[QStringLiteral("events")] = events;
    j[QStringLiteral("events_omitted")] = double(omitted);
    // The crash list follows the event list's limits (a flood of WARN splats gives 10^5).
    const QJsonArray crashes = crashesToJson(run, m);
    const qsizetype keep = eo.which == EventOutput::Which::None ? 0
                           : eo.max ? std::min<qsizetype>(crashes.size(), *eo.max)
                                    : crashes.size();
    QJsonArray kept;
    for (qsizetype i = 0; i < keep; ++i) {
        kept.append(crashes[i]);
    }
    j[QStringLiteral("crashes")] = kept;
    j[QStringLiteral("crashes_omitted")] = double(crashes.size() - keep);
    QJsonArray intervals;
    for (const IntervalStats &s : m.intervals) {
        intervals.append(QJsonObject{{QStringLiteral("pattern"), s.pattern},
                                     {QStringLiteral("matches"), double(s.matches)},
                                     {QStringLiteral("mean_s"), num(s.mean)},
                                     {QStringLiteral("p50_s"), num(s.p50)},
                                     {QStringLiteral("p99_s"), num(s.p99)},
                                     {QStringLiteral("kernel_mean_s"), num(s.kernelMean)},
                                     {QStringLiteral("kernel_p50_s"), num(s.kernelP50)},
                                     {QStringLiteral("kernel_p99_s"), num(s.kernelP99)}});
    }
    j[QStringLiteral("intervals")] = intervals;
    j[QStringLiteral("warnings")] = QJsonArray::fromStringList(run.warnings + m.warnings);
    if (run.load.stoppedEarly()) {
        j[QStringLiteral("error")] = run.load.message;
    }
    // Cut, damaged or cancelled: the figures are of the lines read (the message is in
    // `error` or among the warnings).
    j[QStringLiteral("read_in_part")] = run.load.readInPart();
    return j;
}

QJsonObject Report::json() const
{
    QJsonArray runs;
    QJsonArray groups;
    for (const ReportColumn &c : m_columns) {
        QJsonArray members;
        for (std::size_t i = 0; i < c.metrics.size(); ++i) {
            QJsonObject o = runToJson(*c.runs[i], c.metrics[i], m_options, m_events);
            o[QStringLiteral("group")] = c.label;
            if (i < c.boots.size() && c.boots[i]) {
                o[QStringLiteral("boot")] = *c.boots[i] + 1;
            }
            runs.append(o);
        }
        QJsonArray sources;
        for (std::size_t k = 0; k < std::size_t(c.files.size()); ++k) {
            sources.append(c.source(k));
        }
        QJsonObject g{{QStringLiteral("label"), c.label},
                      {QStringLiteral("n"), int(c.metrics.size())},
                      {QStringLiteral("sources"), sources}};
        QJsonObject stats;
        for (const ReportRow &row : m_rows) {
            const std::size_t ci = std::size_t(&c - m_columns.data());
            const Summary s = summarizePresent(row.values[ci]);
            QJsonArray vals;
            for (const std::optional<double> &v : row.values[ci]) {
                vals.append(num(v));
            }
            stats[row.key] = QJsonObject{{QStringLiteral("mean"), num(s.n ? s.mean : kNaN)},
                                         {QStringLiteral("sd"), num(s.n > 1 ? s.sd : kNaN)},
                                         {QStringLiteral("n"), s.n},
                                         {QStringLiteral("values"), vals}};
        }
        g[QStringLiteral("metrics")] = stats;
        groups.append(g);
    }
    QJsonObject top{{QStringLiteral("runs"), runs}, {QStringLiteral("groups"), groups}};
    if (hasDiff()) {
        QJsonObject diff;
        for (const ReportRow &row : m_rows) {
            const Summary a = summarizePresent(row.values[0]), b = summarizePresent(row.values[1]);
            if (a.n == 0 || b.n == 0) {
                continue;
            }
            const double d = b.mean - a.mean;
            const int w = better(row);
            const Difference wd = difference(row);
            QJsonObject entry{
                {QStringLiteral("b_minus_a"), num(d)},
                {QStringLiteral("percent"),
                 a.mean != 0 ? num(100.0 * d / std::fabs(a.mean)) : QJsonValue()},
                {QStringLiteral("ci95"),
                 wd.valid ? QJsonValue(QJsonArray{num(wd.ciLow), num(wd.ciHigh)}) : QJsonValue()},
                {QStringLiteral("p"), wd.valid && !wd.noSpread ? num(wd.p) : QJsonValue()},
                {QStringLiteral("significant"),
                 wd.valid ? QJsonValue(wd.significant()) : QJsonValue()},
                {QStringLiteral("better"), w == 0 ? QJsonValue() : QJsonValue(w > 0 ? "B" : "A")}};
            if (!wd.valid) {
                // Why ci95, p and significant are null: a side's noise is not known.
                entry[QStringLiteral("untested")] =
                    QStringLiteral("%1 has %2 value(s); a test needs two or more on each side")
                        .arg(a.n < 2 ? QStringLiteral("A") : QStringLiteral("B"))
                        .arg(a.n < 2 ? a.n : b.n);
            }
            if (wd.noSpread) {
                // Why p is null: no test was made, the difference is the same in every pair.
                entry[QStringLiteral("no_spread")] =
                    QStringLiteral("every trial of each side gave the same value");
            }
            diff[row.key] = entry;
        }
        top[QStringLiteral("diff")] = diff;
        const DiffTally tally = diffTally();
        top[QStringLiteral("diff_tested")] =
            QJsonObject{{QStringLiteral("tested"), tally.tested},
                        {QStringLiteral("significant"), tally.significant},
                        {QStringLiteral("expected_by_chance"), num(tally.tested * 0.05)}};
        top[QStringLiteral("crash_comparison")] = crashComparison(m_columns);
    }
    return top;
}

} // namespace tty
