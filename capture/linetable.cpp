#include "linetable.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace tty {

namespace {
// Text chunks grow from small (a short log stays small: 4 KiB, from malloc rather than a
// populated mapping) to this size, or to a piece's size when they are compressed.
constexpr std::size_t kMinTextChunkBytes = 4u << 10;
constexpr std::size_t kMaxTextChunkBytes = 16u << 20;
} // namespace

// The pieces text() decoded last, shared by every thread that asks: the log view asks for
// the rows on screen one at a time, which lie in one or two pieces.
class DecodedPieces
{
public:
    std::shared_ptr<const std::string> get(std::size_t chunk, const PackedText &packed)
    {
        if (std::shared_ptr<const std::string> hit = find(chunk)) {
            return hit;
        }
        // Decoded outside the lock: threads reading different pieces (the event list's
        // sort, on every core) decode them at once, not one after the other. Two threads
        // asking for the same piece may both decode it; the first one stored is kept.
        auto text = std::make_shared<std::string>(packed.textSize, '\0');
        if (!unpackText(packed, text->data())) {
            text->clear(); // no text rather than bytes nobody can vouch for
        }
        const std::lock_guard<std::mutex> lock(m_mutex);
        ++m_tick;
        Entry *oldest = nullptr;
        for (Entry &e : m_entries) {
            if (e.piece && e.chunk == chunk) {
                e.used = m_tick;
                return e.piece;
            }
            if (!oldest || e.used < oldest->used) {
                oldest = &e;
            }
        }
        *oldest = Entry{chunk, std::move(text), m_tick};
        return oldest->piece;
    }
    // A chunk changed (a packed last chunk made plain again).
    void forget(std::size_t chunk)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (Entry &e : m_entries) {
            if (e.chunk == chunk) {
                e.piece.reset();
            }
        }
    }

private:
    std::shared_ptr<const std::string> find(std::size_t chunk)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (Entry &e : m_entries) {
            if (e.piece && e.chunk == chunk) {
                e.used = ++m_tick;
                return e.piece;
            }
        }
        return nullptr;
    }
    struct Entry
    {
        std::size_t chunk = 0;
        std::shared_ptr<const std::string> piece;
        std::uint64_t used = 0;
    };
    std::mutex m_mutex;
    Entry m_entries[8];
    std::uint64_t m_tick = 0;
};

LineTable::LineTable() : m_decoded(std::make_unique<DecodedPieces>()) {}
LineTable::~LineTable() = default;
LineTable::LineTable(LineTable &&) noexcept = default;
LineTable &LineTable::operator=(LineTable &&) noexcept = default;

void LineTable::makeIndexRoom(std::size_t lines)
{
    if (chunk(m_size) >= m_offset.size()) {
        addIndexChunk();
    }
    m_offset.back().reserve(slot(m_size), slot(m_size) + lines, std::size_t(kChunkLines));
}

void LineTable::trimToSize()
{
    if (const std::size_t used = slot(m_size); used > 0) {
        m_offset.back().trim(used);
    }
    m_arrival.trimToSize();
    m_kernelAndFlags.trimToSize();
}

void LineTable::addIndexChunk()
{
    // The first chunk starts small and grows: a log of a few hundred lines (a board's boot
    // log, reported by the thousand in a batch; a fuzzer's input) takes a few KiB from
    // malloc, not a 256 KiB mapping made and unmade. A log that fills it gets the later
    // chunks whole and populated up front.
    m_offset.emplace_back(m_offset.empty() ? PackedColumn::kFirstChunkLines
                                           : std::size_t(kChunkLines));
    m_firstTextChunk.push_back(0); // set when the chunk's first line is written
}

namespace {
std::optional<std::int64_t> kernelValue(std::optional<KernelUs> kernel)
{
    // A negative kernel time counts as none (kmsg can carry one).
    return kernel && kernel->count() >= 0 ? std::optional<std::int64_t>(kernel->count())
                                          : std::nullopt;
}
} // namespace

