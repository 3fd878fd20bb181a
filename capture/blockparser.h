// The line formats (host-timestamped lines, raw console text, a recording's framed lines)
// parsed a block at a time: a block of whole lines needs nothing from the blocks before it,
// so several threads can parse a big file at once. What does depend on earlier lines
// (lines without a host stamp, host clock steps, line numbers, a recording's markers) is
// settled when the blocks are merged in order.
#pragma once

#include "bytebuffer.h"
#include "event.h"
#include "pagememory.h"
#include "rules.h"
#include "textpack.h"
#include "types.h"

#include <string>
#include <string_view>
#include <vector>

namespace tty {

// Recording: lines the reader framed from a recording's data records (recordingblocks.h),
// each stamped with the arrival of its first byte; Tio, Grabserial: lines the reader took
// the stamps of those logs from. Their texts are taken as they are (stampedblocks.h).
enum class LineFormat { HostTs, Raw, Recording, Tio, Grabserial };

// A recorded line's arrival (LineTable::packArrival) and its Split / NoNewline flags.
struct LineStamp
{
    std::int64_t arrival = 0;
    std::uint16_t flags = 0;
};

// What a recording holds beside its console lines (docs/format.md): a marker, a command
// sent, a capture gap or its end is an event placed before the block's line `beforeLine`
// (lines() when it came after the block's last line); the header and the recorder's
// warnings are the run's.
struct BlockNote
{
    enum class Type { Event, Header, Warning, End };
    Type type = Type::Event;
    EventKind kind = EventKind::Marker;
    std::size_t beforeLine = 0;
    HostNs arrival;
    std::string text;
};

// A block of whole lines as the reader cut it from the input.
struct LineBlock
{
    std::int64_t seq = 0; // the block's place in the file
    ByteOffset filePos;   // where the file was read to when it was cut (for progress)
    ByteBuffer data;
    bool endsSplit = false; // its last line is a piece of an over-long one
    // LineFormat::Recording, Tio and Grabserial: a stamp per line, each line in `data` followed by
    // an LF that is not its text; the notes among the lines, and the console bytes the records
    // held.
    std::vector<LineStamp> stamps;
    std::vector<BlockNote> notes;
    std::int64_t recordedBytes = 0;
};

struct ParsedBlock
{
    std::int64_t seq = 0; // the block's place in the file
    ByteOffset filePos;   // where the file was read to when it was cut (for progress)
    PageArray<char> text; // the lines' texts back to back, unless packed:
    std::size_t textSize = 0;
    std::vector<PackedText> pieces;           // ...compressed, a piece of whole lines each
    std::vector<std::size_t> pieceLines;      // the lines in each piece
    std::vector<std::uint32_t> offsets;       // where each line's text starts
    std::vector<std::int64_t> arrivals;       // as stamped: LineTable::packArrival
    std::vector<std::int64_t> kernelAndFlags; // LineTable::packKernelAndFlags
    std::vector<Event> events;                // line: index within the block
    std::int64_t bytes = 0;                   // console bytes as received
    std::int64_t metaLines = 0;               // no console output: conserver's, dictionaries
    std::int64_t splitPieces = 0;             // lines that are pieces of an over-long one
    std::int64_t damagedTimes = 0;            // lines flagged KernelTimeDamaged
    std::size_t firstDamagedTime = 0;         // the first of them in the block
    std::vector<BlockNote> notes;             // a recording's, taken over from the LineBlock
    // The lines with a record header (netconsole's extended form): the block's line and
    // the record's number, for the merge to follow the numbers across blocks.
    std::vector<std::pair<std::size_t, std::uint64_t>> sequences;
    std::int64_t fragmented = 0;     // lines of records that came in fragments
    std::size_t firstFragmented = 0; // the first of them in the block

    std::size_t lines() const { return offsets.size(); }
};

class BlockParser
{
public:
    // With packText, the texts are compressed here, on the parser's thread (`pieces`).
    BlockParser(LineFormat format, const RuleSet &rules, bool packText)
        : m_format(format), m_rules(rules), m_packText(packText)
    {
    }

    // Parses a block of whole lines. Its last line may lack the LF: at the end of the
    // file, or when it is a piece of an over-long line (`endsSplit`). The block's notes
    // are moved to `out`.
    void parse(LineBlock &block, ParsedBlock *out);

private:
    struct Span
    {
        std::size_t start, size;
    };
    void cutLines(std::string_view block, bool endsSplit, ParsedBlock *out);
    void stampedLines(std::string_view block, const std::vector<LineStamp> &stamps,
                      ParsedBlock *out);
    // False when the line is not console output and was left out.
    bool line(std::string_view text, std::size_t start, std::uint16_t flags,
              std::optional<HostNs> arrival, ParsedBlock *out);
    void copyTexts(const char *base, ParsedBlock *out);
    void packTexts(const char *base, ParsedBlock *out);

    LineFormat m_format;
    const RuleSet &m_rules;
    bool m_packText;
    std::string m_piece;       // a piece's text, gathered to be packed
    std::vector<Span> m_spans; // texts found in the block, copied out once all are known
    bool m_inRecord = false;   // the last line had a record header, or was its dictionary's
    std::vector<std::size_t> m_skipped; // the framed lines left out of a block (line())
};

} // namespace tty
