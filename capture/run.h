// A loaded (or live) console capture: its lines, events, boots, clocks and series.
#pragma once

#include "clockdrift.h"
#include "event.h"
#include "eventkindindex.h"
#include "formatregistry.h"
#include "growlock.h"
#include "linetable.h"
#include "loadoutcome.h"
#include "series.h"
#include "types.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex> // std::shared_lock
#include <string>
#include <vector>

namespace tty {

struct RunMeta
{
    QString source;                  // the file it was loaded from, or the port it was captured on
    Format format = Format::Unknown; // its name: formatName(format)
    QString label;                   // the recording's label, else the file name
    QString tool;                    // recording metadata, where the format has it
    QString startUtc;
    QString host;
    int baud = 0; // from metadata or the user's --baud; 0 = unknown
    // Where the rate came from: what a report says beside the wire figures.
    enum class BaudSource {
        None,              // no rate was taken (a netconsole: no serial line)
        Given,             // --baud, or the window's choice
        Recording,         // the recording's header
        KernelCommandLine, // the boot's `console=ttyS0,38400` (consolerate.h)
        Default,           // ttyscope's default: nothing stated one
    };
    BaudSource baudSource = BaudSource::None;
    QString baudStatement; // KernelCommandLine: the console= word, as printed
    // A recording of a netconsole (its header's "line": "none"): the bytes crossed no
    // serial line, and no rate is taken for them.
    bool noSerialLine = false;
    QJsonObject extra; // every other header field, kept
};

// One boot of the kernel inside a capture (a console-server log may hold many).
struct Boot
{
    LineIndex first;
    LineIndex end; // one past the last line
    std::optional<LineIndex> firstKernelLine;
    // Lower envelope of (arrival - kernel time): the host time of kernel time 0,
    // estimated per boot. None when the format has no arrival times.
    std::optional<HostNs> kernelZero;
    // Where the two clocks moved apart within the boot: the kernel's stops during a
    // suspend (its timestamps go on where they were, the host's do not), and a host
    // clock can step forward. From `from` on, kernel time 0 lies at `zero` (the lower
    // envelope of the lines after it). Found only where the console had caught up before
    // and went idle after (Run::advanceBootSplit): a backlog cannot make such a jump.
    struct ClockShift
    {
        LineIndex from;
        HostNs zero;
    };
    std::vector<ClockShift> shifts;
    // The shifts met by a pass over the boot's lines in order, from `first` on: at(i)
    // gives the new kernel time 0 where a shift starts at line i.
    class ShiftWalk
    {
    public:
        ShiftWalk(const Boot &b, LineIndex first) : m_shifts(b.shifts)
        {
            while (m_next < m_shifts.size() && m_shifts[m_next].from <= first) {
                ++m_next;
            }
        }
        std::optional<HostNs> at(LineIndex i)
        {
            if (m_next < m_shifts.size() && m_shifts[m_next].from == i) {
                return m_shifts[m_next++].zero;
            }
            return std::nullopt;
        }

