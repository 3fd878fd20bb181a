// The line formats (host-timestamped lines, raw console text) parsed a block at a time:
// a block of whole lines needs nothing from the blocks before it, so several threads can
// parse a big file at once. What does depend on earlier lines (lines without a host stamp,
// host clock steps, line numbers) is settled when the blocks are merged in order.
#pragma once

#include "event.h"
#include "pagememory.h"
#include "rules.h"
#include "textpack.h"
#include "types.h"

#include <string_view>
#include <vector>

namespace tty {

enum class LineFormat { HostTs, Raw };

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
    std::int64_t metaLines = 0;               // console-server lines, not console output
    bool endsSplit = false;                   // its last line is a piece of an over-long one

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
    // file, or when it is a piece of an over-long line (`endsSplit`).
    void parse(std::string_view block, bool endsSplit, ParsedBlock *out);

private:
    struct Span
    {
        std::size_t start, size;
    };
    void line(std::string_view text, std::size_t start, std::uint16_t flags, ParsedBlock *out);
    void copyTexts(const char *base, ParsedBlock *out);
    void packTexts(const char *base, ParsedBlock *out);

    LineFormat m_format;
    const RuleSet &m_rules;
    bool m_packText;
    std::string m_piece;       // a piece's text, gathered to be packed
    std::vector<Span> m_spans; // texts found in the block, copied out once all are known
};

} // namespace tty
