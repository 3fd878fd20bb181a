#include "textreader.h"

#include "bytesearch.h"

namespace tty {

const char *TextReader::chunkText(std::size_t tci)
{
    const LineTable::TextChunk &tc = m_lines.m_text[tci];
    if (tc.used == 0) {
        // Only empty lines (a run of newlines, NULs turned into line ends): nothing to
        // decode. Every line view points somewhere, since callers pass them on to memcpy
        // and memcmp (undefined for a null pointer even for 0 bytes).
        return "";
    }
    if (!tc.isPacked()) {
        return tc.data.get();
    }
    if (tci != m_chunk) {
        if (m_capacity < tc.used) {
            m_buffer.reset(new char[tc.used]);
            m_capacity = tc.used;
        }
        m_chunk = tci;
        m_decodedOk = unpackText(tc.packed, m_buffer.get());
    }
    return m_decodedOk ? m_buffer.get() : nullptr;
}

std::string_view TextReader::text(LineIndex i)
{
    const LineTable &t = m_lines;
    if (i < m_first || i >= m_end) {
        m_lookup = t.textChunkOf(i);
        m_first = t.m_text[m_lookup].firstLine;
        m_end = m_lookup + 1 < t.m_text.size() ? t.m_text[m_lookup + 1].firstLine : t.m_size;
    }
    const char *base = chunkText(m_lookup);
    if (!base) {
        return std::string_view("", 0); // did not decode: empty, but a view like any other
    }
    const std::size_t begin = t.offset(i);
    const std::size_t end = i + 1_lines < m_end ? t.offset(i + 1_lines) : t.m_text[m_lookup].used;
    return std::string_view(base + begin, end - begin);
}

LineIndex TextReader::pieceEnd(LineIndex i) const
{
    const LineTable &t = m_lines;
    if (i >= t.m_size) {
        return t.m_size;
    }
    const std::size_t tci = t.textChunkOf(i);
    return tci + 1 < t.m_text.size() ? t.m_text[tci + 1].firstLine : t.m_size;
}

std::optional<LineIndex> TextReader::findContaining(std::string_view needle, LineIndex from,
                                                    LineIndex end)
{
    const LineTable &t = m_lines;
    end = std::min(end, t.m_size);
    LineIndex i = std::max(from, LineIndex(0));
    while (i < end) {
        const std::size_t tci = t.textChunkOf(i);
        const LineTable::TextChunk &tc = t.m_text[tci];
        const LineIndex chunkEnd =
            tci + 1 < t.m_text.size() ? t.m_text[tci + 1].firstLine : t.m_size;
        // The last line searched in this chunk.
        const LineIndex last = std::min(end, chunkEnd) - 1_lines;
        auto lineEnd = [&](LineIndex j) {
            return j + 1_lines < chunkEnd ? t.offset(j + 1_lines) : tc.used;
        };
        const char *const base = chunkText(tci);
        if (!base) {
            i = last + 1_lines;
            continue;
        }
        const char *const regionEnd = base + lineEnd(last);
        const char *p = base + t.offset(i);
        const char *hit = findBytes(p, std::size_t(regionEnd - p), needle);
        if (!hit) {
            i = last + 1_lines;
            continue;
        }
        // The line holding the hit: the last one in [i, last] starting at or before it.
        const std::size_t at = std::size_t(hit - base);
        LineIndex lo = i, hi = last;
        while (lo < hi) {
            const LineIndex mid = lo + (hi - lo + 1_lines) / 2;
            if (t.offset(mid) <= at) {
                lo = mid;
            } else {
                hi = mid - 1_lines;
            }
        }
        if (at + needle.size() <= lineEnd(lo)) {
            return lo;
        }
        i = lo + 1_lines; // the hit runs into the next line: any later hit in `lo` would too
    }
    return std::nullopt;
}

} // namespace tty