    private:
        const std::vector<ClockShift> &m_shifts;
        std::size_t m_next = 0;
    };
    // Kernel time 0 for line i of this boot.
    std::optional<HostNs> kernelZeroAt(LineIndex i) const
    {
        if (shifts.empty() || i < shifts.front().from || !kernelZero) {
            return kernelZero;
        }
        auto it = std::upper_bound(shifts.begin(), shifts.end(), i,
                                   [](LineIndex l, const ClockShift &c) { return l < c.from; });
        return std::prev(it)->zero;
    }
    // Host seconds per kernel second: 1, unless the boot's idle console showed its two
    // clocks running at different rates (clockdrift.h). Production on the host's clock is
    // then kernelZero + kernel time * kernelRate.
    double kernelRate = 1.0;
    RunSeconds timeBase; // runs without arrival times: run time of this boot's kernel time 0
    QString version;     // from the `Linux version` banner
};

// Where the messages behind a drop notice (or a kmsg sequence gap) were produced. Their
// kernel times are lost, but bounded: after the last record printed before the notice and
// before the first printed after it.
struct DropSpan
{
    std::size_t event = 0;           // index into Run::events
    std::optional<LineIndex> before; // the last line with a kernel time before the drop
    std::optional<LineIndex> after;  // the first line with a kernel time after it
    std::optional<RunSeconds> from;  // production clock; none without neighbours
    std::optional<RunSeconds> to;
    std::uint32_t count = 0;
};

class Run
{
public:
    RunMeta meta;
    LineTable lines;
    std::vector<Event> events;      // in line order
    std::vector<std::string> notes; // texts of events that are not console lines
    std::vector<Boot> boots;
    std::vector<DropSpan> drops; // one per drop event, in line order (finalize fills it)
    EventKindIndex eventsByKind; // finalize fills it
    SeriesPyramid series;
    // A run that grows while other threads read it (a live capture: pattern lanes and the
    // log search run on workers while the GUI thread appends) has this lock. Readers on
    // other threads hold it shared (readLock()); the thread that changes the run holds it
    // alone meanwhile, so no reader sees a LineTable being grown. Null for a loaded run,
    // which no longer changes.
    std::shared_ptr<GrowLock> growLock;
    std::shared_lock<GrowLock> readLock() const
    {
        return growLock ? std::shared_lock<GrowLock>(*growLock) : std::shared_lock<GrowLock>();
    }

    bool hasArrival = false;         // the format carries host arrival times
    bool arrivalIsWallClock = false; // ...and they are Unix times (not elapsed)
    // ...and each is when the line's end arrived (moreutils ts), not its first byte: the
    // text in front of a kernel timestamp, and a last line without a newline (stamped when
    // the input ended), came at a time not known (bootstart.h).
    bool arrivalIsLineEnd = false;
    // The lines start with a date or time no format reads (looksStampedButUnread): text
    // the terminal program wrote, not the console, so the file's bytes are not the wire's.
    bool unreadStamps = false;
    // When the capture stopped: a ttyscope recording's `E` record, written when the user
    // stopped it. A capture that ran on after its last line saw that nothing came; none for
    // other formats, or a recorder that was killed.
    std::optional<HostNs> captureEnd;
    HostNs origin;          // run second 0 (first arrival)
    std::int64_t bytes = 0; // console bytes including line endings as received
    // Lines that are not console output, not kept: a console server's (conserver's MARKs), a
    // record's dictionary (netconsole's extended form).
    std::int64_t metaLines = 0;
    std::int64_t kernelLines = 0;
    // The record numbers of netconsole's extended form (kmsgheader.h): whether lines had
    // them, and the records missing from them. A console skips the records below its log
    // level and prints no drop notice in this form: a record missing is one of those, one
    // printk dropped, or a datagram the network lost, which the numbers cannot tell apart.
    struct RecordNumbers
    {
        bool seen = false;
        std::int64_t missing = 0;
        std::int64_t gaps = 0;
    } recordNumbers;

    QStringList warnings; // damage that was survived: what happened and what was kept
    // How the load ended: complete, or read in part (truncated, damaged, cancelled) and why.
    LoadStatus load;

