// Reading the text of many lines on one thread: a pass over a run (templating, searching,
// matching a pattern on every line) decodes each compressed piece once, into a buffer of
// its own, instead of going through the table's shared cache a line at a time. Several
// threads each with a reader decode a run's pieces in parallel.
#pragma once

#include "linetable.h"

#include <memory>
#include <optional>
#include <string_view>

namespace tty {

class TextReader
{
public:
    explicit TextReader(const LineTable &lines) : m_lines(lines) {}

    // Line i's text. It stays valid until this reader reads a line of another piece (rely
    // on: until its next call), and while the table is not changed. Never a null view,
    // also for an empty line or a piece that did not decode (then empty).
    std::string_view text(LineIndex i);

    // The first line in [from, end) whose text contains `needle` (non-empty), if any:
    // one search over each piece's text instead of a search per line.
    std::optional<LineIndex> findContaining(std::string_view needle, LineIndex from, LineIndex end);
    // One past the last line of the piece (text chunk) that holds line i: searches bounded
    // by it decode that piece once between them.
    LineIndex pieceEnd(LineIndex i) const;

private:
    // The text of chunk tci, decoded if it is packed; null if it did not decode.
    const char *chunkText(std::size_t tci);

    const LineTable &m_lines;
    // The text chunk of the line read last and its lines [m_first, m_end): a pass in line
    // order finds the next line's chunk without a search.
    std::size_t m_lookup = 0;
    LineIndex m_first, m_end;
    std::size_t m_chunk = std::size_t(-1); // the chunk in m_buffer
    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0;
    bool m_decodedOk = false;
};

} // namespace tty