void LineTable::append(std::string_view text, std::optional<HostNs> arrival,
                       std::optional<KernelUs> kernel, std::uint16_t flags)
{
    makeIndexRoom(1);
    if (m_text.empty() || !m_text.back().hasRoomFor(text.size())) {
        const std::size_t most = m_packText ? kPackedPieceBytes : kMaxTextChunkBytes;
        std::size_t capacity = kMinTextChunkBytes;
        if (!m_text.empty()) {
            capacity = std::min(most, std::max(capacity, 2 * m_text.back().capacity));
            if (m_text.back().firstLine == m_size && m_text.back().used == 0) {
                m_text.pop_back(); // a chunk without lines, too small for this one
            } else if (m_packText && !m_text.back().isPacked()) {
                packChunk(m_text.size() - 1); // full: no line is added to it any more
            }
        }
        TextChunk c;
        c.capacity = std::max(capacity, text.size());
        c.data = pageArray<char>(c.capacity);
        c.firstLine = m_size;
        m_text.push_back(std::move(c));
    }
    TextChunk &tc = m_text.back();
    if (!text.empty()) {
        std::memcpy(tc.data.get() + tc.used, text.data(), text.size());
    }
    const std::size_t c = chunk(m_size), s = slot(m_size);
    if (s == 0) {
        m_firstTextChunk[c] = m_text.size() - 1;
    }
    m_offset[c].set(s, std::uint32_t(tc.used), s);
    tc.used += text.size();
    m_textBytes += text.size();
    m_arrival.append(arrival ? std::optional<std::int64_t>(arrival->count()) : std::nullopt);
    m_kernelAndFlags.append(kernelValue(kernel), flags & ((1u << kFlagBits) - 1));
    ++m_size;
}

// A chunk that got no line (too small for the line that came): a block brings its own.
void LineTable::dropChunkWithoutLines()
{
    if (!m_text.empty() && m_text.back().firstLine == m_size) {
        m_text.pop_back();
    }
}

void LineTable::appendBlock(PageArray<char> text, std::size_t textSize,
                            const std::uint32_t *offsets, const std::int64_t *arrivals,
                            const std::int64_t *kernelAndFlags, std::size_t n)
{
    if (n == 0) {
        return;
    }
    dropChunkWithoutLines();
    TextChunk tc;
    tc.data = std::move(text);
    tc.capacity = textSize;
    tc.used = textSize;
    tc.firstLine = m_size;
    m_text.push_back(std::move(tc));
    m_textBytes += textSize;
    appendIndex(offsets, arrivals, kernelAndFlags, n, &n);
}

void LineTable::appendPackedBlock(std::vector<PackedText> pieces, const std::size_t *pieceLines,
                                  const std::uint32_t *offsets, const std::int64_t *arrivals,
                                  const std::int64_t *kernelAndFlags, std::size_t n)
{
    if (n == 0) {
        return;
    }
    dropChunkWithoutLines();
    LineIndex first = m_size;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        TextChunk tc;
        tc.used = pieces[k].textSize;
        tc.packed = std::move(pieces[k]);
        tc.firstLine = first;
        m_textBytes += tc.used;
        first += LineCount(std::int64_t(pieceLines[k]));
        m_text.push_back(std::move(tc));
    }
    appendIndex(offsets, arrivals, kernelAndFlags, n, pieceLines);
}

// The index part of a block: its lines' text chunks are the last ones, the first holding
// pieceLines[0] lines, the next pieceLines[1], and so on.
void LineTable::appendIndex(const std::uint32_t *offsets, const std::int64_t *arrivals,
                            const std::int64_t *kernelAndFlags, std::size_t n,
                            const std::size_t *pieceLines)
{
    std::size_t pieces = 0;
    for (std::size_t lines = 0; lines < n; lines += pieceLines[pieces++]) {
    }
    std::size_t piece = m_text.size() - pieces; // the text chunk of line `done`
    std::size_t pieceEnd = pieceLines[0];       // one past its last line, in the block
    std::size_t done = 0;
    while (done < n) {
        const std::size_t c = chunk(m_size), s = slot(m_size);
        const std::size_t take = std::min(n - done, std::size_t(kChunkLines) - s);
        makeIndexRoom(take);
        if (s == 0) {
            while (done >= pieceEnd) {
                ++piece;
                pieceEnd += pieceLines[piece - (m_text.size() - pieces)];
            }
            m_firstTextChunk[c] = piece;
        }
        m_offset[c].setRange(s, offsets + done, take);
        for (std::size_t k = done; k < done + take; ++k) {
            const std::optional<HostNs> a = unpackArrival(arrivals[k]);
            m_arrival.append(a ? std::optional<std::int64_t>(a->count()) : std::nullopt);
            const std::int64_t kf = kernelAndFlags[k];
            const std::int64_t kt = kf & kKernelMask;
            const std::uint32_t flags = std::uint32_t(std::uint64_t(kf) >> kFlagShift);
            m_kernelAndFlags.append(kt == 0 ? std::nullopt : std::optional<std::int64_t>(kt - 1),
                                    flags & ((1u << kFlagBits) - 1));
        }
        done += take;
        m_size += LineCount(std::int64_t(take));
    }
}

