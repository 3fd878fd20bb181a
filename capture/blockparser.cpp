#include "blockparser.h"

#include "digits.h"
#include "kmsgheader.h"
#include "lineanalysis.h"
#include "linetable.h"

#include <algorithm>
#include <cstring>

namespace tty {

namespace {
// The CRs right before the LF belong to the line ending, as LineFramer has it.
std::string_view trimCr(const char *b, const char *e)
{
    while (e > b && e[-1] == '\r') {
        --e;
    }
    return std::string_view(b, std::size_t(e - b));
}

// conserver's own lines ("[-- MARK -- Thu Nov 30 05:20:00 2026]", "[-- Console up --]",
// "[-- Console down -- <date>]") are not console output.
bool isConsoleServerLine(std::string_view t)
{
    return t.size() >= 6 && t.substr(0, 4) == "[-- " && t.back() == ']' &&
           t.find(" --", 3) != std::string_view::npos;
}
} // namespace

void BlockParser::parse(LineBlock &block, ParsedBlock *out)
{
    out->offsets.clear();
    out->arrivals.clear();
    out->kernelAndFlags.clear();
    out->events.clear();
    out->sequences.clear();
    out->fragmented = 0;
    out->metaLines = 0;
    out->splitPieces = 0;
    out->damagedTimes = 0;
    out->notes = std::move(block.notes);
    block.notes.clear(); // a moved-from vector is valid but unspecified: the buffer is reused
    m_spans.clear();
    // Whether the block's first line follows a record is the block before's to say: a line of
    // a dictionary's shape at a block's start is taken for one (no console line of printk's
    // starts with " KEY=").
    m_inRecord = true;

    const std::string_view text = block.data.view();
    if (m_format == LineFormat::Recording || m_format == LineFormat::Tio ||
        m_format == LineFormat::Grabserial) {
        out->bytes = block.recordedBytes;
        stampedLines(text, block.stamps, out);
    } else {
        out->bytes = m_format == LineFormat::Raw ? std::int64_t(text.size()) : 0;
        out->splitPieces = block.endsSplit ? 1 : 0;
        cutLines(text, block.endsSplit, out);
    }

    out->offsets.resize(m_spans.size());
    out->pieces.clear();
    out->pieceLines.clear();
    out->text.reset();
    out->textSize = 0;
    if (m_packText) {
        packTexts(text.data(), out);
    } else {
        copyTexts(text.data(), out);
    }
}

void BlockParser::cutLines(std::string_view block, bool endsSplit, ParsedBlock *out)
{
    const char *const base = block.data();
    const char *p = base;
    const char *const end = base + block.size();
    while (p < end) {
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', std::size_t(end - p)));
        const char *const lineEnd = nl ? nl + 1 : end;
        const std::string_view text =
            nl ? trimCr(p, nl) : std::string_view(p, std::size_t(end - p));
        if (m_format == LineFormat::Raw && isConsoleServerLine(text)) {
            // Written by the console server, never sent by the UART: not in the bytes.
            ++out->metaLines;
            out->bytes -= std::int64_t(lineEnd - p);
        } else {
            line(text, std::size_t(p - base), nl ? 0 : (endsSplit ? Split : NoNewline),
                 std::nullopt, out);
        }
        p = lineEnd;
    }
}

// The reader framed these lines already (CRs of the line ending taken off, over-long lines
// cut): an LF follows each, and the text before it is the line's, a CR at its end included.
void BlockParser::stampedLines(std::string_view block, const std::vector<LineStamp> &stamps,
                               ParsedBlock *out)
{
    std::size_t at = 0;
    m_skipped.clear();
    for (std::size_t i = 0; i < stamps.size(); ++i) {
        const LineStamp &s = stamps[i];
        const std::size_t nl = std::min(block.find('\n', at), block.size());
        if (!line(block.substr(at, nl - at), at, s.flags, LineTable::unpackArrival(s.arrival),
                  out)) {
            m_skipped.push_back(i);
        }
        out->splitPieces += (s.flags & Split) ? 1 : 0;
        at = nl + 1;
    }
    // The notes were placed by the framed lines: before the same line among those kept.
    for (BlockNote &n : out->notes) {
        n.beforeLine -= std::size_t(
            std::lower_bound(m_skipped.begin(), m_skipped.end(), n.beforeLine) - m_skipped.begin());
    }
}

void BlockParser::copyTexts(const char *base, ParsedBlock *out)
{
    std::size_t total = 0;
    for (const Span &s : m_spans) {
        total += s.size;
    }
    out->text = pageArray<char>(total);
    out->textSize = total;
    std::size_t at = 0;
    for (std::size_t i = 0; i < m_spans.size(); ++i) {
        out->offsets[i] = std::uint32_t(at);
        std::memcpy(out->text.get() + at, base + m_spans[i].start, m_spans[i].size);
        at += m_spans[i].size;
    }
}

// Pieces of whole lines, each about kPackedPieceBytes (one over-long line makes a bigger
// one): a line's offset counts from the start of its piece.
void BlockParser::packTexts(const char *base, ParsedBlock *out)
{
    std::size_t first = 0; // the piece's first line
    m_piece.clear();
    for (std::size_t i = 0; i < m_spans.size(); ++i) {
        out->offsets[i] = std::uint32_t(m_piece.size());
        m_piece.append(base + m_spans[i].start, m_spans[i].size);
        if (m_piece.size() >= kPackedPieceBytes || i + 1 == m_spans.size()) {
            out->pieces.push_back(packText(m_piece));
            out->pieceLines.push_back(i + 1 - first);
            first = i + 1;
            m_piece.clear();
        }
    }
}

bool BlockParser::line(std::string_view text, std::size_t start, std::uint16_t flags,
                       std::optional<HostNs> arrival, ParsedBlock *out)
{
    if (m_format == LineFormat::HostTs) {
        // "<unix seconds[.frac]>\t<line>", or a space instead of the tab (ts '%.s').
        std::int64_t ns = 0;
        const std::size_t q = parseSeconds(text, 0, &ns, 1);
        if (q != std::string_view::npos && q < text.size() && (text[q] == '\t' || text[q] == ' ')) {
            text = text.substr(q + 1);
            start += q + 1;
            arrival = HostNs(ns);
        }
        out->bytes += std::int64_t(text.size()) + 2;
    }
    if (m_inRecord && !(flags & (NoNewline | Split)) && isRecordDictionaryLine(text)) {
        ++out->metaLines; // a record's dictionary (kmsgheader.h): not console output
        return false;
    }
    const LineFacts f = analyseLine(text, flags);
    m_inRecord = f.sequence.has_value();
    const LineIndex local = LineIndex(m_spans.size());
    if (f.fragment && out->fragmented++ == 0) {
        out->firstFragmented = m_spans.size();
    }
    if ((f.flags & KernelTimeDamaged) && out->damagedTimes++ == 0) {
        out->firstDamagedTime = m_spans.size();
    }
    if (f.sequence) {
        out->sequences.emplace_back(m_spans.size(), *f.sequence);
    }
    m_spans.push_back(Span{start, text.size()});
    out->arrivals.push_back(LineTable::packArrival(arrival));
    out->kernelAndFlags.push_back(LineTable::packKernelAndFlags(f.kernel, f.flags));
    detectEvents(m_rules, text, f, local, &out->events);
    return true;
}

} // namespace tty
