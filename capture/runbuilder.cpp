#include "runbuilder.h"

#include "lineanalysis.h"
#include "lineframer.h"
#include "msgtemplate.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace tty {

namespace {
// A host clock that goes back by more than this is reported; smaller jitter is only clamped.
constexpr Nanoseconds kReportedStep{1000000};
} // namespace

void RunBuilder::addLine(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags,
                         std::optional<KernelUs> kernel, std::optional<int> level, bool parsePrefix)
{
    add(text, arrival, flags, analyseLine(text, flags, kernel, level, parsePrefix));
}

void RunBuilder::addRecordLine(std::string_view text, std::optional<HostNs> arrival,
                               std::uint16_t flags, std::optional<KernelUs> kernel,
                               std::optional<int> level, std::size_t message)
{
    add(text, arrival, flags, analyseLine(text, flags, kernel, level, false, message));
}

void RunBuilder::add(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags,
                     const LineFacts &f)
{
    // A record's dictionary is no console line (a partial line shown while the rest is
    // awaited stays one: it is replaced in place).
    if (m_inRecord && !(flags & NoNewline) && isRecordDictionaryLine(text)) {
        ++m_run.metaLines;
        return;
    }
    m_inRecord = f.sequence.has_value();
    const LineIndex idx = m_run.lines.endIndex();
    if (f.fragment) {
        addFragmentedRecords(1, idx);
    }
    if (flags & Split) {
        ++m_splitPieces;
    }
    if (f.flags & KernelTimeDamaged) {
        addDamagedTimes(1, idx);
    }
    const std::optional<HostNs> repaired = repairArrival(arrival, idx);
    if (f.sequence) {
        if (std::optional<Event> gap = sequenceGap(*f.sequence, idx, repaired)) {
            m_run.events.push_back(*gap);
        }
    }
    m_run.lines.append(text, repaired, f.kernel, f.flags);
    detectEvents(m_rules, text, f, idx, &m_run.events);
}

std::optional<Event> RunBuilder::sequenceGap(std::uint64_t sequence, LineIndex line,
                                             std::optional<HostNs> arrival)
{
    const std::optional<std::uint64_t> last = m_sequence.last();
    const std::uint64_t missing = m_sequence.lostBefore(sequence);
    m_run.recordNumbers.seen = true;
    if (missing == 0) {
        return std::nullopt;
    }
    m_run.recordNumbers.gaps += 1;
    // Garbage numbers can jump by up to 10^18 again and again: the sum saturates.
    std::int64_t sum = 0;
    if (__builtin_add_overflow(m_run.recordNumbers.missing,
                               std::int64_t(std::min<std::uint64_t>(missing, INT64_MAX)), &sum)) {
        sum = INT64_MAX;
    }
    m_run.recordNumbers.missing = sum;
    // A gap in what reached the capture, not a drop: see Run::RecordNumbers. Noted on the
    // lines' clock already (the arrival is the line's, repaired): no second correction.
    Event e = noteEvent(
        EventKind::Gap,
        QStringLiteral("%1 record(s) missing: the record numbers jump from %2 to "
                       "%3 (below the console's log level, dropped by printk, "
                       "or lost on the network)")
            .arg(missing)
            .arg(*last)
            .arg(sequence)
            .toStdString(),
        std::nullopt, missing < kCountOutOfRange ? std::uint32_t(missing) : kCountOutOfRange, line);
    e.arrival = arrival;
    return e;
}

std::optional<HostNs> RunBuilder::repairArrivalSlow(std::optional<HostNs> stamped, LineIndex line)
{
    if (!stamped) {
        return stamped;
    }
    // The timeline needs arrival times that never go back: a host clock stepped back
    // (NTP, a user setting the date) is folded out and reported.
    // A time so far from the others that the correction would wrap, or beyond
    // kHostLimitNs, is corrupt, not a clock step: the line keeps the time of the line
    // before, like an untimed line. The checks work on the counts (the types' operators
    // saturate, which keeps them defined but would not say so).
    std::int64_t arrival = 0, step = 0, correction = m_clockCorrection.count();
    const std::int64_t last = m_lastArrivalNs;
    const bool hasLast = last != kNoArrival;
    if (__builtin_add_overflow(stamped->count(), m_clockCorrection.count(), &arrival) ||
        arrival > kHostLimitNs || arrival < -kHostLimitNs ||
        (hasLast && arrival < last &&
         (__builtin_sub_overflow(last, arrival, &step) ||
          __builtin_add_overflow(m_clockCorrection.count(), step, &correction)))) {
        if (m_outOfRange++ == 0) {
            m_firstOutOfRangeLine = line;
        }
        return hasLast ? std::optional<HostNs>(HostNs(last)) : std::nullopt;
    }
    if (hasLast && arrival < last) {
        m_clockCorrection = Nanoseconds(correction);
        if (Nanoseconds(step) > kReportedStep) {
            ++m_clockSteps;
            m_largestStep = std::max(m_largestStep, Nanoseconds(step));
            if (!m_firstStepLine) {
                m_firstStepLine = line;
            }
        }
        arrival = last;
    }
    m_lastArrivalNs = arrival;
    return HostNs(arrival);
}