void LineTable::packChunk(std::size_t tci)
{
    TextChunk &tc = m_text[tci];
    tc.packed = packText(std::string_view(tc.data.get(), tc.used));
    if (tc.isPacked()) {
        tc.data.reset();
        tc.capacity = 0;
    }
}

void LineTable::unpackLastChunk()
{
    TextChunk &tc = m_text.back();
    if (!tc.isPacked()) {
        return;
    }
    tc.capacity = std::max(tc.used, kMinTextChunkBytes);
    tc.data = pageArray<char>(tc.capacity);
    if (!unpackText(tc.packed, tc.data.get())) {
        std::memset(tc.data.get(), 0, tc.used);
    }
    tc.packed = PackedText();
    if (m_decoded) {
        m_decoded->forget(m_text.size() - 1);
    }
}

void LineTable::replaceLast(std::string_view text, std::uint16_t flags)
{
    if (!empty()) {
        replaceLast(text, flags, kernelTime(m_size - 1_lines));
    }
}

void LineTable::replaceLast(std::string_view text, std::uint16_t flags,
                            std::optional<KernelUs> kernel)
{
    if (empty()) {
        return;
    }
    const LineIndex last = m_size - 1_lines;
    const std::optional<HostNs> arrival = this->arrival(last);
    const std::size_t tci = textChunkOf(last);
    if (tci + 1 == m_text.size()) {
        unpackLastChunk(); // a loaded log's last line, completed by a live capture
    }
    TextChunk &tc = m_text[tci];
    const std::uint32_t off = m_offset[chunk(last)][slot(last)];
    m_textBytes -= tc.used - off;
    tc.used = off;
    --m_size;
    m_arrival.popBack();
    m_kernelAndFlags.popBack();
    append(text, arrival, kernel, flags);
}

std::size_t LineTable::textChunkOf(LineIndex i) const
{
    // The text chunks (one per 16 MiB, or per block of a parallel load, about 1 MiB) that
    // hold the lines of i's index chunk, then a binary search among those few.
    const std::size_t c = chunk(i);
    const std::size_t from = m_firstTextChunk[c];
    const std::size_t to = (LineIndex(std::int64_t(c + 1) << kChunkBits) < m_size)
                               ? m_firstTextChunk[c + 1] + 1
                               : m_text.size();
    auto it = std::upper_bound(m_text.begin() + std::ptrdiff_t(from) + 1,
                               m_text.begin() + std::ptrdiff_t(to), i,
                               [](LineIndex v, const TextChunk &t) { return v < t.firstLine; });
    return std::size_t(it - m_text.begin()) - 1;
}

std::size_t LineTable::lineEnd(LineIndex i, std::size_t tci) const
{
    const LineIndex next = i + 1_lines;
    if (next < m_size && (tci + 1 >= m_text.size() || m_text[tci + 1].firstLine > next)) {
        return offset(next);
    }
    return m_text[tci].used;
}

LineText LineTable::text(LineIndex i) const
{
    return text(i, LineText());
}

LineText LineTable::text(LineIndex i, const LineText &near) const
{
    const std::size_t tci = textChunkOf(i);
    const TextChunk &tc = m_text[tci];
    const std::size_t begin = offset(i), end = lineEnd(i, tci);
    if (!tc.isPacked()) {
        return LineText(std::string_view(tc.data.get() + begin, end - begin));
    }
    std::shared_ptr<const std::string> piece;
    if (near.m_piece && near.m_chunk == tci) {
        piece = near.m_piece;
    } else if (m_decoded) {
        piece = m_decoded->get(tci, tc.packed);
    } else { // a table moved from and filled again: no cache, still the text
        auto own = std::make_shared<std::string>(tc.packed.textSize, '\0');
        if (!unpackText(tc.packed, own->data())) {
            own->clear();
        }
        piece = std::move(own);
    }
    if (piece->size() < end) {
        return LineText(); // did not decode
    }
    const std::string_view view(piece->data() + begin, end - begin);
    return LineText(view, std::move(piece), tci);
}

std::size_t LineTable::indexBytes() const
{
    std::size_t offsets = 0;
    for (const LineOffsets &c : m_offset) {
        offsets += c.memoryBytes();
    }
    return offsets + m_arrival.memoryBytes() + m_kernelAndFlags.memoryBytes();
}

std::size_t LineTable::textMemoryBytes() const
{
    std::size_t n = 0;
    for (const TextChunk &c : m_text) {
        n += c.capacity + c.packed.size;
    }
    return n;
}

std::size_t LineTable::memoryBytes() const
{
    return indexBytes() + textMemoryBytes();
}

} // namespace tty
