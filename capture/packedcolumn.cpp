#include "packedcolumn.h"

#include <algorithm>
#include <limits>

namespace tty {

PackedColumn::PackedColumn(int codeBits, std::int64_t slack)
    : m_codeBits(codeBits),
      m_codeMask(codeBits >= 32 ? 0xffffffffu : ((std::uint32_t(1) << codeBits) - 1)),
      m_noneCode(m_codeMask), m_slack(std::min<std::int64_t>(slack, m_noneCode / 2))
{
}

PackedColumn::Chunk PackedColumn::newChunk(std::size_t capacity) const
{
    // Room for `capacity` lines; appends grow it to a whole chunk (growPageArray).
    Chunk c;
    c.codes = pageArray<std::uint32_t>(std::max<std::size_t>(capacity, 1));
    return c;
}

bool PackedColumn::fits(std::int64_t value, std::int64_t base) const
{
    // value - base in unsigned arithmetic: exact for value >= base, whatever their size.
    return value >= base && std::uint64_t(value) - std::uint64_t(base) < m_noneCode;
}

std::size_t PackedColumn::searchGroup(const Chunk &c, std::size_t slot, std::size_t from,
                                      std::size_t to) const
{
    // The last group in [from, to) starting at or before the slot.
    const auto it = std::upper_bound(c.firstSlots.begin() + std::ptrdiff_t(from) + 1,
                                     c.firstSlots.begin() + std::ptrdiff_t(to), slot);
    return std::size_t(it - c.firstSlots.begin()) - 1;
}

void PackedColumn::appendTo(Chunk &c, std::size_t slot, std::optional<std::int64_t> value,
                            std::uint32_t payload) const
{
    if (c.bases.empty() || (value && !fits(*value, c.bases.back()))) {
        std::int64_t base = 0;
        if (value) {
            base = *value >= std::numeric_limits<std::int64_t>::min() + m_slack ? *value - m_slack
                                                                                : *value;
        }
        c.firstSlots.push_back(std::uint16_t(slot));
        c.bases.push_back(base);
    }
    if ((slot & ((std::size_t(1) << kBlockBits) - 1)) == 0) {
        c.groupAtBlock.push_back(std::uint16_t(c.bases.size() - 1));
    }
    const std::uint32_t code =
        value ? std::uint32_t(std::uint64_t(*value) - std::uint64_t(c.bases.back())) : m_noneCode;
    c.codes[slot] = code | (m_codeBits >= 32 ? 0 : payload << m_codeBits);
}

void PackedColumn::append(std::optional<std::int64_t> value, std::uint32_t payload)
{
    const std::size_t slot = m_size & (kChunkLines - 1);
    if (slot == 0) {
        m_chunks.push_back(newChunk(m_chunks.empty() ? kFirstChunkLines : kChunkLines));
    } else {
        growPageArray(m_chunks.back().codes, slot, slot + 1, kChunkLines);
    }
    appendTo(m_chunks.back(), slot, value, payload);
    ++m_size;
}

void PackedColumn::popBack()
{
    if (m_size == 0) {
        return;
    }
    --m_size;
    const std::size_t slot = m_size & (kChunkLines - 1);
    if (slot == 0) {
        m_chunks.pop_back();
        return;
    }
    Chunk &c = m_chunks.back();
    if ((slot & ((std::size_t(1) << kBlockBits) - 1)) == 0) {
        c.groupAtBlock.pop_back();
    }
    if (c.firstSlots.back() == slot) {
        c.firstSlots.pop_back();
        c.bases.pop_back();
    }
}

void PackedColumn::set(std::size_t i, std::optional<std::int64_t> value)
{
    Chunk &c = m_chunks[i >> kChunkBits];
    const std::size_t s = i & (kChunkLines - 1);
    const std::uint32_t keep = c.codes[s] & ~m_codeMask;
    if (!value) {
        c.codes[s] = keep | m_noneCode;
        return;
    }
    const std::int64_t base = c.bases[groupOf(c, s)];
    if (fits(*value, base)) {
        c.codes[s] = keep | std::uint32_t(std::uint64_t(*value) - std::uint64_t(base));
        return;
    }
    // Out of its group's range: code the chunk again with the new value.
    const std::size_t first = i - s;
    const std::size_t n = std::min(kChunkLines, m_size - first);
    Chunk next = newChunk(capacityOf(c.codes));
    for (std::size_t k = 0; k < n; ++k) {
        appendTo(next, k, k == s ? value : this->value(first + k), payload(first + k));
    }
    c = std::move(next);
}

void PackedColumn::trimToSize()
{
    if (m_chunks.empty()) {
        return;
    }
    Chunk &c = m_chunks.back();
    const std::size_t used = m_size - (m_chunks.size() - 1) * kChunkLines;
    if (used < capacityOf(c.codes)) {
        reallocatePageArray(c.codes, used, used);
    }
    for (Chunk &k : m_chunks) {
        k.firstSlots.shrink_to_fit();
        k.bases.shrink_to_fit();
        k.groupAtBlock.shrink_to_fit();
    }
}

std::size_t PackedColumn::memoryBytes() const
{
    std::size_t n = 0;
    for (const Chunk &c : m_chunks) {
        n += capacityOf(c.codes) * sizeof(std::uint32_t) +
             c.firstSlots.capacity() * sizeof(std::uint16_t) +
             c.bases.capacity() * sizeof(std::int64_t) +
             c.groupAtBlock.capacity() * sizeof(std::uint16_t);
    }
    return n;
}

std::size_t PackedColumn::groupCount() const
{
    std::size_t n = 0;
    for (const Chunk &c : m_chunks) {
        n += c.bases.size();
    }
    return n;
}

} // namespace tty