void RunBuilder::replaceLastLine(std::string_view text, std::uint16_t flags)
{
    if (m_run.lines.empty()) {
        return;
    }
    const LineIndex idx = m_run.lines.endIndex() - 1_lines;
    // Take off the events at the end that belong to the old text, keeping note events
    // (markers, gaps) in place: those placed before the line, then the line's new events,
    // then those placed after it, so the events stay in line order.
    std::vector<Event> before, after;
    while (!m_run.events.empty() && m_run.events.back().line >= idx) {
        const Event e = m_run.events.back();
        m_run.events.pop_back();
        if (e.note) {
            (e.line == idx ? before : after).push_back(e);
        }
    }
    m_run.events.insert(m_run.events.end(), before.rbegin(), before.rend());
    // The completed text's prefix decides the level and kernel time, as in addLine.
    const LineFacts f = analyseLine(text, flags);
    const bool wasDamaged = m_run.lines.flags(idx) & KernelTimeDamaged;
    if (!wasDamaged && (f.flags & KernelTimeDamaged)) {
        addDamagedTimes(1, idx);
    } else if (wasDamaged && !(f.flags & KernelTimeDamaged)) {
        --m_damagedTimes;
    }
    m_run.lines.replaceLast(text, f.flags, f.kernel);
    detectEvents(m_rules, text, f, idx, &m_run.events);
    m_run.events.insert(m_run.events.end(), after.rbegin(), after.rend());
}

void RunBuilder::addNoteEvent(EventKind kind, std::string_view text, std::optional<HostNs> arrival,
                              std::uint32_t count)
{
    m_run.events.push_back(noteEvent(kind, text, arrival, count, m_run.lines.endIndex()));
}

Event RunBuilder::noteEvent(EventKind kind, std::string_view text, std::optional<HostNs> arrival,
                            std::uint32_t count, LineIndex line)
{
    Event e;
    e.line = line;
    e.kind = kind;
    e.count = count;
    // A recorded marker is on the lines' host clock: it moves with their clock-step
    // correction, and a corrupt time gets the last line's, as a line's would.
    if (arrival) {
        std::int64_t ns = 0;
        if (__builtin_add_overflow(arrival->count(), m_clockCorrection.count(), &ns) ||
            ns > kHostLimitNs || ns < -kHostLimitNs) {
            if (m_outOfRange++ == 0) {
                m_firstOutOfRangeLine = e.line;
            }
            arrival = m_lastArrivalNs != kNoArrival ? std::optional<HostNs>(HostNs(m_lastArrivalNs))
                                                    : std::nullopt;
        } else {
            arrival = HostNs(ns);
        }
    }
    e.arrival = arrival;
    e.note = std::int32_t(m_run.notes.size());
    m_run.notes.emplace_back(text);
    return e;
}

void RunBuilder::addRecorderWarning(std::string_view text)
{
    const QString first =
        QStringLiteral("recorder: %1").arg(QString::fromUtf8(text.data(), qsizetype(text.size())));
    auto [it, added] =
        m_recorderWarnings.try_emplace(messageTemplate(text), RecorderWarning{0, first, 0});
    RecorderWarning &w = it->second;
    ++w.count;
    if (added || w.entry >= m_run.warnings.size()) {
        w.entry = m_run.warnings.size();
        m_run.warnings << first;
        return;
    }
    m_run.warnings[w.entry] =
        QStringLiteral("%1 (the first of %2 such warnings)").arg(w.first, QString::number(w.count));
}

