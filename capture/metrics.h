// The figures users compare runs by: lines, drops, lag, windows, spans, boot time, panics.
#pragma once

#include "crashes.h"
#include "event.h"
#include "run.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace tty {

class LineMatcher;
class TextReader;

struct MetricOptions
{
    QString windowStart; // regex; empty: the window starts at the first line
    double windowSeconds = 30;
    QString windowMatch; // regex; count only matching lines in the window (empty: all)
    QList<QPair<QString, QString>> spans; // FROM regex, TO regex
    QString bootPattern = QStringLiteral("login:");
    bool bootPatternGiven = false; // the user chose it: say so when it matches nothing
    // Where boot_time_s starts: "first-byte" (the boot's first line, firmware included),
    // "kernel" (kernel time 0 of the boot, on the host clock) or a regex.
    QString bootStart = QStringLiteral("first-byte");
    QStringList intervals; // regexes: statistics of the time between matches
};

struct WindowResult
{
    bool found = false;          // the start pattern matched (always true without one)
    std::optional<double> start; // run seconds (arrival of the start line); none without
    std::optional<LineIndex> startLine;
    bool printedKnown = false; // the start has an arrival time, so `lines` means something
    QString printedUnknownWhy; // ...and when the format has them but the start none, why
    std::int64_t lines = 0;    // lines that arrived in [start, start + seconds]
    // Lines the kernel produced in the same span of kernel time: the printed ones and the
    // dropped messages whose production interval falls in it (pro rata, rounded).
    std::int64_t produced = 0;
    std::int64_t producedDropped = 0; // ...of which dropped
    bool producedKnown = false;       // the start line has a production time
    QString producedUnknownWhy;       // ...and when it has none, why
    // A drop in the window whose count is out of range: the lines produced are unknown.
    std::optional<LineIndex> dropCountOutOfRange;
    std::optional<double> wireSeconds; // wire time of the bytes that arrived in the window
    // A log that ends inside the window while its kernel still runs (no power-off, reboot
    // or end of a panic after the window's start: a capture stopped at the login prompt, a
    // cut file) did not see the whole window: its counts are lower bounds. How many seconds
    // of the window it saw, by arrival and by production; none: the whole window (or the
    // figure is unknown anyway).
    std::optional<double> printedSeenSeconds;
    std::optional<double> producedSeenSeconds;
};

struct SpanResult
{
    QString from, to;
    std::optional<double> seconds;
    // The same span by kernel time alone: production of FROM to production of TO (same
    // boot, both timestamped). Knowable without host times.
    std::optional<double> kernelSeconds;
    std::optional<LineIndex> fromLine, toLine;
    QString missing;       // which end was not found
    QString kernelMissing; // both found, but no kernelSeconds: which end has no kernel time
};

struct PanicResult
{
    bool detected = false;
    bool complete = false;
    QStringList missing; // "banner", "call trace", "end marker"
    std::optional<LineIndex> line;
    QString reason;
    // The die() header of the oops before the panic in its boot: the kernel prints no stack
    // of the panic's own after one, so none is missing.
    std::optional<LineIndex> stackInOops;
};

struct IntervalStats
{
    QString pattern;
    std::int64_t matches = 0;
    // Time between consecutive matches (s), by arrival and by kernel time; none without two
    // consecutive matches that have the time.
    std::optional<double> mean, p50, p99;
    std::optional<double> kernelMean, kernelP50, kernelP99;
};

