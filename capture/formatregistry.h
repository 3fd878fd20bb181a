// The one table of the console-log formats ttyscope reads. Every place that chooses or
// asks about a format (--format names, detection, which parser, which clocks a run has,
// whether its byte counts are exact) looks here; no code compares format names.
//
// How to add a format (say LAVA's log.yaml, journalctl --output=json, dmesg --json):
//  1. Add its value to `Format` below (the enum's order means nothing; the table's order
//     is the detection priority).
//  2. Write its parser: a FormatParser (formats.h) fed decompressed bytes, turning records
//     into RunBuilder::addLine/addNoteEvent calls, plus a `makeXParser(Run &, RunBuilder &)`
//     factory. A format of independent lines may instead reuse the block parser
//     (LineFormat, blockparser.h), which parses on all cores.
//  3. Write its detector: `matchesHead` when the first bytes prove it (a magic, a document
//     start), or `looksLikeLine` when it is told by a majority of the first lines.
//  4. Add one row to the table in formatregistry.cpp: name, aliases, detectors, parser
//     factory, clocks (hasArrival, arrivalIsWallClock, kernelTimeInRecord), how line
//     endings are counted, whether byte counts are exact, and whether the file is what a
//     console printed (consoleOutput; dropsKnown for a kernel log that still counts drops).
//  5. Tests: a detection row and a load in tests/unit/tst_formats.cpp (its `registry` test
//     lists every row's clocks), a seed in tests/fuzz/corpus/load and the name in the
//     kFormats lists of tests/fuzz/fuzz_load*.cpp.
//  6. Words for users: the --format help (app/cliruns.cpp), packaging/ttyscope.1, README.md.
//  Nothing else changes: the loader, `ttyscope cat`, the report's "format" field, the run's
//  clocks, the Bytes series and the metrics all read the row.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace tty {

class FormatParser;
class Run;
class RunBuilder;
enum class LineFormat; // blockparser.h

enum class Format : std::uint8_t {
    Unknown,       // a run built in memory (tests): no name, never detected or chosen
    Ttyscope,      // ttyscope's own recordings (docs/format.md)
    HostTs,        // "<unix seconds>\t<line>": the line's first byte, as ttyscope's samples
    Grabserial,    // grabserial -t / -T
    Kmsg,          // /dev/kmsg records
    Raw,           // console text without host times (dmesg, conserver, minicom logs)
    Lava,          // LAVA job logs (log.yaml): console lines among the harness's own entries
    JournalJson,   // journalctl -o json (one object per line)
    JournalExport, // journalctl -o export
    JournalShort,  // journalctl -o short-monotonic, short-precise, short-iso-precise
    DmesgJson,     // dmesg --json
    DmesgText,     // dmesg -x, -T, --time-format ctime|iso|reltime|delta
    Tio,           // tio --timestamp --log: "[HH:MM:SS.mmm] line" or an ISO 8601 stamp
    Ts,            // moreutils ts '%.s': "<unix seconds> line", stamped at the line's end
};

struct FormatInfo
{
    Format id = Format::Unknown;
    QString name;        // as --format takes it and the report's "format" shows it
    QStringList aliases; // other names --format accepts (lower case)
    // Detection (detectFormat): the first decompressed bytes prove the format (a magic)...
    bool (*matchesHead)(std::string_view head) = nullptr;
    // ...or a clear majority of the first non-empty lines look like it.
    bool (*looksLikeLine)(std::string_view line) = nullptr;
    // A record-by-record parser; null: independent lines, parsed in blocks as lineFormat.
    std::unique_ptr<FormatParser> (*makeParser)(Run &run, RunBuilder &builder) = nullptr;
    LineFormat lineFormat{};
    // Clocks. hasArrival: lines carry host arrival times; arrivalIsWallClock: those are
    // Unix times (a parser may still find them so per file: grabserial -T).
    bool hasArrival = false;
    bool arrivalIsWallClock = false;
    // A line's host time is when its end arrived, not its first byte (Run::arrivalIsLineEnd).
    bool arrivalIsLineEnd = false;
    // The kernel time is a field of the record, not a "[    1.234567]" prefix of the text.
    bool kernelTimeInRecord = false;
    // Bytes a line ending counts as where the file does not say (the Bytes series).
    int lineEndingBytes = 2;
    // The run's byte count is what the port received (else an estimate from the lines).
    bool bytesExact = false;
    // The file is what a console printed. false: the kernel's log as read from its buffer
    // (dmesg, the journal), which holds the messages a console dropped and not the
    // console's drop notices, nor its prefixes: the console's drops, bytes and times are
    // not in it (Metrics::notConsole).
    bool consoleOutput = true;
    // The run's dropped messages are known: a console's notices, or kmsg's sequence gaps
    // (the messages its reader lost); not for dmesg and the journal (Metrics::dropsUnknown).
    bool dropsKnown = true;
};

// The table, in detection priority order (Unknown is not in it).
const std::vector<FormatInfo> &formatTable();
// The row of a format; Unknown has a row of its own outside the table.
const FormatInfo &formatInfo(Format f);
inline QString formatName(Format f)
{
    return formatInfo(f).name;
}

// Stable names, as accepted by --format, in detection order (ttyscope, dmesg-json, ...).
QStringList formatNames();
// A name or alias, any case (dmesg, console, conserver, text = raw; host = hostts;
// moreutils = ts; recording = ttyscope); nullopt when unknown. "auto" is not a format: the caller
// detects instead.
std::optional<Format> canonicalFormat(const QString &name);
// Looks at the first decompressed bytes; Raw when nothing more specific fits.
Format detectFormat(std::string_view head);
// What --format chose: detected from `head` when the option is empty or "auto", else the
// named format (nullopt: no such name).
std::optional<Format> resolveFormat(const QString &option, std::string_view head);
// Whether most of the first lines of `head` start with a date or a time of day that no
// format reads (ts's default "Dec 06 09:10:00", a custom "[2026-12-06 09:10:00.123456]"):
// detected as raw, such a file gets a warning saying why its host-time figures are n/a.
bool looksStampedButUnread(std::string_view head);

} // namespace tty
