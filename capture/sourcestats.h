// Who floods the console (issue 14): the cost of each source of console output in a run
// (or one boot of it), and how the sources of two columns differ.
//
// A source is a message template (sourceindex.h), a prefix ("usb 1-1", "EXT4-fs (sda1)")
// or a caller id ("T123", "C1"). Its cost: lines, bytes (the text and a \r\n line end, as
// the metrics count them), wire time (bytes x bits per character / baud), its share of the
// wire time of all the lines, its wire time up to the boot-done line as a share of the boot
// time, its lines per second between its first and last line, and the dropped messages
// whose drop interval has lines of this source on both sides. A figure the run cannot give
// is none, with the reason in the table's notes.
#pragma once

#include "metrics.h"
#include "run.h"
#include "sourceindex.h"

#include <QString>

#include <optional>
#include <vector>

namespace tty {

enum class SourceGrouping { Template, Prefix, Caller };
bool sourceGroupingFromName(const QString &name, SourceGrouping *out);
QString sourceGroupingName(SourceGrouping g);

struct SourceStat
{
    QString key;        // what the lines share: the template, the prefix or the caller id
    QString templ;      // the template (by prefix or caller: the first line's)
    QString prefix;     // by template: the template's prefix ("usb #"); empty: none
    QString caller;     // by caller: "T123", "C1"; empty: the lines printed none
    bool kernel = true; // the lines carry a kernel timestamp
    std::int64_t lines = 0;
    std::int64_t bytes = 0;
    std::int64_t bootBytes = 0; // bytes of its lines from the boot's start to the boot-done line
    std::int64_t dropped = 0;   // dropped messages attributed to it
    std::optional<double> wireSeconds, wireShare, bootWireSeconds, bootShare;
    std::optional<double> firstS, lastS, rate;
    LineIndex firstLine, lastLine;
    std::uint32_t templateId = 0; // by template: the source's; else its first line's
    QString example;              // the first line's text
};

struct SourceTable
{
    SourceGrouping by = SourceGrouping::Template;
    std::vector<SourceStat> sources; // every source, most wire time (bytes) first
    std::int64_t lines = 0;
    std::int64_t bytes = 0;            // of all lines: the wire shares' whole
    std::optional<double> wireSeconds; // of all lines
    std::optional<double> bootTime;    // the metrics' boot time (the boot shares' whole)
    std::int64_t droppedAttributed = 0;
    std::int64_t droppedUnattributed = 0; // the neighbours of the drop are other sources
    QString wireNote, bootNote, timeNote; // why those figures are none (empty: they are not)
    QString dropNote; // why the dropped messages are not known (a kernel log: no notices)
    // Why they are at least what is shown (Metrics::backlogUnseen): a file read in part, or
    // a log that ends with the console behind; empty when they are the run's.
    QString dropsAtLeast;
    // Which clock first, last and rate are on when it is not the arrivals' (empty: arrivals).
    QString clockNote;
};

// Console bytes of a line as the metrics count them: its text and a \r\n where it ended.
std::int64_t sourceLineBytes(const Run &run, LineIndex i);

// The sources of the lines [m.first, m.end) of a run: m is the run's (or the boot's)
// metrics, which give the range, the baud rate, the boot time and the boot-done line.
SourceTable computeSources(const Run &run, const SourceIndex &index, const Metrics &m,
                           SourceGrouping by);

// The lines of a source in [first, end), in order (for a log filtered to them).
std::vector<LineIndex> linesOfSource(const Run &run, const SourceIndex &index,
                                     const SourceStat &source, SourceGrouping by, LineIndex first,
                                     LineIndex end);

// One source in two columns (each the mean over its trials).
struct SourceDiff
{
    QString key, templ, prefix;
    bool kernel = true;
    double linesA = 0, linesB = 0, bytesA = 0, bytesB = 0;
    double bootBytesA = 0, bootBytesB = 0;
    std::optional<double> wireA, wireB, bootWireA, bootWireB;
    std::optional<double> ratio; // B / A (none when A printed none)
    enum class Mark { Both, New, Gone } mark = Mark::Both;
    QString markText() const; // "new", "gone", "grew x3.2", "shrank x2.0", ""
};

struct SourceComparison
{
    SourceGrouping by = SourceGrouping::Template;
    std::vector<SourceDiff> sources; // largest |B - A| wire time (bytes) first
    int newSources = 0, goneSources = 0;
    // The wire time the new sources took up to the boot-done line in B, against how much
    // longer B took to boot: "how much of the verbose boot's extra boot time its added
    // sources account for on the wire". None without both boot times and a baud rate.
    std::optional<double> newBootWireSeconds, extraBootSeconds, newShareOfExtraBoot;
    QString note; // why those are none
};

// The sources of column A (its trials' tables) against those of B.
SourceComparison compareSources(const std::vector<const SourceTable *> &a,
                                const std::vector<const SourceTable *> &b);

} // namespace tty
