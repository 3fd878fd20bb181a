// Turns console lines into a Run: parses the kernel prefix, detects events, repairs host
// clock steps. Shared by the file loader and live capture.
#pragma once

#include "kmsgheader.h"
#include "rules.h"
#include "run.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace tty {

struct LineFacts; // lineanalysis.h

class RunBuilder
{
public:
    RunBuilder(Run &run, const RuleSet &rules) : m_run(run), m_rules(rules) {}

    // A console line as received. `kernel`/`level` override the parsed prefix (kmsg
    // records carry them outside the text); leave them out to parse them.
    void addLine(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags = 0,
                 std::optional<KernelUs> kernel = std::nullopt,
                 std::optional<int> level = std::nullopt, bool parsePrefix = true);
    // A line of a record that carries its kernel time and level outside the text (journal
    // entries, dmesg's records): the text is not parsed for a prefix, and its message
    // starts at `message` (after a caller id "[  T12] " the record left in it).
    void addRecordLine(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags,
                       std::optional<KernelUs> kernel, std::optional<int> level,
                       std::size_t message);
    // Replaces the last line (a partial line that was completed later).
    void replaceLastLine(std::string_view text, std::uint16_t flags);
    // An event that is not a console line (recorded marker, gap, kmsg sequence gap): it
    // is placed before the next line.
    void addNoteEvent(EventKind kind, std::string_view text, std::optional<HostNs> arrival,
                      std::uint32_t count = 0);
    // The same event placed before `line` (a line not added yet: the loader adds a block's
    // lines after their notes), for the caller to put into the run's events in line order.
    [[nodiscard]] Event noteEvent(EventKind kind, std::string_view text,
                                  std::optional<HostNs> arrival, std::uint32_t count,
                                  LineIndex line);
    // The note of the records missing before `line`, when its record number (LineFacts::
    // sequence) jumps past the last one's (Run::RecordNumbers counts them).
    [[nodiscard]] std::optional<Event> sequenceGap(std::uint64_t sequence, LineIndex line,
                                                   std::optional<HostNs> arrival);
    // A warning the recorder wrote into the recording (a W record). A recorder can warn
    // every second of an hour-long flood ("the live view fell behind: N bytes ..."): the
    // warnings of one kind (the same text but for its numbers) stay one entry, the first's
    // text with how many there were.
    void addRecorderWarning(std::string_view text);
    // Counts the console bytes as received (line endings included).
    void addBytes(std::int64_t n) { m_run.bytes += n; }
    // Counts pieces of over-long lines appended in blocks (addLine counts its own).
    void addSplitPieces(std::int64_t n) { m_splitPieces += n; }
    // Counts lines whose timestamp lost digits (KernelTimeDamaged) appended in blocks, the
    // first of them at `first` (addLine counts its own).
    void addDamagedTimes(std::int64_t n, LineIndex first)
    {
        if (m_damagedTimes == 0) {
            m_firstDamagedTime = first;
        }
        m_damagedTimes += n;
    }

    // Counts records that came in fragments (LineFacts::fragment) appended in blocks, the
    // first of them at `first` (addLine counts its own).
    void addFragmentedRecords(std::int64_t n, LineIndex first)
    {
        if (m_fragmented == 0) {
            m_firstFragmented = first;
        }
        m_fragmented += n;
    }

    // Adds warnings for what was repaired; then Run::finalize().
    void finish();

    // Folds host clock steps back out of the arrival time of `line` (none passes
    // through); called in line order, also for lines appended in blocks.
    std::optional<HostNs> repairArrival(std::optional<HostNs> arrival, LineIndex line)
    {
        // Inline for the common case (no step so far, time not going back): the loader
        // calls this for every line.
        if (arrival && m_clockCorrection == Nanoseconds(0) &&
            std::max(m_lastArrivalNs, -kHostLimitNs) <= arrival->count() &&
            arrival->count() <= kHostLimitNs) {
            m_lastArrivalNs = arrival->count();
            return arrival;
        }
        return repairArrivalSlow(arrival, line);
    }

    // A host time further than 2^62 ns (146 years) from the epoch is corrupt: within it,
    // any two arrivals subtract without overflow (also the limit of the times Run lays out
    // from kernel times when a log has no host times).
    static constexpr std::int64_t kHostLimitNs = std::int64_t(1) << 62;

private:
    void add(std::string_view text, std::optional<HostNs> arrival, std::uint16_t flags,
             const LineFacts &f);
    std::optional<HostNs> repairArrivalSlow(std::optional<HostNs> arrival, LineIndex line);
    // A warning for the clock shifts Run::finalize found (Boot::shifts).
    void warnClockShifts();
    // Names each boot whose kernel clock ran at another rate than the host's.
    void warnClockDrift();

    Run &m_run;
    const RuleSet &m_rules;
    // The last arrival returned, in ns; kNoArrival before the first (checked per line).
    static constexpr std::int64_t kNoArrival = std::numeric_limits<std::int64_t>::min();
    std::int64_t m_lastArrivalNs = kNoArrival;
    Nanoseconds m_clockCorrection{0};
    std::int64_t m_clockSteps = 0;
    std::int64_t m_splitPieces = 0;
    KmsgSequence m_sequence; // of the lines with a record header
    bool m_inRecord = false; // the last line had a record header, or was its dictionary's
    std::int64_t m_fragmented = 0;
    LineIndex m_firstFragmented{0};
    std::int64_t m_damagedTimes = 0;
    LineIndex m_firstDamagedTime{0};
    Nanoseconds m_largestStep{0};
    std::optional<LineIndex> m_firstStepLine;
    std::int64_t m_outOfRange = 0; // arrivals the correction would have wrapped
    std::optional<LineIndex> m_firstOutOfRangeLine;
    struct RecorderWarning
    {
        qsizetype entry; // in Run::warnings
        QString first;
        std::int64_t count;
    };
    std::unordered_map<std::string, RecorderWarning> m_recorderWarnings; // by template
};

} // namespace tty