struct Metrics
{
    LineIndex first, end; // the lines measured (a whole run or one boot)
    std::int64_t lines = 0;
    std::int64_t kernelLines = 0;
    std::int64_t kernelLinesBehindText = 0; // of kernelLines (LagSummary)
    std::int64_t bytes = 0;
    bool hasArrival = false; // the run's format has host arrival times
    // The lines measured end where the file was read only in part (cut, damaged, a load
    // cancelled): its counts are of what was read, lower bounds of the run's.
    bool cutShort = false;
    // Why the console's own figures (drops, bytes, time on the wire, lag) are not in this
    // log: "a kernel log, not console output" (dmesg, the journal); empty for a console's.
    QString notConsole;
    // Why the console's bytes (and their time on the wire) are not known: notConsole, or
    // stamps a terminal program wrote in front of the lines.
    QString bytesUnknown;
    // Why the dropped messages are not known: a kernel log without a reader's gaps (dmesg,
    // the journal) has none of the console's drop notices.
    QString dropsUnknown;
    // Why a figure that needs host arrival times has none, for the JSON's notes: empty when
    // the run has them.
    // A panic whose trace stops where the file was read only in part: it may have come out
    // whole, so its completeness is not known.
    bool panicTraceCutOff() const { return panic.detected && !panic.complete && cutShort; }
    // Why a log without a panic has no panic figure (empty when it has one): none in what
    // was read of a file read only in part, or seen before a log that ends with the console
    // behind (a panic's banner comes after the messages queued before it), is not none in the
    // run.
    QString noPanicSeenWhy() const;
    QString noArrivalNote() const
    {
        return hasArrival              ? QString()
               : !notConsole.isEmpty() ? notConsole
                                       : QStringLiteral("the log has no host arrival times");
    }
    std::optional<double> duration;       // seconds from first to last arrival (host times)
    QString startUntimed;                 // why there is none although the format has them
    std::optional<double> kernelDuration; // kernel time covered, summed over the boots
    int baud = 0;
    bool noSerialLine = false;         // a netconsole's bytes: no rate to state
    int bitsPerChar = 10;              // start + data + parity + stop bits (8N1: 10)
    std::optional<double> wireSeconds; // bytes x bits per character / baud (a baud known)
    int boots = 0;
    std::int64_t dropNotices = 0;
    std::int64_t droppedMessages = 0;
    // The first drop notice whose count is out of range: the messages dropped are unknown.
    std::optional<LineIndex> dropCountOutOfRange;
    // Console lag over the lines with both an arrival and a kernel time; absent when the
    // format has no arrival times or no line has both.
    std::optional<double> lagMax, lagP50, lagP99;
    bool hasLag() const { return lagMax.has_value(); }
    // How far behind the console was when the log ends (the lag of its last line that has
    // one), where that is a second or more and the kernel still ran: it did not say it
    // stopped, no boot follows, the file was read whole. A capture stopped in a flood: the
    // messages still queued would have come later still, and the notices of those dropped
    // among them (the kernel prints a drop notice when the console reaches the gap) never
    // came. None when the console had caught up.
    std::optional<double> behindAtEnd;
    // Why the figures the console's backlog can only raise (lag max, drops) are lower
    // bounds of the run's: the file was read only in part, or the log ends with the console
    // behind; empty when they are the run's.
    QString backlogUnseen() const;
    WindowResult window;
    std::vector<SpanResult> spans;
    // Boot time to the first bootPattern line: from MetricOptions::bootStart, from the
    // boot's first byte, and from the kernel's start (its time 0 on the host clock).
    std::optional<double> bootTime;
    std::optional<double> bootTimeFirstByte;
    std::optional<double> bootTimeKernel;
    std::optional<double> bootWireSeconds; // wire time of the bytes up to the boot-done line
    std::optional<LineIndex> bootDoneLine;
    // Why the boot times from the first byte are absent while the boot-done line is known
    // (the capture did not hold the boot's start); empty otherwise.
    QString bootStartNote;
    bool bootStartUntimed = false; // ...because its first line has no host time
    // Why the boot-done line, found, has no arrival: its host time is only its line's end
    // (moreutils ts), which came later than the match; empty otherwise.
    QString bootDoneNote;
    PanicResult panic;
    std::array<std::int64_t, kEventKindCount> eventCounts{};
    std::vector<IntervalStats> intervals;
    QStringList warnings; // patterns that matched no line, and the like
    // The crash reports whose headline lies in [first, end), found once with the other
    // figures (off the GUI thread in the window), for the report, the gate, JUnit and the
    // event list: assembling them reads every report's lines (2 s at 1 GiB of genlog).
    std::shared_ptr<const std::vector<Crash>> crashes;
};

// Whether the run's byte count is exact: formats that keep each line without its line end
// (hostts, grabserial, kmsg) have the ends counted as \r\n, an estimate.
bool bytesAreExact(const Run &run);
// Why the messages dropped are n/a: "a drop notice's count is out of range (line 12)".
QString dropCountOutOfRangeReason(LineIndex notice);

// Bits on the wire per console byte, from the recording's settings (8N1 when unknown).
int bitsPerCharacter(const RunMeta &meta);

// Metrics over [first, end) of a run (no end: to the end); a boot's range gives per-boot
// figures.
Metrics computeMetrics(const Run &run, const MetricOptions &options, LineIndex first = LineIndex(0),
                       std::optional<LineIndex> end = std::nullopt);

// m.crashes, or for Metrics made without them, the crashes of [m.first, m.end) found now.
std::shared_ptr<const std::vector<Crash>> crashesOf(const Run &run, const Metrics &m);

// The first line in [from, end) matching a regex, if any (a big run is searched in
// slices at once, the regex only run on lines holding its required literal).
std::optional<LineIndex> findFirst(const Run &run, const QString &pattern, LineIndex from,
                                   LineIndex end);

// The same on this thread, with a matcher and reader the caller keeps for many searches
// (a search per boot of a log of many boots compiles once and decodes each piece once).
std::optional<LineIndex> findFirstWith(TextReader &reader, const LineMatcher &m, LineIndex from,
                                       LineIndex end);

// p in [0, 1] of a sample (sorted in place); none for an empty one.
std::optional<double> quantile(std::vector<double> &v, double p);

} // namespace tty