void RunBuilder::finish()
{
    if (m_splitPieces > 0) {
        m_run.warnings << QStringLiteral(
                              "%1 time(s) a line ran past %2 MiB without a line end: it was cut "
                              "there, and the rest goes on in the next line (nothing was lost)")
                              .arg(m_splitPieces)
                              .arg(LineFramer::kDefaultMaxLine >> 20);
    }
    if (m_damagedTimes > 0) {
        const LineText text = m_run.lines.text(m_firstDamagedTime);
        const std::string_view t = text.view();
        // "[    0.0400]", or a record header's "6,1,999999999999999999,-;".
        const std::size_t close = std::min(t.find(']'), t.find(';'));
        const std::string_view stamp = t.substr(0, std::min(close + 1, std::size_t(24)));
        m_run.warnings << QStringLiteral("%1 line(s) began with a kernel timestamp that is not "
                                         "printk's (first: line %2, '%3'): characters were "
                                         "lost on the line; they count as lines without a "
                                         "kernel time")
                              .arg(m_damagedTimes)
                              .arg(lineNumber(m_firstDamagedTime))
                              .arg(QString::fromUtf8(stamp.data(), qsizetype(stamp.size())));
    }
    if (m_fragmented > 0) {
        m_run.warnings << QStringLiteral(
                              "%1 record(s) longer than one of netconsole's datagrams came in "
                              "fragments (first: line %2): each is one line, with the headers "
                              "of its later fragments (\",ncfrag=\") inside its text")
                              .arg(m_fragmented)
                              .arg(lineNumber(m_firstFragmented));
    }
    if (m_clockSteps > 0) {
        m_run.warnings << QStringLiteral(
                              "the host clock went back %1 time(s) (largest step %2 s, first "
                              "before line %3); times after each step were shifted so the "
                              "timeline stays in order")
                              .arg(m_clockSteps)
                              .arg(double(m_largestStep.count()) * 1e-9, 0, 'f', 3)
                              .arg(lineNumber(m_firstStepLine.value_or(LineIndex(-1))));
    }
    if (m_outOfRange > 0) {
        m_run.warnings << QStringLiteral("%1 arrival time(s) were too far from the others or "
                                         "from the epoch to be used (first: line %2); each was "
                                         "given the time of the line before")
                              .arg(m_outOfRange)
                              .arg(lineNumber(m_firstOutOfRangeLine.value_or(LineIndex(-1))));
    }
    if (m_run.hasArrival && m_lastArrivalNs == kNoArrival && !m_run.lines.empty()) {
        // A log of a stamped format none of whose lines had a usable stamp (forced with
        // --format, or every stamp corrupt): read like raw text, its lines placed by their
        // kernel times, rather than as arrivals of which none is known (printed and wire
        // lanes of zeros, a source lane in % of the UART by production).
        m_run.hasArrival = false;
        m_run.arrivalIsWallClock = false;
        m_run.arrivalIsLineEnd = false;
        m_run.warnings << QStringLiteral("no line had a host time: the log is read without "
                                         "arrival times");
    }
    m_run.finalize();
    warnClockShifts();
    warnClockDrift();
}

void RunBuilder::warnClockShifts()
{
    int count = 0;
    Nanoseconds largest{0};
    std::optional<LineIndex> first;
    for (const Boot &b : m_run.boots) {
        HostNs zero = b.kernelZero.value_or(HostNs(0));
        for (const Boot::ClockShift &c : b.shifts) {
            ++count;
            largest = std::max(largest, c.zero - zero);
            zero = c.zero;
            first = first.value_or(c.from);
        }
    }
    if (count == 0) {
        return;
    }
    m_run.warnings << QStringLiteral(
                          "the kernel's clock fell behind the host's %1 time(s) within a boot "
                          "(largest %2 s, first at line %3) while the console was idle: a "
                          "suspend stops the kernel's clock, and a host clock stepping forward "
                          "looks the same. Console lag after each counts from the kernel's new "
                          "offset; durations and windows keep the host's clock")
                          .arg(count)
                          .arg(double(largest.count()) * 1e-9, 0, 'f', 3)
                          .arg(lineNumber(first.value_or(LineIndex(-1))));
}

void RunBuilder::warnClockDrift()
{
    for (std::size_t bi = 0; bi < m_run.boots.size(); ++bi) {
        const Boot &b = m_run.boots[bi];
        if (b.kernelRate == 1.0 || !b.firstKernelLine) {
            continue;
        }
        const double ppm = (b.kernelRate - 1.0) * 1e6;
        std::optional<KernelUs> last;
        for (LineIndex i = b.end; i > *b.firstKernelLine && !last;) {
            last = m_run.lines.kernelTime(--i);
        }
        const double span = last ? double(last->sinceOrigin().count()) * 1e-6 : 0.0;
        m_run.warnings << QStringLiteral(
                              "boot %1: the kernel's clock ran %2 ppm %3 than the host's while "
                              "the console was idle (%4 s over its %5 s): console lag is "
                              "measured from a floor drifting with it")
                              .arg(bi + 1)
                              .arg(std::abs(ppm), 0, 'f', 1)
                              .arg(ppm > 0 ? QStringLiteral("slower") : QStringLiteral("faster"))
                              .arg(std::abs(ppm) * 1e-6 * span, 0, 'f', 3)
                              .arg(span, 0, 'f', 0);
    }
}

} // namespace tty