    // When the line arrived, in seconds since the start of the run; none without an
    // arrival time (a format without host times, or a line that lost its stamp).
    std::optional<RunSeconds> timeOf(LineIndex i) const;
    // A host time in seconds since the start of the run.
    std::optional<RunSeconds> runTimeOf(std::optional<HostNs> at) const;
    // When the line was produced, in run seconds (kernel time mapped to the host clock);
    // none without kernel time, or before the lines were split into boots.
    std::optional<RunSeconds> producedAt(LineIndex i) const;
    // The time a line's `bytes` took on the wire, in run seconds, for the series: from
    // `arrived` (its first byte) for as long as they take at meta.baud, but not past
    // `next`, the next line's first byte (the UART sends one line after the other; a host
    // that read faster than the rate shows it), nor from before `*frontier`, where the
    // pass's last span ended (moved on to this one's end): a clock that jumps back and
    // forth cannot spread line after line over the same bins, and a pass costs at most
    // its bins and two a line. Without a rate, or with the next line stamped no later
    // (several lines from one read()), the span is empty: the bytes stay at the arrival.
    struct WireSpan
    {
        double from = 0, to = 0;
        bool empty() const { return !(to > from); }
    };
    WireSpan wireSpan(double arrived, double bytes, std::optional<RunSeconds> next,
                      double *frontier) const;
    // The bytes line i put on the wire: its text and its line end as the format counts it.
    double wireBytes(LineIndex i) const;
    // Console lag (arrival - production); none where either is unknown.
    std::optional<Seconds> lagOf(LineIndex i) const;
    int bootOf(LineIndex i) const;
    // The boots holding lines of [first, end), by binary search: a pass over a range (a
    // trial's metrics, a slice of the series) visits those, not every boot of a console
    // server's log of 10^5 boots for each of its trials.
    struct BootRange
    {
        const Boot *from, *to;
        const Boot *begin() const { return from; }
        const Boot *end() const { return to; }
    };
    BootRange bootsOverlapping(LineIndex first, LineIndex end) const;
    // The index in `events` of the first event of `line` or after (they are in line order):
    // the events of lines [a, b) are [eventsBefore(a), eventsBefore(b)).
    std::size_t eventsBefore(LineIndex line) const;
    // Text of an event: its note, else its line.
    LineText eventText(const Event &e) const;
    // Arrival of an event (recorded markers have their own), else its line's, if any.
    std::optional<HostNs> eventArrival(const Event &e) const;
    // That arrival in run seconds; none without one.
    std::optional<RunSeconds> eventTime(const Event &e) const;
    // The kernel time of an event: its line's, unless the event is a note or lies in the
    // text in front of the line's kernel timestamp (a boot loader's or a prompt's text,
    // which the kernel did not stamp).
    std::optional<KernelUs> eventKernelTime(const Event &e) const;
    // The same for events[index], from a table finalize() fills: passes over all events
    // of a big log (10^5 and more) then need not reach into the line table once each.
    std::optional<RunSeconds> eventTime(std::size_t index) const
    {
        return index < m_eventTimes.size() ? m_eventTimes[index] : eventTime(events[index]);
    }
    // The last line that arrived at or before a run second (line 0 if none): arrival times are
    // monotone once loaded, so this is a binary search.
    LineIndex lineAt(RunSeconds t) const;
    // Host time for a run time, for wall-clock axes.
    HostNs hostTimeAt(RunSeconds t) const
    {
        // Any x a view may ask for (panned far past the data) gives a time: clamped to what
        // int64 nanoseconds hold, never an undefined cast.
        constexpr double kLimit = 9.2e18;
        const double ns = t.count() * 1e9;
        return origin +
               Nanoseconds(std::isnan(ns) ? 0 : std::int64_t(std::clamp(ns, -kLimit, kLimit)));
    }

