#include "linetable.h"

#include "bytesearch.h"

#include <algorithm>
#include <cstring>

namespace tty {

namespace {
// Text chunks grow from small (a short log stays small: 4 KiB, from malloc rather than a
// populated mapping) to this size.
constexpr std::size_t kMinTextChunkBytes = 4u << 10;
constexpr std::size_t kMaxTextChunkBytes = 16u << 20;
} // namespace

LineTable::LineTable() = default;
LineTable::~LineTable() = default;
LineTable::LineTable(LineTable &&) noexcept = default;
LineTable &LineTable::operator=(LineTable &&) noexcept = default;

void LineTable::addIndexChunk()
{
    // The first chunk is not populated: a log of a few thousand lines (a board's boot log,
    // reported by the thousand in a batch) touches a small part of it. Only a log that
    // fills it gets the later chunks populated up front.
    const bool populate = !m_offset.empty();
    m_offset.push_back(pageArray<std::uint32_t>(kChunkLines, populate));
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
    if (chunk(m_size) >= m_offset.size()) {
        addIndexChunk();
    }
    if (m_text.empty() || m_text.back().capacity - m_text.back().used < text.size()) {
        std::size_t capacity = kMinTextChunkBytes;
        if (!m_text.empty()) {
            capacity = std::min(kMaxTextChunkBytes, std::max(capacity, 2 * m_text.back().capacity));
            if (m_text.back().firstLine == m_size && m_text.back().used == 0) {
                m_text.pop_back(); // a chunk without lines, too small for this one
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
    m_offset[c][s] = std::uint32_t(tc.used);
    tc.used += text.size();
    m_textBytes += text.size();
    m_arrival.append(arrival ? std::optional<std::int64_t>(arrival->count()) : std::nullopt);
    m_kernelAndFlags.append(kernelValue(kernel), flags & ((1u << kFlagBits) - 1));
    ++m_size;
}

void LineTable::appendBlock(PageArray<char> text, std::size_t textSize,
                            const std::uint32_t *offsets, const std::int64_t *arrivals,
                            const std::int64_t *kernelAndFlags, std::size_t n)
{
    if (n == 0) {
        return;
    }
    if (!m_text.empty() && m_text.back().firstLine == m_size) {
        m_text.pop_back(); // a chunk without lines
    }
    TextChunk tc;
    tc.data = std::move(text);
    tc.capacity = textSize;
    tc.used = textSize;
    tc.firstLine = m_size;
    m_text.push_back(std::move(tc));
    m_textBytes += textSize;
    std::size_t done = 0;
    while (done < n) {
        if (chunk(m_size) >= m_offset.size()) {
            addIndexChunk();
        }
        const std::size_t c = chunk(m_size), s = slot(m_size);
        const std::size_t take = std::min(n - done, std::size_t(kChunkLines) - s);
        if (s == 0) {
            m_firstTextChunk[c] = m_text.size() - 1;
        }
        std::memcpy(&m_offset[c][s], offsets + done, take * sizeof *offsets);
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
    TextChunk &tc = m_text[textChunkOf(last)];
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

std::string_view LineTable::text(LineIndex i) const
{
    const std::size_t tci = textChunkOf(i);
    const TextChunk &tc = m_text[tci];
    const std::uint32_t begin = m_offset[chunk(i)][slot(i)];
    std::size_t end = tc.used;
    const LineIndex next = i + 1_lines;
    if (next < m_size && (tci + 1 >= m_text.size() || m_text[tci + 1].firstLine > next)) {
        end = m_offset[chunk(next)][slot(next)];
    }
    return std::string_view(tc.data.get() + begin, end - begin);
}

std::optional<LineIndex> LineTable::findContaining(std::string_view needle, LineIndex from,
                                                   LineIndex end) const
{
    end = std::min(end, m_size);
    auto offset = [&](LineIndex i) { return m_offset[chunk(i)][slot(i)]; };
    LineIndex i = std::max(from, LineIndex(0));
    while (i < end) {
        const std::size_t tci = textChunkOf(i);
        const TextChunk &tc = m_text[tci];
        const LineIndex chunkEnd = tci + 1 < m_text.size() ? m_text[tci + 1].firstLine : m_size;
        // The last line searched in this chunk.
        const LineIndex last = std::min(end, chunkEnd) - 1_lines;
        auto lineEnd = [&](LineIndex j) {
            return j + 1_lines < chunkEnd ? offset(j + 1_lines) : tc.used;
        };
        const char *const base = tc.data.get();
        const char *const regionEnd = base + lineEnd(last);
        const char *p = base + offset(i);
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
            if (offset(mid) <= at) {
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

std::size_t LineTable::indexBytes() const
{
    return m_offset.size() * kChunkLines * sizeof(std::uint32_t) + m_arrival.memoryBytes() +
           m_kernelAndFlags.memoryBytes();
}

std::size_t LineTable::memoryBytes() const
{
    std::size_t n = indexBytes();
    for (const TextChunk &c : m_text) {
        n += c.capacity;
    }
    return n;
}

} // namespace tty