    // Recomputes boots, clock offsets and series after lines were added.
    void finalize();
    // Splits boots over the lines [up to `end`, none: all) added since the last call, ahead
    // of finalize(), which then has only the rest to do. The caller promises that those
    // lines and their events will not change any more: a loader's lines, or all but the
    // last line of a live capture (a partial line that may still grow).
    void splitBootsSoFar(std::optional<LineIndex> end = std::nullopt);

private:
    static constexpr HostNs kNoHost = HostNs(std::numeric_limits<std::int64_t>::min());
    static constexpr KernelUs kNoKernel = KernelUs(-1);
    // What the boot-splitting pass learns about each boot for the passes after it.
    struct BootScan
    {
        // min(arrival - kernel time); the largest HostNs while there was none (a sentinel
        // kept inside the class: this is updated for every kernel line).
        HostNs envelope = HostNs(std::numeric_limits<std::int64_t>::max());
        // Extremes of kernel time, minKernel > maxKernel while there was none.
        KernelUs minKernel = KernelUs(std::numeric_limits<std::int64_t>::max());
        KernelUs maxKernel = KernelUs(std::numeric_limits<std::int64_t>::min());
        // Clock shifts found so far (Boot::shifts), each zero the lower envelope of its
        // lines; and the search for the next one: the largest jump of (arrival - kernel
        // time) from a console that had caught up, and the least of it since that jump.
        std::vector<Boot::ClockShift> shifts;
        HostNs lastLag = kNoHost;
        Nanoseconds jump{0};
        LineIndex jumpLine;
        HostNs leastSinceJump = kNoHost;
        // The points where the console was idle, for the clocks' drift (none after a shift).
        IdleFloor idle;
    };
    // The boot-splitting pass, resumable line by line.
    struct BootSplit
    {
        std::vector<Boot> boots; // closed so far
        std::vector<BootScan> scans;
        Boot cur;
        BootScan scan;
        // Updated for every line, so plain values with a reserved "none" (kNone...) rather
        // than std::optional; they stay inside Run.
        KernelUs lastKt = kNoKernel;
        LineIndex lastKernelLine;
        std::size_t event = 0; // first event not before the next line
        HostNs lastArrival = kNoHost;
        HostNs lastKernelArrival = kNoHost; // arrival of the last kernel line
        bool ended = false; // the current boot printed a reboot, power-off or panic line
        std::int64_t kernelLines = 0;
        LineIndex done; // lines split
    };
    void advanceBootSplit(BootSplit *s, LineIndex end) const;
    // Whether a kernel line at `kt` (arriving at `arrival`) starts a new boot by its clock.
    static bool clockRestarted(const BootSplit &s, KernelUs kt, HostNs arrival);
    // Whether the current boot's kernel lines are those a kernel prints before its own
    // banner at line `banner` (arm's `Booting Linux on physical CPU`).
    static bool beforeOwnBanner(const BootSplit &s, LineIndex banner, std::optional<KernelUs> kt);
    // Ends the current boot before line `start`, where the next one begins.
    static void closeBoot(BootSplit *s, LineIndex start);
    // Where a boot followed by a kernel (not firmware) output hands over to it, the next
    // kernel's first line being `next`: after the old kernel's last line and a login
    // prompt printed after it.
    LineIndex handoverLine(const BootSplit &s, LineIndex next) const;
    void splitBoots(std::vector<BootScan> *scans);
    void estimateOffsets(const std::vector<BootScan> &scans);
    // The least (arrival - kernel time * rate) over the boot's lines: its kernel time 0
    // on the host's clock when the kernel's runs at `rate` host seconds per second.
    std::optional<HostNs> driftingFloor(const Boot &b, double rate) const;
    // Run seconds of the boot's kernel time 0 (for `line` of it: after a clock shift).
    RunSeconds bootBase(const Boot &b, std::optional<LineIndex> line = std::nullopt) const;
    // Looks for a clock shift at kernel line i of the boot (Boot::shifts); `silence` is
    // how long nothing came before the line.
    static void trackClockShift(BootScan *scan, LineIndex i, HostNs lag, Nanoseconds silence);
    // The production interval of every drop event.
    void placeDrops();
    // Adds the lines [from, to) to a copy of the series' finest level.
    void fillSeries(SeriesPyramid::Level &fine, LineIndex from, LineIndex to) const;
    BootSplit m_split;                   // advanced by splitBootsSoFar, consumed by finalize
    std::optional<HostNs> m_lastArrival; // the latest arrival, found by splitBoots
    std::vector<std::optional<RunSeconds>> m_eventTimes;
};

// A pass over a run's lines in order that spreads their bytes on the wire (the run's series,
// the sources' series): the span of each (Run::wireSpan) and the frontier it keeps. A line's
// arrival is read once, though the line before needs it as the end of its span.
class WirePass
{
public:
    explicit WirePass(const Run &run) : m_run(run) {}
    // Line i's arrival (Run::timeOf).
    std::optional<RunSeconds> arrival(LineIndex i)
    {
        if (m_line != i) {
            m_line = i;
            m_time = m_run.timeOf(i);
        }
        return m_time;
    }
    // The span of line i's `bytes`, which arrived at `arrived`; lines go in order.
    Run::WireSpan span(LineIndex i, double arrived, double bytes)
    {
        const LineIndex next = i + 1_lines;
        return m_run.wireSpan(arrived, bytes,
                              next < m_run.lines.endIndex() ? arrival(next) : std::nullopt,
                              &m_frontier);
    }

private:
    const Run &m_run;
    std::optional<LineIndex> m_line;
    std::optional<RunSeconds> m_time;
    double m_frontier = -std::numeric_limits<double>::infinity();
};

} // namespace tty
